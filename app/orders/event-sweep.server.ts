import { listOrdersWithPendingEvents, markEventRaised } from "~/orders/model/events.server";
import { type OrderEventKind } from "~/orders/model/schema.server";
import { type OrderView } from "~/orders/model/view.server";
import { getPartsByIds } from "~/models/part.server";
import { getUserById } from "~/models/user.server";
import { raiseApprovalNeeded, raiseDecision } from "./approvals.server";
import { mailHoldEnding } from "./mail.server";
import { raiseOrderEvent } from "./events.server";

/**
 * Each change of an order notes its event on the order in the same atomic update (`eventsPending`),
 * and the service raises it right after (orders/events.server.ts: mail and webhook deliveries). The
 * database has no transactions, so a crash or a failed write between the two leaves the event
 * noted and its outbox entries unwritten: this sweep, run by the outbox sweep job every minute,
 * raises those events again. Each entry's id is its event's, so the step and the sweep never write
 * one twice, and a mail or delivery already sent is never sent again.
 */

/** The step writes its mail at once; an event still pending after this long is the sweep's. */
export const ORDER_EVENT_GRACE_MS = 60_000;

async function raiseAgain(order: OrderView, event: OrderEventKind, lowStockPartIds: string[]) {
  switch (event) {
    case "placed": {
      // The admins hear of a part still below its minimum order (one restocked since needs no notice).
      const parts = [...(await getPartsByIds(lowStockPartIds)).values()];
      return raiseOrderEvent({ type: "orderPlaced", order, belowMinimum: parts });
    }
    case "paid":
      return raiseOrderEvent({ type: "orderPaid", order });
    case "shipped":
      return raiseOrderEvent({ type: "orderShipped", order });
    case "cancelled":
      return raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
    case "removed":
      return raiseOrderEvent({ type: "orderCancelled", order, by: "shop" });
    case "expired":
      return raiseOrderEvent({ type: "orderExpired", order });
    case "shipment": {
      // Each parcel's mail and delivery have their own key: raising every parcel again writes only what is missing.
      let written = true;
      for (const shipment of order.shipments)
        written &&= await raiseOrderEvent({ type: "shipmentCreated", order, shipmentId: shipment.id });
      return written;
    }
    case "allocated":
      return raiseOrderEvent({ type: "backorderAllocated", order });
    case "return": {
      // Each step of each return has its own key: raising every return again writes only what is missing.
      let written = true;
      for (const entry of order.returns)
        written &&= await raiseOrderEvent({ type: "returnUpdated", order, returnId: entry.id });
      return written;
    }
    case "credit": {
      // Each credit note has its own key: raising every one again writes only what is missing.
      let written = true;
      // A note a crash left without its number is numbered (and raised) by the stock sweep.
      for (const note of order.creditNotes.filter((each) => each.number.startsWith("CN-")))
        written &&= await raiseOrderEvent({ type: "creditNoteIssued", order, creditNoteId: note.id });
      return written;
    }
    case "refund": {
      let written = true;
      for (const note of order.creditNotes.filter((each) => each.refund?.status === "succeeded"))
        written &&= await raiseOrderEvent({ type: "refunded", order, creditNoteId: note.id });
      return written;
    }
    case "credit-applied": {
      let written = true;
      for (const use of order.creditUses)
        written &&= await raiseOrderEvent({ type: "creditApplied", order, useId: use.id });
      return written;
    }
    case "payout": {
      let written = true;
      for (const note of order.creditNotes.filter((each) => each.payout))
        written &&= await raiseOrderEvent({ type: "paidOut", order, creditNoteId: note.id });
      return written;
    }
    case "approval": {
      const buyer = await getUserById(order.userId);
      return buyer ? raiseApprovalNeeded(order, buyer) : (await markEventRaised(order.id, "approval"), true);
    }
    case "decided":
      return raiseDecision(order);
    case "reminder": {
      // A reminder is mail only (no webhook event): cleared here once written.
      const written = await mailHoldEnding(order);
      if (written) await markEventRaised(order.id, "reminder");
      return written;
    }
  }
}

/** Raises every order event left pending; returns how many it settled. */
export async function sweepOrderEvents({ graceMs = ORDER_EVENT_GRACE_MS, limit = 200 } = {}) {
  let settled = 0;
  for (const { order, events, lowStockPartIds } of await listOrdersWithPendingEvents({ graceMs, limit })) {
    for (const event of events) {
      if (await raiseAgain(order, event, lowStockPartIds)) settled++;
    }
  }
  return settled;
}
