import { assignInvoiceNumber } from "./invoice.server";
import { dropCheckoutClaim, emptyCheckedOutCart, listStaleCheckoutClaims } from "./cart.server";
import { abandonOrder, confirmOrder, Order, settleOrderStock, toOrderView, type OrderView } from "./order.server";
import { partsHeldBy } from "./part.server";

/**
 * The orders a crash (or a failed write) left half way, and the unpaid orders whose hold runs out.
 * Every step here is a conditional update that applies once, so several instances may run them at
 * the same time (the jobs in stock-jobs.server.ts) and a step run twice changes nothing.
 */

/**
 * Orders still reserving past their deadline: one whose every line holds its stock is confirmed
 * (and its cart emptied), any other gives back what it took and is dropped (its cart kept).
 * Returns how many of each.
 */
export async function finishLeftReserving({ now = new Date(), limit = 200 } = {}) {
  const docs = await Order.find({ status: { $in: ["reserving", "failed"] }, reserveBy: { $lte: now } })
    .sort({ reserveBy: 1 })
    .limit(limit)
    .lean();
  let confirmed = 0;
  let released = 0;
  for (const doc of docs) {
    const order = toOrderView(doc);
    if (doc.status === "reserving") {
      const held = await partsHeldBy(
        order.id,
        order.lines.map((line) => line.partId),
      );
      if (order.lines.every((line) => held.has(line.partId)) && (await confirmOrder(order.id))) {
        await emptyCheckedOutCart(order.userId, order.id);
        // An order on account is invoiced when placed; its "placed" mail is the order mail sweep's.
        if (order.paymentMethod === "account") await assignInvoiceNumber(order.id).catch(() => null);
        confirmed++;
        continue;
      }
    }
    if (await abandonOrder(order.id, order.lines)) {
      await dropCheckoutClaim(order.userId, order.id);
      released++;
    }
  }
  return { confirmed, released };
}

/**
 * Carts claimed for a checkout longer than the deadline: if the order was never written the claim
 * goes (the cart keeps its lines); if it was placed, the cart is emptied; one still reserving is
 * left to finishLeftReserving.
 */
export async function settleStaleCartClaims({ before, limit = 200 }: { before: Date; limit?: number }) {
  let settled = 0;
  for (const claim of await listStaleCheckoutClaims(before, limit)) {
    const order = await Order.findById(claim.orderId, { status: 1 }).lean();
    if (order && (order.status === "reserving" || order.status === "failed")) continue;
    if (order) await emptyCheckedOutCart(claim.userId, claim.orderId);
    else await dropCheckoutClaim(claim.userId, claim.orderId);
    settled++;
  }
  return settled;
}

/** Ended or shipped orders whose holds a crash left unsettled (`stockPending`) for `graceMs`: settled now. */
export async function settleLeftStock({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  const docs = await Order.find({
    stockPending: { $in: ["release", "ship"] },
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .limit(limit)
    .lean();
  for (const doc of docs) {
    await settleOrderStock(doc._id.toString(), toOrderView(doc).lines, doc.stockPending as "release" | "ship");
  }
  return docs.length;
}

/** The unpaid orders whose hold ended by `now`, oldest hold first. */
export async function listHoldsEnded({ now = new Date(), limit = 200 } = {}) {
  const docs = await Order.find({ status: "unpaid", holdUntil: { $lte: now } }, { _id: 1 })
    .sort({ holdUntil: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc) => doc._id.toString());
}

/**
 * Notes the reminder on each unpaid order whose hold ends within `withinMs` and has had none (one
 * conditional update each, so one instance wins it) and returns those orders, to be mailed.
 */
export async function noteHoldReminders({
  withinMs,
  now = new Date(),
  limit = 200,
}: {
  withinMs: number;
  now?: Date;
  limit?: number;
}) {
  const candidates = await Order.find(
    {
      status: "unpaid",
      holdUntil: { $gt: now, $lte: new Date(now.getTime() + withinMs) },
      holdReminderAt: { $exists: false },
    },
    { _id: 1, holdUntil: 1 },
  )
    .limit(limit)
    .lean();
  const noted: OrderView[] = [];
  for (const candidate of candidates) {
    const doc = await Order.findOneAndUpdate(
      { _id: candidate._id, status: "unpaid", holdUntil: candidate.holdUntil, holdReminderAt: { $exists: false } },
      { $set: { holdReminderAt: now }, $addToSet: { mailPending: "reminder" } },
      { returnDocument: "after" },
    ).lean();
    if (doc) noted.push(toOrderView(doc));
  }
  return noted;
}

/**
 * An admin holds an unpaid order's stock `days` longer: from its current end, or from now if that
 * has passed (the expiry job had not run yet). A new reminder goes out before the new end. Null
 * when the order is not unpaid (any more) or its hold changed meanwhile.
 */
export async function extendHold(orderId: string, days: number) {
  const doc = await Order.findOne({ _id: orderId, status: "unpaid" }, { holdUntil: 1 }).lean();
  if (!doc) return null;
  const from = Math.max(doc.holdUntil?.getTime() ?? 0, Date.now());
  const until = new Date(from + days * 24 * 60 * 60 * 1000);
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, status: "unpaid", holdUntil: doc.holdUntil ?? null },
    { $set: { holdUntil: until }, $unset: { holdReminderAt: "" } },
    { returnDocument: "after" },
  ).lean();
  return updated ? { before: doc.holdUntil?.toISOString() ?? null, order: toOrderView(updated) } : null;
}
