/**
 * The order's events whose mail and webhooks are still to be written (`eventsPending`), for the sweep.
 */
import { logFailure } from "../../../server/request-context";
import { ORDER_EVENT_KINDS, type OrderEventKind, Order } from "./schema.server";
import { type OrderView, toOrderView } from "./view.server";

// --- Mail of the order's events ---------------------------------------------------------------------

/**
 * The event's mail is written to the outbox (or not due, e.g. the customer turned order updates
 * off): nothing is left for the sweep. Never throws: if this fails, the sweep finds the event
 * pending and finds its mail already in the outbox.
 */
export async function markEventRaised(orderId: string, event: OrderEventKind) {
  try {
    await Order.updateOne({ _id: orderId }, { $pull: { eventsPending: event } });
  } catch (error) {
    logFailure(`Could not mark the ${event} mail of order ${orderId} as written`, error);
  }
}

export type PendingOrderMail = { order: OrderView; events: OrderEventKind[]; lowStockPartIds: string[] };

/** Orders with an event whose mail is still not written `graceMs` after their last change, oldest first. */
export async function listOrdersWithPendingEvents({ graceMs, limit }: { graceMs: number; limit: number }) {
  const docs = await Order.find({
    eventsPending: { $in: ORDER_EVENT_KINDS },
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc): PendingOrderMail => ({
    order: toOrderView(doc),
    events: (doc.eventsPending ?? []).filter((event): event is OrderEventKind =>
      (ORDER_EVENT_KINDS as readonly string[]).includes(event),
    ),
    lowStockPartIds: (doc.lowStockPartIds ?? []).map((id) => id.toString()),
  }));
}
