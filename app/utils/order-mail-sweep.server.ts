import { listPendingOrderMail, mailWritten, type OrderMailEvent, type OrderView } from "~/models/order.server";
import { getPartsByIds } from "~/models/part.server";
import {
  mailHoldEnding,
  mailOrderEnded,
  mailOrderExpired,
  mailOrderPaid,
  mailOrderPlaced,
  mailOrderShipped,
} from "./order-mail.server";

/**
 * Each change of an order notes its event on the order in the same atomic update (`mailPending`),
 * and the step writes the mail right after. The database has no transactions, so a crash or a
 * failed write between the two leaves the event noted and its mail unwritten: this sweep, run by
 * the outbox sweep job every minute, writes those mails. The outbox id of each mail is its event,
 * so the step and the sweep never write one twice, and a mail already sent is never sent again.
 */

/** The step writes its mail at once; an event still pending after this long is the sweep's. */
export const ORDER_MAIL_GRACE_MS = 60_000;

async function writeMail(order: OrderView, event: OrderMailEvent, lowStockPartIds: string[]) {
  switch (event) {
    case "placed": {
      // The admins hear of a part still below its minimum order (one restocked since needs no notice).
      const parts = [...(await getPartsByIds(lowStockPartIds)).values()];
      return mailOrderPlaced(order, parts);
    }
    case "paid":
      return mailOrderPaid(order);
    case "shipped":
      return mailOrderShipped(order);
    case "cancelled":
      return mailOrderEnded(order, "customer");
    case "removed":
      return mailOrderEnded(order, "shop");
    case "expired":
      return mailOrderExpired(order);
    case "reminder":
      return mailHoldEnding(order);
  }
}

/** Writes the mail of every order event left pending; returns how many events it settled. */
export async function sweepOrderMail({ graceMs = ORDER_MAIL_GRACE_MS, limit = 200 } = {}) {
  let settled = 0;
  for (const { order, events, lowStockPartIds } of await listPendingOrderMail({ graceMs, limit })) {
    for (const event of events) {
      if (await writeMail(order, event, lowStockPartIds)) {
        await mailWritten(order.id, event);
        settled++;
      }
    }
  }
  return settled;
}
