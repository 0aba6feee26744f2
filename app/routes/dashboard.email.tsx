import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { requireUser } from "~/services/guards.server";
import { sendVerificationEmail } from "~/services/email-verification.server";
import { parseForm, readForm } from "~/services/form.server";
import { mailRequestAttempt } from "~/services/mail-throttle.server";
import { clientIp } from "~/services/rate-limit.server";
import { redirectWithError, redirectWithSuccess } from "~/services/toast.server";

/** The email forms of the dashboard (for now: send the verification link again). */
const emailActionSchema = z.object({ intent: z.literal("resend-verification") });

export async function loader() {
  return redirect("/dashboard");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { redirectTo: "/dashboard" });
  const submission = parseForm(await readForm(request), { schema: emailActionSchema });
  if (submission.status !== "success") return redirectWithError("/dashboard", "That request was not understood.");
  if (user.emailVerified) return redirectWithSuccess("/dashboard", "Your email address is already verified.");
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email: user.email, action: "verify-email" });
  if (refusal) return redirectWithError("/dashboard", refusal.message);
  await sendVerificationEmail(user);
  return redirectWithSuccess("/dashboard", `We have sent a new link to ${user.email}.`);
}
