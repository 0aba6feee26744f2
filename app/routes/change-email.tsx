import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MailedLinkProblem } from "~/components/mailed-link-problem";
import { getUser } from "~/utils/auth.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/utils/cache.server";
import { confirmEmailChange } from "~/utils/email-change.server";
import { redirectWithSuccess } from "~/utils/toast.server";

const PROBLEMS = {
  expired: "This link has expired: links work for one day. Ask again for the change on My Profile.",
  used: "This link has already been used.",
  unknown: "This link is not valid. Check that you copied all of it.",
  taken: "Another account uses this email address now, so your address stays as it was.",
} as const;

/** The link mailed to a new address: one use, then the account has that address. */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await confirmEmailChange(token);
  if (!outcome.problem) {
    const user = await getUser(request);
    return redirectWithSuccess(user ? "/dashboard" : "/login", `Your email address is now ${outcome.email}.`);
  }
  return json(
    { problem: PROBLEMS[outcome.problem] },
    {
      status: outcome.problem === "taken" ? 409 : 400,
      headers: TOKEN_PAGE_HEADERS,
    },
  );
}

export default function ChangeEmailPage() {
  const { problem } = useLoaderData<typeof loader>();
  return <MailedLinkProblem title="Change your email address" problem={problem} testId="change-email-problem" />;
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [
  { title: "Change your email | PartsWorks" },
  { name: "robots", content: "noindex" },
];
