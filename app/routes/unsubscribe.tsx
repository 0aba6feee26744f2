import { getFormProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ErrorList, SubmitButton, useIsPending } from "~/components/forms";
import { getUserById } from "~/models/user.server";
import { setOrderUpdateEmails } from "~/models/user-profile.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/services/cache.server";
import { parseForm, readForm } from "~/services/form.server";
import { readUnsubscribeToken } from "~/services/unsubscribe.server";

export const UNSUBSCRIBED =
  "Done: you will no longer get order update emails. Receipts, shipping notices and account emails still come.";
const BAD_LINK =
  "This unsubscribe link is not valid. Check that you copied all of it, or turn the emails off on My Profile.";

/** The form posts the token; a mail client's one-click unsubscribe (RFC 8058) posts to the link itself. */
const unsubscribeSchema = z.object({ token: z.string({ required_error: BAD_LINK }).max(200) });

/** The link in every non-essential email: works without signing in, asks for one click. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const userId = readUnsubscribeToken(token);
  const user = userId ? await getUserById(userId) : null;
  if (!user) return data({ token: "", email: null, on: false }, { status: 400, headers: TOKEN_PAGE_HEADERS });
  return data({ token, email: user.email, on: user.orderUpdateEmails }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  if (!formData.has("token")) formData.set("token", new URL(request.url).searchParams.get("token") ?? "");
  const submission = parseForm(formData, { schema: unsubscribeSchema });
  const userId = submission.status === "success" ? readUnsubscribeToken(submission.value.token) : null;
  if (!userId || !(await setOrderUpdateEmails(userId, false))) {
    return data(
      { done: false, result: submission.reply({ formErrors: [BAD_LINK] }) },
      { status: 400, headers: TOKEN_PAGE_HEADERS },
    );
  }
  return data({ done: true, result: submission.reply({ resetForm: true }) }, { headers: TOKEN_PAGE_HEADERS });
}

export default function Unsubscribe() {
  const { token, email, on } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form] = useForm({ id: "unsubscribe", lastResult: actionData?.result });
  const done = actionData?.done || (email && !on);
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Order update emails</h1>
        {done ? (
          <p role="status" className="mt-4 text-slate-800" data-testid="unsubscribed">
            {UNSUBSCRIBED}
          </p>
        ) : email ? (
          <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
            <p className="text-slate-800">
              Stop the order update emails (order placed, cancellations) to {email}? Receipts, shipping notices and
              account emails still come.
            </p>
            <input type="hidden" name="token" value={token} />
            <ErrorList id={form.errorId} errors={form.errors} />
            <SubmitButton pending={isPending} pendingText="Unsubscribing…">
              Unsubscribe
            </SubmitButton>
          </Form>
        ) : (
          <p role="alert" className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800">
            {BAD_LINK}
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link to="/dashboard" className="font-medium text-brand-700 underline hover:text-brand-800">
            My Profile
          </Link>
        </p>
      </div>
    </div>
  );
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [{ title: "Unsubscribe — PartsWorks" }, { name: "robots", content: "noindex" }];
