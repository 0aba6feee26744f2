import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { getUser, requireUser } from "~/services/guards.server";
import { startSession } from "~/services/session-cookie.server";
import { NEW_PASSWORD_HELP } from "~/forms/account-schemas";
import { acceptNewAccountSchema, acceptSchema } from "~/forms/company-forms";
import { COMPANY_ROLE_FOR_YOU, COMPANY_ROLE_WORDS } from "~/domain/company-roles";
import { formatCents } from "~/format";
import { acceptInvitation, acceptInvitationAsNewAccount, describeInvitation } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { passwordProblem, hashPassword } from "~/services/password.server";
import { redirectWithSuccess } from "~/services/toast.server";

const STATUS = { unknown: 404, used: 410, expired: 410 } as const;
const PROBLEM = {
  unknown: "This invitation link is not valid.",
  used: "This invitation was already accepted: each link works once.",
  expired: "This invitation has expired. Ask the company's owner for a new one.",
} as const;

/**
 * An invitation to join a company. The person with the invited address accepts: signed in to that
 * account when it exists, else by choosing a name and password here. Nobody else can use it.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const invitation = await describeInvitation(token);
  const headers = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };
  if (invitation.state !== "valid") {
    return data(
      { problem: PROBLEM[invitation.state], invitation: null, viewer: null },
      { status: STATUS[invitation.state], headers },
    );
  }
  const user = await getUser(request);
  const viewer = user ? { email: user.email, matches: user.email === invitation.email } : null;
  return data(
    { problem: null, invitation: { ...invitation, token }, viewer },
    { status: viewer && !viewer.matches ? 403 : 200, headers },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const formData = await readForm(request);
  if (formData.get("intent") === "create") {
    const submission = parseForm(formData, { schema: acceptNewAccountSchema });
    if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
    if (await getUser(request)) {
      return data(submission.reply({ formErrors: ["Sign out first: you are signed in to another account."] }), {
        status: 403,
      });
    }
    const invitation = await describeInvitation(token);
    const common = passwordProblem(submission.value.password, {
      email: invitation.state === "valid" ? invitation.email : null,
      name: submission.value.name,
      companyName: invitation.state === "valid" ? invitation.companyName : null,
    });
    if (common) {
      return data(submission.reply({ fieldErrors: { password: [common] }, hideFields: ["password"] }), { status: 400 });
    }
    const outcome = await acceptInvitationAsNewAccount(
      token,
      { name: submission.value.name, passwordHash: await hashPassword(submission.value.password) },
      context,
    );
    if (!outcome.ok) {
      return data(submission.reply({ formErrors: [outcome.message], hideFields: ["password"] }), {
        status: outcome.status,
      });
    }
    const headers = await startSession(request, outcome.userId, context);
    return redirectWithSuccess("/dashboard/company", `Welcome to ${outcome.companyName}!`, { headers });
  }
  const user = await requireUser(request, { redirectTo: `/invitations/${token}` });
  const submission = parseForm(formData, { schema: acceptSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const outcome = await acceptInvitation(token, user, context);
  if (!outcome.ok) return data(submission.reply({ formErrors: [outcome.message] }), { status: outcome.status });
  return redirectWithSuccess("/dashboard/company", `You joined ${outcome.companyName}.`);
}

export const headers: HeadersFunction = ({ loaderHeaders }) => ({
  "Cache-Control": "private, no-store",
  "Referrer-Policy": loaderHeaders.get("Referrer-Policy") ?? "same-origin",
});

function NewAccountForm({ email }: { email: string }) {
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "accept-new",
    lastResult,
    constraint: getZodConstraint(acceptNewAccountSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: acceptNewAccountSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-4">
      <input type="hidden" name="intent" value="create" />
      <p className="mb-3 text-sm text-slate-700">
        Your account will use <strong className="break-all">{email}</strong>.
      </p>
      <Field meta={fields.name} label="Your name" inputProps={{ autoComplete: "name" }} />
      <Field
        meta={fields.password}
        type="password"
        label="Choose a password"
        inputProps={{ autoComplete: "new-password" }}
        help={NEW_PASSWORD_HELP}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton pending={isPending} pendingText="Joining…">
        Create my account and join
      </SubmitButton>
    </Form>
  );
}

export default function InvitationPage() {
  const { problem, invitation, viewer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const formErrors = lastResult && "error" in lastResult ? lastResult.error?.[""] : null;
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Company invitation</h1>
        {problem || !invitation ? (
          <>
            <p className="mt-3 text-slate-800" data-testid="invitation-problem">
              {problem}
            </p>
            <Link to="/" className="mt-4 inline-flex min-h-11 items-center font-medium text-brand-700 underline">
              Go to the home page
            </Link>
          </>
        ) : (
          <>
            <p className="mt-3 text-slate-800">
              You are invited to join <strong>{invitation.companyName}</strong> as{" "}
              {COMPANY_ROLE_WORDS[invitation.role].toLowerCase()}: {COMPANY_ROLE_FOR_YOU[invitation.role]}.
            </p>
            {invitation.role === "buyer" ? (
              <p className="mt-2 text-slate-800" data-testid="invitation-limit">
                {invitation.spendingLimitCents
                  ? `Your orders up to ${formatCents(invitation.spendingLimitCents, { currency: invitation.currency })} are placed at once; above that, ${invitation.invitedByName ?? "an owner"} approves them.`
                  : "Your orders are placed at once, with no limit per order."}
              </p>
            ) : null}
            {viewer && !viewer.matches ? (
              <p className="mt-3 text-slate-800" data-testid="invitation-problem">
                This invitation is for <span className="break-all">{invitation.email}</span>, but you are signed in as{" "}
                <span className="break-all">{viewer.email}</span>. Sign out, then open the link again.
              </p>
            ) : viewer ? (
              <Form method="post" className="mt-4">
                <input type="hidden" name="intent" value="accept" />
                <div role="alert">
                  <ErrorList errors={formErrors} />
                </div>
                <SubmitButton pending={isPending} pendingText="Joining…">
                  Join {invitation.companyName}
                </SubmitButton>
              </Form>
            ) : invitation.hasAccount ? (
              <p className="mt-4">
                <Link
                  to={`/login?${new URLSearchParams({ redirectTo: `/invitations/${invitation.token}` })}`}
                  className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
                >
                  Sign in as {invitation.email} to accept
                </Link>
              </p>
            ) : (
              <NewAccountForm email={invitation.email} />
            )}
          </>
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Company invitation — PartsWorks" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
