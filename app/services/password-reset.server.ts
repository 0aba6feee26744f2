import { createElement } from "react";
import { PasswordResetEmail } from "~/emails/account";
import {
  checkAccountToken,
  createAccountToken,
  hashToken,
  releaseAccountToken,
  spendAccountToken,
  type TokenState,
} from "~/models/account-token.server";
import { getUserByEmail, getUserById } from "~/models/user.server";
import { markEmailVerified } from "~/models/user-profile.server";
import { setPasswordHash } from "~/models/user-credentials.server";
import { afterPasswordChanged } from "./account-security.server";
import { queueEmail, shopUrl } from "./email.server";
import { endWhatInvitationsOpened, invitationsEndedInWords } from "./invitations.server";
import { getAgenda, RESET_REQUEST_JOB } from "./jobs.server";
import { resetMailAllowed } from "./mail-throttle.server";
import { hashPassword } from "./password.server";
import { appLogger, logFailure } from "../../server/request-context";

export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

export const RESET_LINK_PROBLEMS: Record<Exclude<TokenState["state"], "valid">, string> = {
  expired: "This password reset link has expired: links work for one hour. Ask for a new one below.",
  used: "This password reset link has already been used. If you still need to reset your password, ask for a new link below.",
  unknown: "This password reset link is not valid. Check that you copied all of it, or ask for a new one below.",
};

/**
 * The forgot-password form's work, after its answer: a job (run by the mail worker) that mails the
 * link when the account exists. The answer writes the same job either way, so its time tells
 * nothing; a job that cannot be written falls back to doing the work now.
 */
export async function requestPasswordReset(email: string) {
  try {
    await getAgenda().now(RESET_REQUEST_JOB, { email });
  } catch (error) {
    logFailure("Queueing a password reset request failed; handling it now", error);
    await sendPasswordResetLink(email);
  }
}

/**
 * Mails a reset link when the account exists and its address has not had its share of reset mail
 * (mail-throttle.server.ts); does nothing visible otherwise.
 */
export async function sendPasswordResetLink(email: string) {
  const user = await getUserByEmail(email);
  if (!user) return;
  if (!(await resetMailAllowed(user.email))) {
    appLogger().warn("A password reset link was not mailed: the address has had its share of reset mail for now");
    return;
  }
  const token = await createAccountToken({
    kind: "reset-password",
    userId: user.id,
    email: user.email,
    ttlMs: RESET_LINK_TTL_MS,
  });
  await queueEmail({
    key: `reset-password:${hashToken(token)}`,
    to: user.email,
    subject: "Reset your PartsWorks password",
    body: createElement(PasswordResetEmail, {
      name: user.name,
      resetUrl: shopUrl(`/reset-password?token=${token}`),
      shopUrl: shopUrl(),
    }),
  });
}

export const checkResetToken = (token: string) => checkAccountToken("reset-password", token);

/**
 * Sets the new password with a reset link: the link is used up (once, within the hour), every
 * session, API key and webhook made on the account ends (and, on a never-proved account, what its
 * invitations opened), other reset links stop working, and a notice goes to the account's address. Returns the problem with the link, or null when the password was changed.
 */
export async function resetPassword(
  token: string,
  password: string,
): Promise<Exclude<TokenState["state"], "valid"> | null> {
  const passwordHash = await hashPassword(password);
  const used = await spendAccountToken("reset-password", token);
  if (used.state !== "valid") return used.state;
  const user = await getUserById(used.userId);
  if (!user || !(await setPasswordHash(user.id, passwordHash))) {
    await releaseAccountToken("reset-password", token);
    return "unknown";
  }
  // The link reached this address, which proves it too: whatever was made on the account before
  // (a squatter's sessions, keys and webhooks included) ends. A first proof also ends what the
  // account's invitations opened, before the mark (a failure part way is finished by the next link).
  const firstProof = !user.emailVerified && user.email === used.email;
  const invitations = firstProof ? invitationsEndedInWords(await endWhatInvitationsOpened(user)) : null;
  await markEmailVerified(user.id, used.email);
  await afterPasswordChanged(user, { mailKey: `password-changed:${hashToken(token)}`, invitations });
  return null;
}
