import mongoose, { Schema, type Types } from "mongoose";
import { deliveryQueue } from "./delivery-queue.server";
import { isObjectId } from "./part.server";
import { isDuplicateKeyError } from "./user.server";

/**
 * Outbound webhooks: endpoints people register for order events, and the deliveries to them, an
 * outbox of the same design as mail's (outbox.server.ts): written with the event, sent by a job,
 * claimed by one attempt at a time, retried with backoff, failed after the last attempt.
 */

/** A company's endpoint hears of the company's orders ("own"); an admin's of every order ("all"). */
export const WEBHOOK_SCOPES = ["own", "all"] as const;
export type WebhookScope = (typeof WEBHOOK_SCOPES)[number];
/** Enough for a shop, an ERP and a test system, per company (or admin). */
export const MAX_ENDPOINTS_PER_OWNER = 5;

const endpointSchema = new Schema(
  {
    /** The person who registered it. */
    ownerId: { type: Schema.Types.ObjectId, required: true },
    /** The company whose orders it hears of (scope "own"); unset on an admin's endpoint. */
    companyId: { type: Schema.Types.ObjectId },
    scope: { type: String, enum: WEBHOOK_SCOPES, required: true },
    url: { type: String, required: true, maxlength: 500 },
    /** The signing secret: kept to sign each delivery, shown to its owner once, at creation. */
    secret: { type: String, required: true },
  },
  { timestamps: true },
);
// An order's event goes to its company's endpoints and to every admin endpoint.
endpointSchema.index({ ownerId: 1, createdAt: 1 });
endpointSchema.index({ companyId: 1, createdAt: 1 }, { partialFilterExpression: { companyId: { $exists: true } } });
endpointSchema.index({ scope: 1 });

type EndpointDoc = {
  _id: Types.ObjectId;
  ownerId: Types.ObjectId;
  companyId?: Types.ObjectId;
  scope: WebhookScope;
  url: string;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
};

export const WebhookEndpoint: mongoose.Model<EndpointDoc> =
  (mongoose.models.WebhookEndpoint as mongoose.Model<EndpointDoc>) ??
  mongoose.model<EndpointDoc>("WebhookEndpoint", endpointSchema);

export type EndpointView = { id: string; ownerId: string; scope: WebhookScope; url: string; createdAt: string };

const toEndpointView = (doc: EndpointDoc): EndpointView => ({
  id: doc._id.toString(),
  ownerId: doc.ownerId.toString(),
  scope: doc.scope,
  url: doc.url,
  createdAt: doc.createdAt.toISOString(),
});

/** Whose endpoints: a company's (every member's view of them), or an admin's own (staff). */
export type EndpointHolder = { companyId: string } | { staffId: string };

function holderFilter(holder: EndpointHolder): Record<string, unknown> | null {
  if ("staffId" in holder) return isObjectId(holder.staffId) ? { ownerId: holder.staffId, scope: "all" } : null;
  return isObjectId(holder.companyId) ? { companyId: holder.companyId, scope: "own" } : null;
}

export async function listEndpointsOf(holder: EndpointHolder) {
  const filter = holderFilter(holder);
  if (!filter) return [];
  const docs = await WebhookEndpoint.find(filter).sort({ createdAt: 1 }).lean();
  return docs.map(toEndpointView);
}

export async function countEndpointsOf(holder: EndpointHolder) {
  const filter = holderFilter(holder);
  return filter ? WebhookEndpoint.countDocuments(filter) : 0;
}

export async function addEndpoint(input: {
  ownerId: string;
  companyId?: string | null;
  scope: WebhookScope;
  url: string;
  secret: string;
}) {
  const { companyId, ...fields } = input;
  const doc = await WebhookEndpoint.create({ ...fields, ...(companyId ? { companyId } : {}) });
  return toEndpointView(doc.toObject());
}

/** Removes one of the holder's endpoints; null when they have no such endpoint. */
export async function removeEndpoint(holder: EndpointHolder, endpointId: string) {
  const filter = holderFilter(holder);
  if (!filter || !isObjectId(endpointId)) return null;
  const doc = await WebhookEndpoint.findOneAndDelete({ _id: endpointId, ...filter }).lean();
  return doc ? toEndpointView(doc) : null;
}

/**
 * The endpoints that hear of an order: its company's and every admin's (an order written before
 * companies, with none, goes to the endpoints of its placer's company as the migration set them).
 */
export async function endpointsForOrderOf(order: { companyId: string }) {
  const mine: Record<string, unknown>[] = isObjectId(order.companyId)
    ? [{ scope: "own", companyId: order.companyId }]
    : [];
  const filter: Record<string, unknown> = { $or: [{ scope: "all" }, ...mine] };
  const docs = await WebhookEndpoint.find(filter).select({ _id: 1, ownerId: 1, scope: 1 }).lean<EndpointDoc[]>();
  return docs.map((doc) => ({ id: doc._id.toString(), ownerId: doc.ownerId.toString(), scope: doc.scope }));
}

export async function getEndpointForSending(endpointId: string) {
  if (!isObjectId(endpointId)) return null;
  return WebhookEndpoint.findById(endpointId).select({ url: 1, secret: 1 }).lean();
}

// --- Deliveries -----------------------------------------------------------------------------------

export const DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const deliverySchema = new Schema(
  {
    /** `<event id>|<endpoint id>`: one delivery per event per endpoint, whoever writes it again. */
    _id: { type: String, required: true },
    eventId: { type: String, required: true },
    endpointId: { type: Schema.Types.ObjectId, required: true },
    ownerId: { type: Schema.Types.ObjectId, required: true },
    type: { type: String, required: true },
    orderId: { type: Schema.Types.ObjectId, required: true },
    orderNumber: { type: String, required: true },
    /** The JSON body, fixed when the event is written: every attempt sends the same bytes. */
    body: { type: String, required: true },
    status: { type: String, enum: DELIVERY_STATUSES, required: true, default: "pending" },
    queuedAt: { type: Date },
    sendingSince: { type: Date },
    claimToken: { type: String },
    attempts: { type: Number, required: true, default: 0 },
    /** The receiver's last HTTP status (none when it could not be reached). */
    lastStatusCode: { type: Number },
    lastError: { type: String },
    deliveredAt: { type: Date },
    failedAt: { type: Date },
  },
  { timestamps: true },
);
// At most once per event id per endpoint, also should an id scheme change (the _id says it already).
deliverySchema.index({ endpointId: 1, eventId: 1 }, { unique: true });
// The screen's last deliveries of an owner's endpoints, newest first.
deliverySchema.index({ ownerId: 1, createdAt: -1 });
// A company's screen: the last deliveries of its endpoints, newest first.
deliverySchema.index({ endpointId: 1, createdAt: -1 });
// The sweep: deliveries waiting, or held by an attempt that stopped.
deliverySchema.index({ status: 1, updatedAt: 1 });

export type DeliveryDoc = {
  _id: string;
  eventId: string;
  endpointId: Types.ObjectId;
  ownerId: Types.ObjectId;
  type: string;
  orderId: Types.ObjectId;
  orderNumber: string;
  body: string;
  status: DeliveryStatus;
  queuedAt?: Date;
  sendingSince?: Date;
  claimToken?: string;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: Date;
  failedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
};

export const WebhookDelivery: mongoose.Model<DeliveryDoc> =
  (mongoose.models.WebhookDelivery as mongoose.Model<DeliveryDoc>) ??
  mongoose.model<DeliveryDoc>("WebhookDelivery", deliverySchema);

/** Its claim, lease, release and strand: the shop's one delivery mechanism (delivery-queue.server.ts). */
export const webhookQueue = deliveryQueue<DeliveryDoc>(WebhookDelivery, {
  doneStatus: "delivered",
  doneAt: "deliveredAt",
  errorMax: 300,
});

export const deliveryId = (eventId: string, endpointId: string) => `${eventId}|${endpointId}`;

/** Writes the delivery once: true when new, false when this event already has one for the endpoint. */
export async function addDelivery(entry: {
  eventId: string;
  endpointId: string;
  ownerId: string;
  type: string;
  orderId: string;
  orderNumber: string;
  body: string;
}) {
  const _id = deliveryId(entry.eventId, entry.endpointId);
  try {
    const result = await WebhookDelivery.updateOne(
      { _id },
      { $setOnInsert: { ...entry, _id, status: "pending", attempts: 0 } },
      { upsert: true },
    );
    return result.upsertedCount === 1;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export type DeliveryView = {
  id: string;
  eventId: string;
  endpointId: string;
  type: string;
  orderNumber: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
};

/**
 * Which deliveries a holder sees: an admin's by owner; a company's by its endpoints (at most a few),
 * so a colleague sees the deliveries of an endpoint another owner added.
 */
async function deliveryFilter(holder: EndpointHolder): Promise<Record<string, unknown> | null> {
  if ("staffId" in holder) return isObjectId(holder.staffId) ? { ownerId: holder.staffId } : null;
  const endpoints = await listEndpointsOf(holder);
  return endpoints.length ? { endpointId: { $in: endpoints.map((endpoint) => endpoint.id) } } : null;
}

/** The holder's last deliveries, newest first. */
export async function listRecentDeliveries(holder: EndpointHolder, limit = 20): Promise<DeliveryView[]> {
  const filter = await deliveryFilter(holder);
  if (!filter) return [];
  const docs = await WebhookDelivery.find(filter).sort({ createdAt: -1 }).limit(limit).select({ body: 0 }).lean();
  return docs.map((doc) => ({
    id: doc._id,
    eventId: doc.eventId,
    endpointId: doc.endpointId.toString(),
    type: doc.type,
    orderNumber: doc.orderNumber,
    status: doc.status,
    attempts: doc.attempts,
    lastStatusCode: doc.lastStatusCode ?? null,
    lastError: doc.lastError ?? null,
    createdAt: doc.createdAt.toISOString(),
    deliveredAt: doc.deliveredAt?.toISOString() ?? null,
  }));
}

/**
 * The holder sends a delivery again (the same event id and body, freshly signed): a fresh set of
 * attempts. Null when it is not theirs, or is being sent right now.
 */
export async function redeliver(holder: EndpointHolder, id: string) {
  if (typeof id !== "string" || id.length > 200) return null;
  const filter = await deliveryFilter(holder);
  if (!filter) return null;
  return WebhookDelivery.findOneAndUpdate(
    { _id: id, ...filter, status: { $in: ["delivered", "failed", "pending"] } },
    { $set: { status: "pending", attempts: 0 }, $unset: { failedAt: "", queuedAt: "", deliveredAt: "" } },
    { returnDocument: "after" },
  )
    .select({ _id: 1, eventId: 1, orderNumber: 1, type: 1 })
    .lean();
}

/** Removes every endpoint this person added (and what they had not yet received); the endpoints removed. */
export async function removeEndpointsMadeBy(ownerId: string) {
  if (!isObjectId(ownerId)) return [];
  const docs = await WebhookEndpoint.find({ ownerId }).lean<EndpointDoc[]>();
  if (!docs.length) return [];
  const ids = docs.map((doc) => doc._id);
  await WebhookEndpoint.deleteMany({ _id: { $in: ids } });
  await WebhookDelivery.deleteMany({ endpointId: { $in: ids }, status: { $in: ["pending", "failed"] } });
  return docs.map(toEndpointView);
}

/** When an endpoint is removed, its deliveries not yet made are dropped (nothing goes to a removed URL). */
export async function dropUndelivered(endpointId: string) {
  if (!isObjectId(endpointId)) return;
  await WebhookDelivery.deleteMany({ endpointId, status: { $in: ["pending", "failed"] } });
}

/** A delivery already settled, written once (the demo data shows the Webhooks screen with one delivered, one failed). */
export async function addSettledDelivery(
  entry: Parameters<typeof addDelivery>[0] & {
    status: "delivered" | "failed";
    attempts: number;
    lastStatusCode?: number;
    lastError?: string;
    at: Date;
  },
) {
  const { at, ...fields } = entry;
  const _id = deliveryId(entry.eventId, entry.endpointId);
  await WebhookDelivery.updateOne(
    { _id },
    {
      $setOnInsert: {
        ...fields,
        _id,
        createdAt: at,
        updatedAt: at,
        ...(entry.status === "delivered" ? { deliveredAt: at } : { failedAt: at }),
      },
    },
    { upsert: true, timestamps: false },
  );
}
