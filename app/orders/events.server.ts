/**
 * The order's domain events and their subscribers. A service (orders/service.server.ts, stripe.server.ts,
 * orders/stock-jobs.server.ts) makes a change whose atomic update also notes the event as pending on the
 * order (`eventsPending`), then raises it here: every subscriber writes its outbox entries (mail,
 * webhook deliveries), and once all did, the pending note comes off. The database has no
 * transactions, so what a crash or a failed write leaves noted, the order event sweep raises again
 * (orders/event-sweep.server.ts); each subscriber's outbox key makes a second raise write nothing.
 */
import { logFailure } from "~/services/log.server";
import { markEventRaised } from "~/orders/model/events.server";
import { type OrderEventKind } from "~/orders/model/schema.server";
import { type OrderView } from "~/orders/model/view.server";
import type { EmailPart } from "~/emails/orders";
import type { UserView } from "~/models/user.server";
import {
  mailBackorderAllocated,
  mailOrderEnded,
  mailOrderExpired,
  mailOrderPaid,
  mailOrderPlaced,
  mailOrderShipped,
  mailParcelShipped,
  mailReturnStep,
  mailCreditNote,
} from "./mail.server";
import { queueOrderWebhooks } from "./webhook-events.server";

export type OrderEvent =
  | { type: "orderPlaced"; order: OrderView; belowMinimum: EmailPart[]; customer?: UserView }
  | { type: "orderPaid"; order: OrderView }
  | { type: "orderShipped"; order: OrderView }
  | { type: "orderCancelled"; order: OrderView; by: "customer" | "shop" }
  | { type: "orderExpired"; order: OrderView }
  | { type: "shipmentCreated"; order: OrderView; shipmentId: string }
  | { type: "backorderAllocated"; order: OrderView }
  /** A return was asked for, approved, declined or received: the event names its current step. */
  | { type: "returnUpdated"; order: OrderView; returnId: string }
  /** A credit note was issued (a return received, or a paid order cancelled). */
  | { type: "creditNoteIssued"; order: OrderView; creditNoteId: string }
  /** A credit note's refund to the card succeeded (Stripe confirmed it). */
  | { type: "refunded"; order: OrderView; creditNoteId: string }
  /** Account credit (a credit note's) came off this order. */
  | { type: "creditApplied"; order: OrderView; useId: string }
  /** A credit note's credit was paid out to the customer's bank. */
  | { type: "paidOut"; order: OrderView; creditNoteId: string };

export type OrderEventType = OrderEvent["type"];

/** The pending note on the order that each event clears (noted by the model's update). */
export function pendingNoteOf(event: OrderEvent): OrderEventKind {
  switch (event.type) {
    case "orderPlaced":
      return "placed";
    case "orderPaid":
      return "paid";
    case "orderShipped":
      return "shipped";
    case "orderCancelled":
      return event.by === "customer" ? "cancelled" : "removed";
    case "orderExpired":
      return "expired";
    case "shipmentCreated":
      return "shipment";
    case "backorderAllocated":
      return "allocated";
    case "returnUpdated":
      return "return";
    case "creditNoteIssued":
      return "credit";
    case "refunded":
      return "refund";
    case "creditApplied":
      return "credit-applied";
    case "paidOut":
      return "payout";
  }
}

/** The mail of each event (orders/mail.server.ts). True when every message is written (or not due). */
function mailSubscriber(event: OrderEvent) {
  switch (event.type) {
    case "orderPlaced":
      return mailOrderPlaced(event.order, event.belowMinimum, event.customer);
    case "orderPaid":
      return mailOrderPaid(event.order);
    case "orderShipped":
      return mailOrderShipped(event.order);
    case "orderCancelled":
      return mailOrderEnded(event.order, event.by);
    case "orderExpired":
      return mailOrderExpired(event.order);
    case "shipmentCreated":
      // The last parcel of an order shipped whole in one is mailed as "shipped" (mailOrderShipped).
      return event.order.shipments.length > 1 || event.order.status !== "shipped"
        ? mailParcelShipped(event.order, event.shipmentId)
        : Promise.resolve(true);
    case "backorderAllocated":
      return mailBackorderAllocated(event.order);
    case "returnUpdated":
      return mailReturnStep(event.order, event.returnId);
    case "creditNoteIssued":
      return mailCreditNote(event.order, event.creditNoteId);
    case "refunded":
    case "creditApplied":
    case "paidOut":
      // The credit note's mail told how the money comes back, the order's documents show the credit
      // taken off; receivers of webhooks hear each.
      return Promise.resolve(true);
  }
}

/** Each returns whether its outbox entries are written, and never throws: a change never fails because a side effect did. */
const SUBSCRIBERS: ((event: OrderEvent) => Promise<boolean>)[] = [mailSubscriber, queueOrderWebhooks];

/** Hands the event to every subscriber; clears its pending note once all wrote their entries. */
export async function raiseOrderEvent(event: OrderEvent) {
  let written = true;
  for (const subscriber of SUBSCRIBERS) {
    const done = await subscriber(event).catch((error: unknown) => {
      logFailure(`An order event subscriber failed on ${event.type} of ${event.order.number}`, error);
      return false;
    });
    written &&= done;
  }
  if (written) await markEventRaised(event.order.id, pendingNoteOf(event));
  return written;
}
