import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MailedLinkProblem } from "~/components/mailed-link-problem";
import { getUser } from "~/utils/auth.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/utils/cache.server";
import { verifyEmailWithToken } from "~/utils/email-verification.server";
import { redirectWithSuccess } from "~/utils/toast.server";

export const EMAIL_VERIFIED = "Thank you: your email address is verified.";

const PROBLEMS = {
  expired: "This confirmation link has expired: links work for one day. Sign in and ask for a new one on My Profile.",
  used: "This confirmation link has already been used.",
  unknown: "This confirmation link is not valid. Check that you copied all of it.",
} as const;

/** The link in the welcome email: one use, then on to the dashboard (or the login) with a toast. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const problem = await verifyEmailWithToken(token);
  if (!problem) {
    const user = await getUser(request);
    return redirectWithSuccess(user ? "/dashboard" : "/login", EMAIL_VERIFIED);
  }
  return json({ problem: PROBLEMS[problem] }, { status: 400, headers: TOKEN_PAGE_HEADERS });
}

export default function VerifyEmailPage() {
  const { problem } = useLoaderData<typeof loader>();
  return <MailedLinkProblem title="Confirm your email address" problem={problem} testId="verify-problem" />;
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [
  { title: "Confirm your email | PartsWorks" },
  { name: "robots", content: "noindex" },
];
