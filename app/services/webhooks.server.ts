/**
 * Outbound webhooks: endpoints people register (the Webhooks screen), the deliveries each order
 * event writes to them (a subscriber of orders/events.server.ts), and how a delivery is signed and
 * sent (the job in webhook-worker.server.ts). The scheme is in docs/webhooks.md.
 */
import { createHmac, randomBytes } from "node:crypto";
import {
  addDelivery,
  addEndpoint,
  addSettledDelivery,
  countEndpointsOf,
  dropUndelivered,
  endpointsForOrderOf,
  MAX_ENDPOINTS_PER_OWNER,
  redeliver,
  removeEndpoint,
  type EndpointHolder,
} from "~/models/webhook.server";
import type { OrderView } from "~/orders/model/view.server";
import { listAdminRecipients } from "~/models/user.server";
import type { CompanyRole } from "~/domain/company-roles";
import { isPublicHost } from "~/domain/public-host";
import { mayMakeCredentials, VERIFY_FIRST } from "./account-access.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { can } from "./companies.server";
import { getEnv } from "./env.server";
import { queueWebhookDelivery } from "./delivery-jobs.server";
import type { OrderEvent } from "~/orders/events.server";

export const SIGNATURE_HEADER = "PartsWorks-Signature";
export const EVENT_ID_HEADER = "PartsWorks-Event-Id";
export const EVENT_TYPE_HEADER = "PartsWorks-Event-Type";

/** The names receivers see: "order.placed", … (a shop's removal of an unpaid order is a cancellation by the shop). */
export const WEBHOOK_EVENT_TYPES = [
  "order.placed",
  "order.paid",
  "order.shipped",
  "order.cancelled",
  "order.expired",
  "order.shipment.created",
  "order.return.requested",
  "order.return.approved",
  "order.return.declined",
  "order.return.received",
  "order.credit_note.created",
  "order.refunded",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An allocation of backordered stock is mail only: receivers see it in the order's next event. */
const TYPE_OF: Record<OrderEvent["type"], WebhookEventType | null> = {
  orderPlaced: "order.placed",
  orderPaid: "order.paid",
  orderShipped: "order.shipped",
  orderCancelled: "order.cancelled",
  orderExpired: "order.expired",
  shipmentCreated: "order.shipment.created",
  backorderAllocated: null,
  // Named by the return's step (typeOf).
  returnUpdated: null,
  creditNoteIssued: "order.credit_note.created",
  refunded: "order.refunded",
};

/** The type receivers see for this event, or null for mail-only events. */
function typeOf(event: OrderEvent): WebhookEventType | null {
  if (event.type !== "returnUpdated") return TYPE_OF[event.type];
  const entry = event.order.returns.find((candidate) => candidate.id === event.returnId);
  return entry ? `order.return.${entry.status}` : null;
}

/**
 * The event's id: the same each time this event of this order is raised again (the sweep, a
 * retried confirmation), so the unique delivery per endpoint holds across them.
 */
export function eventIdOf(event: OrderEvent) {
  if (event.type === "shipmentCreated") return `evt_${event.order.id}_shipment_${event.shipmentId}`;
  if (event.type === "returnUpdated")
    return `evt_${event.order.id}_return_${event.returnId}_${typeOf(event)?.slice(13) ?? "gone"}`;
  if (event.type === "creditNoteIssued") return `evt_${event.order.id}_credit_note_${event.creditNoteId}`;
  if (event.type === "refunded") return `evt_${event.order.id}_refund_${event.creditNoteId}`;
  const what =
    event.type === "orderCancelled" && event.by === "shop" ? "removed" : (TYPE_OF[event.type] ?? event.type).slice(6);
  return `evt_${event.order.id}_${what}`;
}

/** What a receiver gets of an order: money in integer cents with its currency, times in ISO 8601 UTC. */
export function orderPayload(order: OrderView) {
  return {
    id: order.id,
    number: order.number,
    state: order.state,
    currency: "usd",
    totalCents: order.totalCents,
    paidCents: order.paidCents,
    balanceCents: order.balanceCents,
    paymentMethod: order.paymentMethod,
    poNumber: order.poNumber,
    customer: { id: order.userId, email: order.userEmail, name: order.userName, companyName: order.companyName },
    lines: order.lines.map((line) => ({
      partId: line.partId,
      partNumber: line.partNumber,
      name: line.productName,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      lineTotalCents: line.lineTotalCents,
      backorderedQuantity: line.backorderedQuantity,
      backorderExpectedOn: line.backorderExpectedOn,
      shippedQuantity: line.shippedQuantity,
    })),
    shipment: order.shipment,
    shipments: order.shipments,
    returns: order.returns,
    creditNotes: order.creditNotes,
    creditedCents: order.creditedCents,
    refundedCents: order.refundedCents,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    shippedAt: order.shippedAt,
    cancelledAt: order.cancelledAt ?? order.removedAt,
    expiredAt: order.expiredAt,
  };
}

export function eventBody(event: OrderEvent, createdAt = new Date()) {
  return JSON.stringify({
    id: eventIdOf(event),
    type: typeOf(event),
    createdAt: createdAt.toISOString(),
    data: {
      order: orderPayload(event.order),
      ...(event.type === "orderCancelled" ? { cancelledBy: event.by } : {}),
      ...(event.type === "shipmentCreated"
        ? { shipment: event.order.shipments.find((shipment) => shipment.id === event.shipmentId) ?? null }
        : {}),
      ...(event.type === "returnUpdated"
        ? { return: event.order.returns.find((entry) => entry.id === event.returnId) ?? null }
        : {}),
      ...(event.type === "creditNoteIssued" || event.type === "refunded"
        ? { creditNote: event.order.creditNotes.find((note) => note.id === event.creditNoteId) ?? null }
        : {}),
    },
  });
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp bounds a replay. */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/**
 * The order-event subscriber: one delivery per endpoint that hears of this order, written once
 * (its id is the event's and the endpoint's) and queued. Never throws; false when a write failed
 * (the event stays pending on the order and the sweep raises it again).
 */
export async function queueOrderWebhooks(event: OrderEvent) {
  try {
    const type = typeOf(event);
    if (!type) return true;
    const found = await endpointsForOrderOf(event.order);
    if (!found.length) return true;
    // An endpoint for every order is its owner's while they are an admin: a demoted admin's hears of no more.
    const admins = found.some((endpoint) => endpoint.scope === "all")
      ? new Set((await listAdminRecipients()).map((admin) => admin.id))
      : new Set<string>();
    const endpoints = found.filter((endpoint) => endpoint.scope === "own" || admins.has(endpoint.ownerId));
    const eventId = eventIdOf(event);
    const body = eventBody(event);
    for (const endpoint of endpoints) {
      const entry = {
        eventId,
        endpointId: endpoint.id,
        ownerId: endpoint.ownerId,
        type,
        orderId: event.order.id,
        orderNumber: event.order.number,
        body,
      };
      if (await addDelivery(entry)) await queueWebhookDelivery(`${eventId}|${endpoint.id}`);
    }
    return true;
  } catch (error) {
    console.error(`Could not write the webhook deliveries of ${event.type} of ${event.order.number}:`, error);
    return false;
  }
}

// --- Endpoints ----------------------------------------------------------------------------------------

/**
 * Why a URL cannot be an endpoint, or null. HTTPS to a public server only: no address of this
 * machine or of any private or reserved range, and no name kept for inside a network (`localhost`,
 * `*.local`, `*.internal`, …): a webhook must not reach inside the shop. Plain http://127.0.0.1 only
 * when WEBHOOKS_ALLOW_LOCAL_HTTP is on (tests with a local receiver). Every delivery checks the
 * addresses the name resolves to again (webhook-send.server.ts).
 */
export function endpointUrlProblem(text: string, allowLocalHttp = getEnv().WEBHOOKS_ALLOW_LOCAL_HTTP) {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL, such as https://erp.example.com/partsworks";
  }
  if (url.username || url.password) return "Leave the user name and password out of the URL: each delivery is signed";
  if (url.protocol === "http:" && url.hostname === "127.0.0.1" && allowLocalHttp) return null;
  if (url.protocol !== "https:") return "The URL must start with https://";
  if (!isPublicHost(url.hostname)) return "The URL must name a public server, not an address of a private network";
  return null;
}

type Actor = { id: string; email: string; role: "customer" | "admin"; companyId: string; companyRole: CompanyRole };
type Context = AuditEvent["context"];

/**
 * A customer's endpoints belong to their company and hear of every order of it, whoever placed it;
 * its owners add and remove them (an endpoint receives every order's details and money). An admin's
 * are their own and hear of every order.
 */
export function endpointsOf(actor: Pick<Actor, "id" | "role" | "companyId">): EndpointHolder {
  return actor.role === "admin" ? { staffId: actor.id } : { companyId: actor.companyId };
}

/** Whether the actor may add, remove and redeliver: an admin, or an owner of the company. */
export const mayManageWebhooks = (actor: Pick<Actor, "role" | "companyRole">) =>
  actor.role === "admin" || can(actor, "manage");

const OWNERS_ONLY = "Your company's owners manage its webhooks: ask one of them.";

/** A signing secret: 32 random bytes, shown once. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

export type AddEndpointOutcome =
  | { ok: true; endpoint: { id: string; url: string }; secret: string }
  | { ok: false; status: 400 | 403; field: "url" | ""; message: string };

/**
 * Registers an endpoint: an admin's hears of every order, a company owner's of every order of the
 * company. Refused while the owner's address is unproved.
 */
export async function createEndpoint(
  url: string,
  { actor, context }: { actor: Actor & { emailVerified: boolean }; context?: Context },
): Promise<AddEndpointOutcome> {
  if (!mayManageWebhooks(actor)) return { ok: false, status: 403, field: "url", message: OWNERS_ONLY };
  if (!mayMakeCredentials(actor)) return { ok: false, status: 403, field: "", message: VERIFY_FIRST };
  const problem = endpointUrlProblem(url);
  if (problem) return { ok: false, status: 400, field: "url", message: problem };
  const holder = endpointsOf(actor);
  if ((await countEndpointsOf(holder)) >= MAX_ENDPOINTS_PER_OWNER) {
    const who = "staffId" in holder ? "one account" : "one company";
    const message = `There are ${MAX_ENDPOINTS_PER_OWNER} endpoints, the most ${who} may have: remove one first`;
    return { ok: false, status: 400, field: "url", message };
  }
  const secret = newSecret();
  const scope = actor.role === "admin" ? "all" : "own";
  const endpoint = await addEndpoint({
    ownerId: actor.id,
    companyId: scope === "own" ? actor.companyId : null,
    scope,
    url,
    secret,
  });
  await audit({
    context,
    actor,
    action: "webhook.create",
    target: { type: "webhook", id: endpoint.id, label: url },
    after: { url, orders: scope === "all" ? "every order" : "the company's orders" },
  });
  return { ok: true, endpoint, secret };
}

/** Removes one of the holder's endpoints (and what it had not yet received); null when not theirs (or not an owner). */
export async function deleteEndpoint(endpointId: string, { actor, context }: { actor: Actor; context?: Context }) {
  if (!mayManageWebhooks(actor)) return null;
  const removed = await removeEndpoint(endpointsOf(actor), endpointId);
  if (!removed) return null;
  await dropUndelivered(removed.id);
  await audit({
    context,
    actor,
    action: "webhook.remove",
    target: { type: "webhook", id: removed.id, label: removed.url },
    before: { url: removed.url },
  });
  return removed;
}

/** Sends a delivery again with the same event id and body, freshly signed; null when not the holder's. */
export async function redeliverWebhook(deliveryId: string, actor: Actor) {
  if (!mayManageWebhooks(actor)) return null;
  const delivery = await redeliver(endpointsOf(actor), deliveryId);
  if (delivery) await queueWebhookDelivery(delivery._id);
  return delivery;
}

/**
 * The demo's trade company has an endpoint, added by its owner (a name that never resolves: nothing
 * leaves the demo) with one delivery delivered and one failed, so the Webhooks screen shows both on
 * first start.
 */
export async function ensureDemoWebhooks(customerId: string, companyId: string, orders: OrderView[]) {
  if ((await countEndpointsOf({ companyId })) > 0 || orders.length < 2) return;
  const endpoint = await addEndpoint({
    ownerId: customerId,
    companyId,
    scope: "own",
    url: "https://erp.northside-fleet.invalid/partsworks",
    secret: newSecret(),
  });
  const [first, second] = orders;
  const settled = [
    { event: { type: "orderPlaced", order: first, belowMinimum: [] } as OrderEvent, status: "delivered" as const },
    { event: { type: "orderShipped", order: second } as OrderEvent, status: "failed" as const },
  ];
  for (const { event, status } of settled) {
    const at = new Date(event.order.createdAt);
    await addSettledDelivery({
      eventId: eventIdOf(event),
      endpointId: endpoint.id,
      ownerId: customerId,
      type: typeOf(event)!,
      orderId: event.order.id,
      orderNumber: event.order.number,
      body: eventBody(event, at),
      status,
      at,
      ...(status === "delivered"
        ? { attempts: 1, lastStatusCode: 204 }
        : { attempts: 14, lastStatusCode: 503, lastError: "answered 503" }),
    });
  }
}
