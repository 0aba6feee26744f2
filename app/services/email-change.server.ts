import { createElement } from "react";
import { ApproveEmailChangeEmail, ChangeEmailEmail, EmailChangedEmail } from "~/emails/account";
import {
  checkAccountToken,
  createAccountToken,
  hashToken,
  releaseAccountToken,
  retireAccountTokens,
  spendAccountToken,
  TOKEN_KINDS,
} from "~/models/account-token.server";
import { deleteOtherSessions } from "~/models/session.server";
import { changeEmail } from "~/models/user-profile.server";
import { getUserByEmail, getUserById } from "~/models/user.server";
import { queueEmail, shopUrl } from "./email.server";
import { logFailure } from "../../server/request-context";

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
 * A Google-only account has no password to confirm a change with: a link to its current address
 * approves it first (approveEmailChange), then the new address gets its own link.
 */
export async function requestEmailChangeApproval(user: { id: string; name: string; email: string }, newEmail: string) {
  const token = await createAccountToken({
    kind: "approve-email-change",
    userId: user.id,
    email: newEmail,
    ttlMs: CHANGE_LINK_TTL_MS,
  });
  await queueEmail({
    key: `approve-email-change:${hashToken(token)}`,
    to: user.email,
    subject: "Approve a change of your PartsWorks email address",
    body: createElement(ApproveEmailChangeEmail, {
      name: user.name,
      newEmail,
      approveUrl: shopUrl(`/change-email?token=${token}`),
      shopUrl: shopUrl(),
    }),
  });
}

/** Which step a change-of-email link is (approve from the old address, confirm from the new one), unused. */
export async function checkEmailChangeToken(token: string) {
  const confirm = await checkAccountToken("change-email", token);
  if (confirm.state !== "unknown") return { step: "confirm", ...confirm } as const;
  return { step: "approve", ...(await checkAccountToken("approve-email-change", token)) } as const;
}

/** Uses an approval link (Google-only accounts): the new address gets its confirmation link now. */
export async function approveEmailChange(token: string) {
  const used = await spendAccountToken("approve-email-change", token);
  if (used.state !== "valid") return { problem: used.state } as const;
  const user = await getUserById(used.userId);
  if (!user) return { problem: "unknown" } as const;
  if (await getUserByEmail(used.email)) return { problem: "taken" } as const;
  await requestEmailChange(user, used.email);
  return { problem: null, email: used.email } as const;
}

/**
 * Uses a change-of-email link: the account takes the new address, verified (the link proved it),
 * and the old address is told. Every other session of the account ends (all but `keepSessionId`,
 * the browser that confirmed), and links mailed to the old address (password reset included) stop
 * working. The problem with the link otherwise ("taken": another account got the address
 * meanwhile; the link stays usable for nothing else).
 */
export async function confirmEmailChange(token: string, keepSessionId: string | null = null) {
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
  await deleteOtherSessions(used.userId, keepSessionId ?? "");
  await retireAccountTokens(used.userId, [...TOKEN_KINDS]);
  if (before.email !== used.email) {
    await queueEmail({
      key: `email-changed:${hashToken(token)}`,
      to: before.email,
      subject: "Your PartsWorks email address was changed",
      body: createElement(EmailChangedEmail, { name: before.name, newEmail: used.email, shopUrl: shopUrl() }),
    }).catch((error: unknown) => logFailure("Could not write the email-changed notice (not sent)", error));
  }
  return { problem: null, email: used.email } as const;
}
