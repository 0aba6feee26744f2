/**
 * An order's hold on stock: ending an unpaid order (stock back), settling what a crash left pending,
 * finding orders left reserving (the checkout resumes them), the hold's end, its reminder, and extending it.
 */
import { dropCheckoutClaim, emptyCheckedOutCart, listStaleCheckoutClaims } from "~/models/cart.server";
import { isObjectId } from "~/models/part.server";
import { releaseHolds } from "~/models/stock-holds.server";
import { ENDED_UNPAID_STATUSES, Order, type OrderEventKind } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { giveBackCreditOf } from "./credit-use.server";
import { type CustomerScope, scopeFilter } from "./reads.server";

const ENDED_AT = { cancelled: "cancelledAt", removed: "removedAt", expired: "expiredAt" } as const;

type WaitingStatus = "unpaid" | "approval";
/** The orders that hold stock with nothing paid and no credit behind them: each has a hold that ends. */
const HOLDING_UNPAID: WaitingStatus[] = ["unpaid", "approval"];

/**
 * Ends an unpaid order (cancelled by its customer, removed by an admin, or expired) and gives
 * every line's stock back. The status changes in one conditional update that also notes the
 * stock as pending, so of two endings racing only one applies; the release itself pulls each
 * hold once (releaseHolds), and what a crash leaves pending the stock sweep settles.
 */
export async function endUnpaidOrder(
  filter: Record<string, unknown>,
  status: (typeof ENDED_UNPAID_STATUSES)[number],
  {
    from = "unpaid",
    set = {},
    events = [],
  }: { from?: WaitingStatus | WaitingStatus[]; set?: Record<string, unknown>; events?: OrderEventKind[] } = {},
) {
  const doc = await Order.findOneAndUpdate(
    // An order with money recorded against it is not ended here: the payment is reversed first.
    { ...filter, status: Array.isArray(from) ? { $in: from } : from, paidCents: { $in: [0, null] } },
    {
      $set: { ...set, status, [ENDED_AT[status]]: new Date(), stockPending: "release" },
      $addToSet: { eventsPending: { $each: [status, ...events] } },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  await settleOrderStock(view.id, view.lines, "release");
  // Its event (noted above as pending) is raised by the service that ended it (orders/service.server.ts).
  return view;
}

/**
 * Gives back (or ships) the order's holds, then notes that nothing is pending. An order that ended
 * unpaid also gives back the account credit it took. Safe to run again.
 */
export async function settleOrderStock(
  orderId: string,
  lines: { partId: string; quantity: number }[],
  pending: "release" | "ship",
) {
  if (pending === "release") await giveBackCreditOf(orderId);
  await releaseHolds(orderId, lines, { ship: pending === "ship" });
  await Order.updateOne({ _id: orderId, stockPending: pending }, { $unset: { stockPending: "" } });
}

/** The customer's (company's) unpaid order becomes cancelled; null if it is not theirs or not unpaid. */
export function cancelOrder(orderId: string, scope: CustomerScope) {
  const filter = scopeFilter(scope);
  if (!isObjectId(orderId) || !filter) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId, ...filter }, "cancelled");
}

/** An admin removes an unpaid order, or one waiting for approval, with their reason; null if it is neither (any more). */
export function removeOrder(orderId: string, reason?: string) {
  if (!isObjectId(orderId)) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId }, "removed", {
    from: HOLDING_UNPAID,
    set: reason ? { cancelReason: reason } : {},
  });
}

/** Ends an order whose hold ran out by `now`: unpaid, or still waiting for an owner's approval. */
export function expireHeldOrder(orderId: string, now: Date) {
  return endUnpaidOrder({ _id: orderId, holdUntil: { $lte: now } }, "expired", { from: HOLDING_UNPAID });
}

/**
 * The orders a crash (or a failed write) left half way, and the unpaid orders whose hold runs out.
 * Every step here is a conditional update that applies once, so several instances may run them at
 * the same time (the jobs in orders/stock-jobs.server.ts) and a step run twice changes nothing.
 */

/**
 * Orders still reserving (or failed) past their deadline, oldest first: a crash (or a failed write)
 * left them half placed, and the checkout's sweep (orders/checkout.server.ts) finishes or undoes each.
 */
export async function listLeftReserving({ now = new Date(), limit = 200 } = {}) {
  const docs = await Order.find({ status: { $in: ["reserving", "failed"] }, reserveBy: { $lte: now } })
    .sort({ reserveBy: 1 })
    .limit(limit)
    .lean();
  return docs.map(toOrderView);
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

/** The unpaid orders and those waiting for approval whose hold ended by `now`, oldest hold first. */
export async function listHoldsEnded({ now = new Date(), limit = 200 } = {}) {
  const docs = await Order.find({ status: { $in: HOLDING_UNPAID }, holdUntil: { $lte: now } }, { _id: 1 })
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
      { $set: { holdReminderAt: now }, $addToSet: { eventsPending: "reminder" } },
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
  const doc = await Order.findOne(
    { _id: orderId, status: { $in: HOLDING_UNPAID } },
    { holdUntil: 1, status: 1 },
  ).lean();
  if (!doc) return null;
  const from = Math.max(doc.holdUntil?.getTime() ?? 0, Date.now());
  const until = new Date(from + days * 24 * 60 * 60 * 1000);
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, status: doc.status, holdUntil: doc.holdUntil ?? null },
    { $set: { holdUntil: until }, $unset: { holdReminderAt: "" } },
    { returnDocument: "after" },
  ).lean();
  return updated ? { before: doc.holdUntil?.toISOString() ?? null, order: toOrderView(updated) } : null;
}

/**
 * The holds of unpaid orders and those waiting for approval (/metrics): how many hold stock, how
 * many end within `soonMs`, and how many ended by `now` without the expiry job ending them yet.
 */
export async function countHolds({ soonMs, now = new Date() }: { soonMs: number; now?: Date }) {
  const holding = { status: { $in: HOLDING_UNPAID } };
  const [active, endingSoon, overdue] = await Promise.all([
    Order.countDocuments({ ...holding, holdUntil: { $gt: now } }),
    Order.countDocuments({ ...holding, holdUntil: { $gt: now, $lte: new Date(now.getTime() + soonMs) } }),
    Order.countDocuments({ ...holding, holdUntil: { $lte: now } }),
  ]);
  return { active, endingSoon, overdue };
}
