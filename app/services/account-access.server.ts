/**
 * What keeps an account open besides its password: sessions, API keys and webhooks. Anyone can
 * sign up first with someone else's address; when the real owner proves the address (verification,
 * a reset link) or the password changes, everything made before ends, so a squatter's key or
 * webhook cannot outlive the owner taking the account back. Until the address is proved, an
 * account makes no keys and no webhooks at all.
 */
import { revokeKeysMadeBy as revokeAllKeysOf } from "~/models/api-key.server";
import { deleteOtherSessions } from "~/models/session.server";
import type { UserView } from "~/models/user.server";
import { removeEndpointsMadeBy } from "~/models/webhook.server";
import { audit, personLabel, type AuditEvent } from "./audit-trail.server";

/** Why an unverified account cannot make a key or a webhook (the screens and the API say it). */
export const VERIFY_FIRST =
  "Confirm your email address first: API keys and webhooks need an address proved to be yours. Use the link we mailed you, or ask for a new one on My Profile.";

/**
 * Whether this person may make API keys and webhooks: a proved address. Admins are exempt: the
 * role was given by the shop's operator or another admin, who vouched for the person.
 */
export const mayMakeCredentials = (user: Pick<UserView, "role" | "emailVerified">) =>
  user.role === "admin" || user.emailVerified;

export type AccessEnded = { sessions: number; keys: number; webhooks: number };

/**
 * Ends every session (but `keepSessionId`, when given), revokes every API key and removes every
 * webhook endpoint the person made, each audited. The counts, for the notice to the owner.
 */
export async function endAccessMadeBefore(
  user: Pick<UserView, "id" | "email" | "name" | "role">,
  {
    keepSessionId = null,
    context,
    actor = user,
    why = "the account's address was proved or its password changed",
  }: {
    keepSessionId?: string | null;
    context?: AuditEvent["context"];
    /** Who the audit names (the person, unless another's proof ended their access). */
    actor?: AuditEvent["actor"];
    why?: string;
  } = {},
): Promise<AccessEnded> {
  const sessions = await deleteOtherSessions(user.id, keepSessionId ?? "");
  const keys = await revokeKeysMadeBy(user, { actor, context, why });
  const webhooks = await removeEndpointsMadeBy(user.id);
  for (const endpoint of webhooks) {
    await audit({
      context,
      actor,
      action: "webhook.remove",
      target: { type: "webhook", id: endpoint.id, label: endpoint.url },
      before: { url: endpoint.url },
      after: { why },
    });
  }
  return { sessions, keys, webhooks: webhooks.length };
}

/**
 * Revokes every live API key the person made, each audited as done by `actor` (the person, or the
 * admin who signed them out everywhere); how many.
 */
export async function revokeKeysMadeBy(
  user: Pick<UserView, "id" | "email" | "name">,
  { actor, context, why }: { actor: AuditEvent["actor"]; context?: AuditEvent["context"]; why: string },
) {
  const keys = await revokeAllKeysOf(user.id);
  for (const key of keys) {
    await audit({
      context,
      actor,
      action: "api-key.revoke",
      target: { type: "api-key", id: key.id, label: `${key.name} (${key.prefix}…) of ${personLabel(user)}` },
      after: { why },
    });
  }
  return keys.length;
}

/** "2 API keys and 1 webhook", or null when nothing but sessions ended. */
export function credentialsInWords({ keys, webhooks }: AccessEnded) {
  const parts = [
    keys ? `${keys} API ${keys === 1 ? "key" : "keys"}` : "",
    webhooks ? `${webhooks} ${webhooks === 1 ? "webhook" : "webhooks"}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" and ") : null;
}
