import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { MailedLinkConfirm, MailedLinkProblem } from "~/components/mailed-link-problem";
import { mailedLinkSchema } from "~/forms/account-schemas";
import { getSessionId } from "~/services/session-cookie.server";
import { getUser } from "~/services/guards.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/services/cache.server";
import { approveEmailChange, checkEmailChangeToken, confirmEmailChange } from "~/services/email-change.server";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";

const PROBLEMS = {
  expired: "This link has expired: links work for one day. Ask again for the change on My Profile.",
  used: "This link has already been used.",
  unknown: "This link is not valid. Check that you copied all of it.",
  taken: "Another account uses this email address now, so your address stays as it was.",
} as const;

/**
 * A change-of-email link opens a page with one button; only its POST changes anything. The link
 * mailed to the new address confirms the change; for an account without a password, a link to
 * the current address approves it first.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkEmailChangeToken(token);
  if (check.state !== "valid") {
    return data(
      { problem: PROBLEMS[check.state], token: "", email: "", step: check.step },
      { status: 400, headers: TOKEN_PAGE_HEADERS },
    );
  }
  return data({ problem: null, token, email: check.email, step: check.step }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), { schema: mailedLinkSchema });
  const token = submission.status === "success" ? submission.value.token : "";
  const step = (await checkEmailChangeToken(token)).step;
  if (step === "approve") {
    const outcome = await approveEmailChange(token);
    if (!outcome.problem) {
      const user = await getUser(request);
      return redirectWithSuccess(user ? "/dashboard" : "/login", {
        message: `We have sent a link to ${outcome.email}`,
        description: "Open it to use that address; until then your account keeps its address.",
      });
    }
    return data({ problem: PROBLEMS[outcome.problem] }, { status: outcome.problem === "taken" ? 409 : 400 });
  }
  const outcome = await confirmEmailChange(token, await getSessionId(request));
  if (!outcome.problem) {
    const user = await getUser(request);
    return redirectWithSuccess(user ? "/dashboard" : "/login", {
      message: `Your email address is now ${outcome.email}.`,
      description: "Every other session of your account was signed out.",
    });
  }
  return data(
    { problem: PROBLEMS[outcome.problem] },
    { status: outcome.problem === "taken" ? 409 : 400, headers: TOKEN_PAGE_HEADERS },
  );
}

export default function ChangeEmailPage() {
  const { problem, token, email, step } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shown = result?.problem ?? problem;
  if (shown)
    return <MailedLinkProblem title="Change your email address" problem={shown} testId="change-email-problem" />;
  return step === "approve" ? (
    <MailedLinkConfirm
      title="Approve the change of email"
      text={`Approve changing your account's email address to ${email}. We then send a link to ${email} to confirm it.`}
      button="Approve the change"
      pendingText="Approving…"
      token={token}
      testId="change-email-confirm"
    />
  ) : (
    <MailedLinkConfirm
      title="Change your email address"
      text={`Use ${email} as the email address of your account. Every other session of your account will be signed out.`}
      button="Use this email address"
      pendingText="Changing…"
      token={token}
      testId="change-email-confirm"
    />
  );
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [
  { title: "Change your email — PartsWorks" },
  { name: "robots", content: "noindex" },
];
