import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { replyErrors } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FailedMailList, toFailedMailItems } from "~/components/failed-mail";
import { ErrorList } from "~/components/forms";
import { requireAdmin } from "~/services/guards.server";
import { listFailedMail, sendFailedMailAgain } from "~/services/failed-mail.server";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";

const resendSchema = z.object({
  outboxId: z
    .string({ required_error: "Choose an email" })
    .trim()
    .min(1, "Choose an email")
    .max(200, "Choose an email"),
});

/** Emails the shop gave up on after their attempts (mail-worker.server.ts), to send again. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const { items, total } = await listFailedMail(100);
  return data({ items: toFailedMailItems(items), total }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await readForm(request), { schema: resendSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const message = await sendFailedMailAgain({ outboxId: submission.value.outboxId, admin, context });
  if (!message) {
    return data(submission.reply({ formErrors: ["That email is no longer waiting to be sent again."] }), {
      status: 409,
    });
  }
  return redirectWithSuccess("/dashboard/failedMail", `Sending "${message.subject}" to ${message.to} again.`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function FailedMail() {
  const { items, total } = useLoaderData<typeof loader>();
  const formErrors = replyErrors(useActionData<typeof action>());
  return (
    <section aria-labelledby="failed-mail-heading" className="mx-auto max-w-5xl px-4 py-8">
      <h1 id="failed-mail-heading" className="text-2xl font-bold text-slate-900">
        Emails not sent
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        Each was tried several times, minutes apart, and the mail server would not take it. Check the mail server, then
        send them again. The newest first.
      </p>
      <ErrorList errors={formErrors} />
      {total === 0 ? (
        <p className="mt-4 text-slate-700">
          Every email has gone out.{" "}
          <Link to="/dashboard/admin" className="text-brand-700 underline">
            Back to Shop Today
          </Link>
        </p>
      ) : (
        <FailedMailList items={items} />
      )}
      {total > items.length ? (
        <p className="mt-2 text-sm text-slate-600">
          The newest {items.length} of {total} are shown.
        </p>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Emails not sent — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
