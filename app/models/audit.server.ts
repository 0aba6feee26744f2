import mongoose, { Schema, type Types } from "mongoose";
import { AUDIT_ACTIONS, type AuditAction } from "~/domain/audit-actions";

export type { AuditAction } from "~/domain/audit-actions";

/**
 * The audit log: one entry per admin action and per security event. Append-only from the app: this
 * module offers a write (insert) and reads, nothing that changes or deletes an entry. Entries leave
 * the collection only through the TTL index on `expiresAt` (the retention set when written).
 */
const auditSchema = new Schema(
  {
    at: { type: Date, required: true },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    /** Who did it: the signed-in admin, or for a security event the email the attempt named. */
    actorId: { type: Schema.Types.ObjectId, default: null },
    actorEmail: { type: String, default: null },
    /** The client's address (for throttle events: the address as counted, an IPv6 /64). */
    ip: { type: String, default: "unknown" },
    targetType: { type: String, default: null },
    targetId: { type: String, default: null },
    /** A human-readable name of the target at the time (a part's name, an order's summary). */
    targetLabel: { type: String, default: null },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
    expiresAt: { type: Date, required: true },
  },
  { collection: "audit", versionKey: false, minimize: false },
);

// The audit screen: newest first, all entries or filtered by action or actor.
auditSchema.index({ at: -1, _id: -1 });
auditSchema.index({ action: 1, at: -1, _id: -1 });
auditSchema.index({ actorEmail: 1, at: -1, _id: -1 });
// One target's history: who shipped or removed an order (its page), who changed a part.
auditSchema.index({ targetId: 1, at: -1 });
// Retention: MongoDB deletes an entry once its expiry has passed.
auditSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type AuditDoc = mongoose.InferSchemaType<typeof auditSchema> & { _id: Types.ObjectId };

export const Audit: mongoose.Model<AuditDoc> =
  (mongoose.models.Audit as mongoose.Model<AuditDoc>) ?? mongoose.model<AuditDoc>("Audit", auditSchema);

export type AuditValues = Record<string, string | number | boolean | null>;

export type NewAuditEntry = {
  at: Date;
  action: AuditAction;
  actorId?: string | null;
  actorEmail?: string | null;
  ip: string;
  targetType?:
    "user" | "part" | "order" | "quote" | "review" | "mail" | "webhook" | "api-key" | "price-group" | "company" | null;
  targetId?: string | null;
  targetLabel?: string | null;
  before?: AuditValues | null;
  after?: AuditValues | null;
  expiresAt: Date;
};

/** One insert: a single-document write. */
export async function insertAuditEntry(entry: NewAuditEntry) {
  await Audit.collection.insertOne({
    at: entry.at,
    action: entry.action,
    actorId: entry.actorId ? new mongoose.Types.ObjectId(entry.actorId) : null,
    actorEmail: entry.actorEmail?.toLowerCase() ?? null,
    ip: entry.ip,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    targetLabel: entry.targetLabel ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    expiresAt: entry.expiresAt,
  });
}

export type AuditEntryView = {
  id: string;
  at: string;
  action: AuditAction;
  actorId: string | null;
  actorEmail: string | null;
  ip: string;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  before: AuditValues | null;
  after: AuditValues | null;
};

export type AuditFilter = {
  action?: AuditAction | null;
  actorEmail?: string | null;
  from?: Date | null;
  to?: Date | null;
};

/** The audit screen: newest first, one page at a time, filtered by action, actor and time range. */
export async function listAuditEntries(filter: AuditFilter, { page = 1, perPage = 50 } = {}) {
  const query: Record<string, unknown> = {};
  if (filter.action) query.action = filter.action;
  if (filter.actorEmail) query.actorEmail = filter.actorEmail.trim().toLowerCase();
  if (filter.from || filter.to) {
    query.at = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) };
  }
  const total = await Audit.countDocuments(query);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), pageCount);
  const docs = await Audit.find(query)
    .sort({ at: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  const entries: AuditEntryView[] = docs.map((doc) => ({
    id: doc._id.toString(),
    at: new Date(doc.at).toISOString(),
    action: doc.action as AuditAction,
    actorId: doc.actorId ? doc.actorId.toString() : null,
    actorEmail: doc.actorEmail ?? null,
    ip: doc.ip ?? "unknown",
    targetType: doc.targetType ?? null,
    targetId: doc.targetId ?? null,
    targetLabel: doc.targetLabel ?? null,
    before: (doc.before as AuditValues | null) ?? null,
    after: (doc.after as AuditValues | null) ?? null,
  }));
  return { entries, page: current, pageCount, total };
}

/** Who shipped and who removed an order, from the log (the latest entry of each; absent when none). */
export async function orderShopActors(orderId: string) {
  const docs = await Audit.find(
    { targetId: orderId, action: { $in: ["order.ship", "order.remove"] } },
    { action: 1, actorEmail: 1 },
  )
    .sort({ at: -1 })
    .limit(10)
    .lean();
  const actors: Partial<Record<"shipped" | "removed", string>> = {};
  for (const doc of docs) {
    const event = doc.action === "order.ship" ? "shipped" : "removed";
    if (doc.actorEmail && !actors[event]) actors[event] = doc.actorEmail;
  }
  return actors;
}
