/**
 * What each order event tells webhook receivers: its type ("order.placed", …), its id (the same each
 * time the event is raised again), the order as a payload, and one delivery per endpoint that hears of
 * the order, written once and queued (a subscriber of events.server.ts). The endpoints, signatures and
 * sending are app/services/webhooks.server.ts; the scheme is in docs/webhooks.md.
 */
import { logFailure } from "~/services/log.server";
import { addDelivery, endpointsForOrderOf } from "~/models/webhook.server";
import { listAdminRecipients } from "~/models/user.server";
import { queueWebhookDelivery } from "~/services/delivery-jobs.server";
import type { OrderView } from "./model/view.server";
import type { OrderEvent } from "./events.server";

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
  "order.credit.applied",
  "order.credit_note.paid_out",
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
  creditApplied: "order.credit.applied",
  paidOut: "order.credit_note.paid_out",
};

/** The type receivers see for this event, or null for mail-only events. */
export function typeOf(event: OrderEvent): WebhookEventType | null {
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
  if (event.type === "creditApplied") return `evt_${event.order.id}_credit_applied_${event.useId}`;
  if (event.type === "paidOut") return `evt_${event.order.id}_payout_${event.creditNoteId}`;
  const what =
    event.type === "orderCancelled" && event.by === "shop" ? "removed" : (TYPE_OF[event.type] ?? event.type).slice(6);
  return `evt_${event.order.id}_${what}`;
}

/**
 * What a receiver gets of an order: every `…Cents` in it (lines, credit notes, credit applied) in the
 * minor unit of the order's `currency`, the currency of its sale, in lower case as Stripe writes it;
 * times in ISO 8601 UTC.
 */
export function orderPayload(order: OrderView) {
  return {
    id: order.id,
    number: order.number,
    state: order.state,
    currency: order.currency.toLowerCase(),
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
    creditAppliedCents: order.creditAppliedCents,
    creditApplied: order.creditUses.map((use) => ({
      creditNote: use.noteNumber,
      creditNoteOrderId: use.noteOrderId,
      amountCents: use.amountCents,
      at: use.at,
    })),
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    shippedAt: order.shippedAt,
    cancelledAt: order.cancelledAt ?? order.removedAt,
    expiredAt: order.expiredAt,
  };
}

export function eventBody(event: OrderEvent, createdAt = new Date()) {
  // The event's own credit note or credit use sits beside the order: it names the order's currency too.
  const currency = event.order.currency.toLowerCase();
  const withCurrency = <T extends object>(found: T | undefined) => (found ? { ...found, currency } : null);
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
      ...(event.type === "creditApplied"
        ? { creditApplied: withCurrency(event.order.creditUses.find((use) => use.id === event.useId)) }
        : {}),
      ...(event.type === "creditNoteIssued" || event.type === "refunded" || event.type === "paidOut"
        ? { creditNote: withCurrency(event.order.creditNotes.find((note) => note.id === event.creditNoteId)) }
        : {}),
    },
  });
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
    logFailure(`Could not write the webhook deliveries of ${event.type} of ${event.order.number}`, error);
    return false;
  }
}
