import { createElement } from "react";
import { PasswordChangedEmail, type InvitationsEndedLines } from "~/emails/account";
import { retireAccountTokens } from "~/models/account-token.server";
import { getPasswordHashOf, setPasswordHash } from "~/models/user-credentials.server";
import { type UserView } from "~/models/user.server";
import { credentialsInWords, endAccessMadeBefore } from "./account-access.server";
import type { AuditEvent } from "./audit-trail.server";
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG } from "~/forms/account-schemas";
import { queueEmail, shopUrl } from "./email.server";
import { hashPassword, verifyPassword } from "./password.server";
import { signInThrottle, type Refusal } from "./rate-limit.server";

/**
 * Re-authentication before a change of email or password (ASVS 3.7.1). The current password is
 * checked like a sign-in, throttled by the same counters, so a borrowed session cannot guess it.
 * "no-password": a Google-only account, which confirms by mail instead.
 */
export async function checkCurrentPassword(
  user: UserView,
  password: string | undefined,
  ip: string,
): Promise<"ok" | "no-password" | { fieldError: string } | { refused: Refusal }> {
  const passwordHash = await getPasswordHashOf(user.id);
  if (!passwordHash) return "no-password";
  if (!password) return { fieldError: CURRENT_PASSWORD_REQUIRED };
  const attempt = await signInThrottle().beginLogin({ ip, email: user.email });
  if (attempt.refused) return { refused: attempt.refused };
  if (await verifyPassword(passwordHash, password)) {
    await attempt.succeeded();
    return "ok";
  }
  const refusal = await attempt.failed();
  return refusal ? { refused: refusal } : { fieldError: CURRENT_PASSWORD_WRONG };
}

/**
 * A new password from My Profile: every other session ends (this one stays), and so do the API
 * keys and webhooks the person made; reset links mailed before stop working, and the account's
 * address is told. False when there is no such account; else what ended.
 */
export async function changePassword(
  user: UserView,
  keepSessionId: string | null,
  newPassword: string,
  context?: AuditEvent["context"],
) {
  if (!(await setPasswordHash(user.id, await hashPassword(newPassword)))) return false;
  return afterPasswordChanged(user, { mailKey: `password-changed:${user.id}:${Date.now()}`, keepSessionId, context });
}

/**
 * What follows any change of password (My Profile, or a reset link): the access made before it ends
 * (but the session kept), reset links mailed before stop working, and the account's address is told
 * what ended. Returns what ended.
 */
export async function afterPasswordChanged(
  user: Pick<UserView, "id" | "email" | "name" | "role">,
  {
    mailKey,
    keepSessionId = null,
    context,
    invitations = null,
  }: {
    mailKey: string;
    keepSessionId?: string | null;
    context?: AuditEvent["context"];
    /** What the account's invitations had opened, ended by this change (a reset link's first proof). */
    invitations?: InvitationsEndedLines | null;
  },
) {
  const ended = await endAccessMadeBefore(user, { keepSessionId, context });
  await retireAccountTokens(user.id, "reset-password");
  await queueEmail({
    key: mailKey,
    to: user.email,
    subject: "Your PartsWorks password was changed",
    body: createElement(PasswordChangedEmail, {
      name: user.name,
      shopUrl: shopUrl(),
      forgotUrl: shopUrl("/forgot-password"),
      ended: credentialsInWords(ended),
      invitations,
    }),
  });
  return ended;
}
