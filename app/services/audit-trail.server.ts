import { insertAuditEntry, type AuditAction, type AuditValues } from "~/models/audit.server";
import { getEnv } from "./env.server";
import { logFailure, type FailureLogger } from "../../server/request-context";

export type { AuditAction, AuditValues } from "~/models/audit.server";

const DAY_MS = 24 * 60 * 60 * 1000;

export type AuditEvent = {
  action: AuditAction;
  /** The load context of the request (its client address and logger), when there is one. */
  context?: { clientIp?: string; logger?: FailureLogger } | null;
  /** The address, when there is no context (the throttle passes the address it counted). */
  ip?: string;
  /** The admin who acted; for a security event, the email the attempt named. */
  actor?: { id?: string | null; email?: string | null } | null;
  target?: {
    type: "user" | "part" | "order" | "quote" | "review" | "mail" | "webhook" | "api-key" | "price-group" | "company";
    id: string;
    label?: string | null;
  } | null;
  before?: AuditValues | null;
  after?: AuditValues | null;
};

/**
 * Writes one audit entry: call it right after the change succeeded, e.g.
 * `await audit({ context, actor: admin, action: "part.delete", target: { type: "part", id, label } })`.
 * It never throws: a failed write is logged and the admin's change stands.
 */
export async function audit(event: AuditEvent): Promise<void> {
  const at = new Date();
  try {
    await insertAuditEntry({
      at,
      action: event.action,
      actorId: event.actor?.id ?? null,
      actorEmail: event.actor?.email ?? null,
      ip: event.ip ?? (event.context?.clientIp || "unknown"),
      targetType: event.target?.type ?? null,
      targetId: event.target?.id ?? null,
      targetLabel: event.target?.label ?? null,
      before: event.before ?? null,
      after: event.after ?? null,
      expiresAt: new Date(at.getTime() + getEnv().AUDIT_RETENTION_DAYS * DAY_MS),
    });
  } catch (error) {
    logFailure(`Audit entry not written (${event.action})`, error, { action: event.action }, event.context?.logger);
  }
}

/** A person as the log names them: "Ada Lovelace (ada@example.com)". */
export function personLabel(user: { name: string; email: string }) {
  return `${user.name} (${user.email})`;
}
