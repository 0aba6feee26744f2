import { insertAuditEntry, type AuditAction, type AuditValues } from "~/models/audit.server";
import type { PartEdit } from "~/models/part-catalogue.server";
import { formatBreaks } from "~/domain/pricing";
import { getEnv } from "./env.server";

export type { AuditAction, AuditValues } from "~/models/audit.server";

const DAY_MS = 24 * 60 * 60 * 1000;

type Logger = { error: (object: object, message: string) => void };

export type AuditEvent = {
  action: AuditAction;
  /** The load context of the request (its client address and logger), when there is one. */
  context?: { clientIp?: string; logger?: Logger } | null;
  /** The address, when there is no context (the throttle passes the address it counted). */
  ip?: string;
  /** The admin who acted; for a security event, the email the attempt named. */
  actor?: { id?: string | null; email?: string | null } | null;
  target?: {
    type: "user" | "part" | "order" | "review" | "mail" | "webhook" | "api-key" | "price-group" | "company";
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
    const logger = event.context?.logger;
    if (logger) logger.error({ err: error, action: event.action }, "Audit entry not written");
    else console.error(`Audit entry not written (${event.action}):`, error);
  }
}

/** A person as the log names them: "Ada Lovelace (ada@example.com)". */
export function personLabel(user: { name: string; email: string }) {
  return `${user.name} (${user.email})`;
}

/** A part as an audit target and the values the log keeps of it (one shape for add, edit, delete). */
export function partTarget(part: { id: string; name: string }) {
  return { type: "part" as const, id: part.id, label: part.name };
}

export function partValues(part: {
  partNumber: string;
  priceCents: number;
  availableQuantity: number;
  minOrderQuantity: number;
}): AuditValues {
  const { partNumber, priceCents, availableQuantity, minOrderQuantity } = part;
  return { partNumber, priceCents, availableQuantity, minOrderQuantity };
}

/** Remove (unpaid to removed) as an audit event (shipping and payments: orders/service.server.ts). */
export function orderStatusChange(
  intent: "remove",
  order: { id: string; number: string; summary: string; userEmail: string },
): Pick<AuditEvent, "action" | "target" | "before" | "after"> {
  const [action, before, after] = ["order.remove", "Unpaid", "Removed"] as const;
  return {
    action,
    target: { type: "order", id: order.id, label: `${order.number}: ${order.summary} for ${order.userEmail}` },
    before: { status: before },
    after: { status: after },
  };
}

function editValues(part: PartEdit): AuditValues {
  return {
    name: part.name,
    description: part.description,
    img: part.img,
    priceCents: part.priceCents,
    minOrderQuantity: part.minOrderQuantity,
    partNumber: part.partNumber,
    category: part.category,
    brand: part.brand,
    oeNumbers: part.oeNumbers.join(", "),
    fitment: part.fitment
      .map((row) => `${row.make} ${row.model} ${row.yearFrom}-${row.yearTo}${row.engine ? ` ${row.engine}` : ""}`)
      .join("; "),
    lowStockThreshold: part.lowStockThreshold,
    volumeBreaks: formatBreaks(part.volumeBreaks),
    backorderable: part.backorderable ?? false,
    restockOn: part.restockOn ?? null,
    leadTimeDays: part.leadTimeDays ?? null,
  };
}

/** An Edit Product save as the log keeps it: only the fields that changed, before and after. */
export function partEditChanges(before: PartEdit, after: PartEdit) {
  const was = editValues(before);
  const now = editValues(after);
  const changed = Object.keys(now).filter((key) => was[key] !== now[key]);
  return {
    before: Object.fromEntries(changed.map((key) => [key, was[key]])) as AuditValues,
    after: Object.fromEntries(changed.map((key) => [key, now[key]])) as AuditValues,
  };
}
