import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/utils/guards.server";
import { sendVerificationEmail } from "~/utils/email-verification.server";
import { readForm } from "~/utils/form.server";
import { mailRequestAttempt } from "~/utils/mail-throttle.server";
import { clientIp } from "~/utils/rate-limit.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

/** The email forms of the dashboard (for now: send the verification link again). */
const emailActionSchema = z.object({ intent: z.literal("resend-verification") });

export async function loader() {
  return redirect("/dashboard");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { redirectTo: "/dashboard" });
  const submission = parseWithZod(await readForm(request), { schema: emailActionSchema });
  if (submission.status !== "success") return redirectWithError("/dashboard", "That request was not understood.");
  if (user.emailVerified) return redirectWithSuccess("/dashboard", "Your email address is already verified.");
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email: user.email, action: "verify-email" });
  if (refusal) return redirectWithError("/dashboard", refusal.message);
  await sendVerificationEmail(user);
  return redirectWithSuccess("/dashboard", `We have sent a new link to ${user.email}.`);
}
