import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { countKeysMadeBy } from "~/models/api-key.server";
import { deleteOtherSessions, deleteOwnSession, listUserSessions } from "~/models/session.server";
import { revokeKeysMadeBy } from "~/services/account-access.server";
import { sessionActionSchema } from "~/forms/account-schemas";
import { getSessionId } from "~/services/session-cookie.server";
import { requireUser } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { formatDateTime } from "~/format";
import { redirectWithSuccess } from "~/services/toast.server";

/** Your sessions: every device signed in to this account, and a way to end them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sessions = await listUserSessions(user.id, await getSessionId(request));
  const liveKeys = await countKeysMadeBy(user.id);
  return data({ sessions, liveKeys }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await readForm(request), { schema: sessionActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const current = await getSessionId(request);
  if (submission.value.intent === "revoke-keys") {
    const revoked = await revokeKeysMadeBy(user, { actor: user, context, why: "revoked by their maker" });
    return redirectWithSuccess(
      "/dashboard/sessions",
      revoked === 0
        ? "You have no live API keys."
        : revoked === 1
          ? "Your API key is revoked."
          : `Your ${revoked} API keys are revoked.`,
    );
  }
  if (submission.value.intent === "end-others") {
    const ended = current ? await deleteOtherSessions(user.id, current) : 0;
    return redirectWithSuccess(
      "/dashboard/sessions",
      ended === 1 ? "1 other session has been signed out." : `${ended} other sessions have been signed out.`,
    );
  }
  // Only the user's own sessions are looked at: any other handle is simply not found.
  const handle = submission.value.session;
  const own = await listUserSessions(user.id, current);
  const target = own.find((session) => session.handle === handle);
  if (!target) {
    return data(submission.reply({ formErrors: ["That session has already ended."] }), { status: 404 });
  }
  if (target.current) {
    return data(submission.reply({ formErrors: ["To end this session, sign out."] }), { status: 400 });
  }
  await deleteOwnSession(user.id, handle);
  return redirectWithSuccess("/dashboard/sessions", `The session on ${target.device} has been signed out.`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [{ label: "Device" }, { label: "Started" }, { label: "Address" }, { label: "Action" }];

export default function SessionsPage() {
  const { sessions, liveKeys } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/dashboard/sessions";
  const pendingSession = pending ? navigation.formData?.get("session") : null;
  const pendingOthers = pending && navigation.formData?.get("intent") === "end-others";
  const pendingKeys = pending && navigation.formData?.get("intent") === "revoke-keys";
  const formErrors = lastResult && "error" in lastResult ? lastResult.error?.[""] : null;
  const others = sessions.filter((session) => !session.current).length;

  return (
    <section aria-labelledby="sessions-heading">
      <h1 id="sessions-heading" className="text-2xl font-bold text-slate-900">
        Your sessions
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        The devices signed in to your account. End any you do not recognise.
      </p>
      <ErrorList errors={formErrors} />
      <DataTable caption="Your active sessions, newest first" columns={COLUMNS}>
        {sessions.map((session) => (
          <tr key={session.handle} data-testid="session-row" data-current={session.current || undefined}>
            <th scope="row" className="px-4 py-3 font-medium text-slate-900">
              {session.device}
              {session.current ? (
                <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">
                  This device
                </span>
              ) : null}
            </th>
            <td className="px-4 py-3 text-slate-800" data-label="Started">
              {formatDateTime(session.startedAt)}
            </td>
            <td className="break-all px-4 py-3 text-slate-800" data-label="Address">
              {session.ip}
            </td>
            <td className="px-4 py-3 max-md:col-span-2">
              {session.current ? (
                <span className="text-sm text-slate-600">Use Sign out to end this one</span>
              ) : (
                <Form method="post" action="/dashboard/sessions">
                  <input type="hidden" name="intent" value="end" />
                  <input type="hidden" name="session" value={session.handle} />
                  <SubmitButton
                    variant="danger"
                    pending={pendingSession === session.handle}
                    pendingText="Ending…"
                    className="px-3 py-1 text-sm"
                  >
                    End session<span className="sr-only"> ({session.device})</span>
                  </SubmitButton>
                </Form>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {others > 0 ? (
        <Form method="post" action="/dashboard/sessions" className="mt-4">
          <input type="hidden" name="intent" value="end-others" />
          <SubmitButton variant="danger" pending={pendingOthers} pendingText="Signing out…">
            Sign out all other sessions
          </SubmitButton>
        </Form>
      ) : (
        <p className="mt-4 text-sm text-slate-600">You are signed in on this device only.</p>
      )}

      <h2 className="mt-8 text-lg font-semibold text-slate-900">API keys</h2>
      <p className="mt-1 max-w-2xl text-sm text-slate-700" data-testid="keys-not-sessions">
        Signing out does not revoke API keys: a key keeps working until it is revoked.{" "}
        {liveKeys === 0
          ? "You have no live API keys."
          : liveKeys === 1
            ? "You made 1 key that still works."
            : `You made ${liveKeys} keys that still work.`}
      </p>
      {liveKeys > 0 ? (
        <Form method="post" action="/dashboard/sessions" className="mt-3">
          <input type="hidden" name="intent" value="revoke-keys" />
          <SubmitButton variant="danger" pending={pendingKeys} pendingText="Revoking…">
            Revoke all my API keys
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Your sessions — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
