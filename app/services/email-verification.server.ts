import { createElement } from "react";
import { AddressProvedEmail, VerifyEmail, WelcomeEmail } from "~/emails/account";
import { checkAccountToken, createAccountToken, hashToken, spendAccountToken } from "~/models/account-token.server";
import { getUserById } from "~/models/user.server";
import { markEmailVerified } from "~/models/user-profile.server";
import { credentialsInWords, endAccessMadeBefore } from "./account-access.server";
import { queueEmail, shopUrl } from "./email.server";
import { endWhatInvitationsOpened, invitationsEndedInWords } from "./invitations.server";

export const VERIFY_LINK_TTL_MS = 24 * 60 * 60 * 1000;

async function verifyLink(user: { id: string; email: string }) {
  const token = await createAccountToken({
    kind: "verify-email",
    userId: user.id,
    email: user.email,
    ttlMs: VERIFY_LINK_TTL_MS,
  });
  return { token, url: shopUrl(`/verify-email?token=${token}`) };
}

/** After sign-up: welcome, with a link that proves the address. */
export async function sendWelcomeEmail(user: { id: string; email: string; name: string }) {
  const { url } = await verifyLink(user);
  await queueEmail({
    key: `welcome:${user.id}`,
    to: user.email,
    subject: "Welcome to PartsWorks: please confirm your email address",
    body: createElement(WelcomeEmail, { name: user.name, verifyUrl: url, shopUrl: shopUrl() }),
  });
}

/** Another verification link (asked for from the dashboard banner). */
export async function sendVerificationEmail(user: { id: string; email: string; name: string }) {
  const { token, url } = await verifyLink(user);
  await queueEmail({
    key: `verify-email:${hashToken(token)}`,
    to: user.email,
    subject: "Confirm your email address for PartsWorks",
    body: createElement(VerifyEmail, { name: user.name, verifyUrl: url, shopUrl: shopUrl() }),
  });
}

/** What a verification link is, without using it (the page the link opens). */
export const checkVerifyToken = (token: string) => checkAccountToken("verify-email", token);

/**
 * Uses a verification link; the problem with it, or null when the address is now verified. The
 * first proof of the address ends what was made on the account before it (anyone may have signed
 * up with it first): every session but `keepSessionId` (the browser confirming, when it is this
 * account's), every API key and webhook, the invitations it sent and the memberships they opened
 * (invitations.server.ts); the owner is told when anything ended.
 */
export async function verifyEmailWithToken(
  token: string,
  { keepSessionId = null }: { keepSessionId?: string | null } = {},
) {
  const used = await spendAccountToken("verify-email", token);
  if (used.state !== "valid") return used.state;
  const before = await getUserById(used.userId);
  if (!before || before.emailVerified || before.email !== used.email) return null;
  // Before the mark: should this fail part way, the account stays unproved and the next link ends the rest.
  const invitations = invitationsEndedInWords(await endWhatInvitationsOpened(before));
  if (!(await markEmailVerified(used.userId, used.email))) return null;
  const user = await getUserById(used.userId);
  if (!user) return null;
  const ended = await endAccessMadeBefore(user, { keepSessionId });
  const credentials = credentialsInWords(ended);
  if (ended.sessions || credentials || invitations) {
    await queueEmail({
      key: `address-proved:${hashToken(token)}`,
      to: user.email,
      subject: "Your PartsWorks address is confirmed",
      body: createElement(AddressProvedEmail, {
        name: user.name,
        sessions: ended.sessions,
        ended: credentials,
        shopUrl: shopUrl(),
        forgotUrl: shopUrl("/forgot-password"),
        invitations,
      }),
    });
  }
  return null;
}
