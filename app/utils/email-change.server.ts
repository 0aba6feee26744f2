import { createElement } from "react";
import { ChangeEmailEmail, EmailChangedEmail } from "~/emails/account";
import { createAccountToken, hashToken, releaseAccountToken, spendAccountToken } from "~/models/account-token.server";
import { changeEmail, getUserById } from "~/models/user.server";
import { queueEmail, shopUrl } from "./email.server";

export const CHANGE_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Mails a link to the new address; the account keeps its address until the link is opened. */
export async function requestEmailChange(user: { id: string; name: string }, newEmail: string) {
  const token = await createAccountToken({
    kind: "change-email",
    userId: user.id,
    email: newEmail,
    ttlMs: CHANGE_LINK_TTL_MS,
  });
  await queueEmail({
    key: `change-email:${hashToken(token)}`,
    to: newEmail,
    subject: "Confirm your new email address for PartsWorks",
    body: createElement(ChangeEmailEmail, {
      name: user.name,
      newEmail,
      confirmUrl: shopUrl(`/change-email?token=${token}`),
      shopUrl: shopUrl(),
    }),
  });
}

/**
 * Uses a change-of-email link: the account takes the new address, verified (the link proved it),
 * and the old address is told. The problem with the link otherwise ("taken": another account got
 * the address meanwhile; the link stays usable for nothing else).
 */
export async function confirmEmailChange(token: string) {
  const used = await spendAccountToken("change-email", token);
  if (used.state !== "valid") return { problem: used.state } as const;
  const before = await getUserById(used.userId);
  if (!before) return { problem: "unknown" } as const;
  const outcome = await changeEmail(used.userId, used.email);
  if (outcome === "taken") {
    await releaseAccountToken("change-email", token);
    return { problem: "taken" } as const;
  }
  if (outcome === "missing") return { problem: "unknown" } as const;
  if (before.email !== used.email) {
    await queueEmail({
      key: `email-changed:${hashToken(token)}`,
      to: before.email,
      subject: "Your PartsWorks email address was changed",
      body: createElement(EmailChangedEmail, { name: before.name, newEmail: used.email, shopUrl: shopUrl() }),
    }).catch((error: unknown) => console.error("Could not write the email-changed notice:", error));
  }
  return { problem: null, email: used.email } as const;
}
