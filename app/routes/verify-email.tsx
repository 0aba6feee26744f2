import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getUser } from "~/utils/auth.server";
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
  return json(
    { problem: PROBLEMS[problem] },
    { status: 400, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

export default function VerifyEmailPage() {
  const { problem } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Confirm your email address</h1>
        <p
          role="alert"
          className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800"
          data-testid="verify-problem"
        >
          {problem}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/dashboard" className="font-medium text-brand-700 underline hover:text-brand-800">
            Go to My Profile
          </Link>
        </p>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "Confirm your email | PartsWorks" },
  { name: "robots", content: "noindex" },
];
