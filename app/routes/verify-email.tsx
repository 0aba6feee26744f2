import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { MailedLinkConfirm, MailedLinkProblem } from "~/components/mailed-link-problem";
import { mailedLinkSchema } from "~/forms/account-schemas";
import { getUser } from "~/services/guards.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/services/cache.server";
import { checkVerifyToken, verifyEmailWithToken } from "~/services/email-verification.server";
import { parseForm, readForm } from "~/services/form.server";
import { getSessionId } from "~/services/session-cookie.server";
import { redirectWithSuccess } from "~/services/toast.server";

export const EMAIL_VERIFIED = "Thank you: your email address is verified.";

const PROBLEMS = {
  expired: "This confirmation link has expired: links work for one day. Sign in and ask for a new one on My Profile.",
  used: "This confirmation link has already been used.",
  unknown: "This confirmation link is not valid. Check that you copied all of it.",
} as const;

/**
 * The link in the welcome email opens a page with one button: opening the link (as a mail
 * scanner does) changes nothing; the button's POST confirms.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkVerifyToken(token);
  if (check.state !== "valid") {
    return data({ problem: PROBLEMS[check.state], token: "", email: "" }, { status: 400, headers: TOKEN_PAGE_HEADERS });
  }
  return data({ problem: null, token, email: check.email }, { headers: TOKEN_PAGE_HEADERS });
}

/** One use, then on to the dashboard (or the login) with a toast. */
export async function action({ request }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request), { schema: mailedLinkSchema });
  const keepSessionId = await getSessionId(request);
  const problem =
    submission.status === "success" ? await verifyEmailWithToken(submission.value.token, { keepSessionId }) : "unknown";
  if (!problem) {
    const user = await getUser(request);
    return redirectWithSuccess(user ? "/dashboard" : "/login", EMAIL_VERIFIED);
  }
  return data({ problem: PROBLEMS[problem] }, { status: 400, headers: TOKEN_PAGE_HEADERS });
}

export default function VerifyEmailPage() {
  const { problem, token, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const shown = result?.problem ?? problem;
  if (shown) return <MailedLinkProblem title="Confirm your email address" problem={shown} testId="verify-problem" />;
  return (
    <MailedLinkConfirm
      title="Confirm your email address"
      text={`Confirm that ${email} is your email address.`}
      button="Confirm my email address"
      pendingText="Confirming…"
      token={token}
      testId="verify-confirm"
    />
  );
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [
  { title: "Confirm your email — PartsWorks" },
  { name: "robots", content: "noindex" },
];
