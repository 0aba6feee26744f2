import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { mailOrderEnded, mailOrderPlaced, mailOrderShipped } from "~/utils/order-mail.server";
import { lineProblem, MAX_ORDER_LINES, orderSummary, type LineProblem } from "~/utils/order-lines";
import { getEnv } from "~/utils/env.server";
import { capRefusal, unpaidCapsOf } from "~/utils/order-caps.server";
import { cartClaimedFor, dropCheckoutClaim, emptyCheckedOutCart } from "./cart.server";
import { getPartsByIds, holdStock, isObjectId, releaseHolds, type PartView } from "./part.server";

/**
 * reserving -> unpaid -> paid -> shipped; an unpaid order can also end as cancelled (by its
 * customer), removed (by an admin) or expired (its hold ran out unpaid), which gives its stock
 * back. "reserving" is the short moment while its lines take their stock (order-stock.server.ts):
 * no list shows it, and the stock sweep finishes or undoes one left behind by a crash. "failed"
 * is an order that could not take its stock, on its way out (abandonOrder).
 */
export const ORDER_STATUSES = [
  "reserving",
  "unpaid",
  "paid",
  "shipped",
  "cancelled",
  "removed",
  "expired",
  "failed",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses an order ends in before it was paid: its stock goes back. */
export const ENDED_UNPAID_STATUSES = ["cancelled", "removed", "expired"] as const;

/** The changes that mail someone: placing an order, each later status, and the hold's reminder. */
export const ORDER_MAIL_EVENTS = ["placed", "paid", "shipped", "cancelled", "removed", "expired", "reminder"] as const;
export type OrderMailEvent = (typeof ORDER_MAIL_EVENTS)[number];

/** One part of an order, with a snapshot of the part as it was ordered. */
const orderLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    partNumber: { type: String, default: "", maxlength: 32 },
    productName: { type: String, required: true, maxlength: 120 },
    unitPriceCents: { type: Number, required: true, min: 1 },
    quantity: { type: Number, required: true, min: 1 },
    /** unit price x quantity, computed on the server. */
    lineTotalCents: { type: Number, required: true, min: 1 },
  },
  { _id: false },
);

const orderSchema = new Schema(
  {
    lines: {
      type: [orderLineSchema],
      required: true,
      validate: {
        validator: (lines: unknown[]) => lines.length >= 1 && lines.length <= MAX_ORDER_LINES,
        message: `An order has 1 to ${MAX_ORDER_LINES} lines`,
      },
    },
    /** The sum of the lines' totals: what the customer pays. */
    totalCents: { type: Number, required: true, min: 1 },
    phone: { type: String, required: true, maxlength: 40 },
    address: { type: String, required: true, maxlength: 300 },
    /** The buyer's purchase-order number (optional), for their paperwork: invoices, packing slips, emails, CSV. */
    poNumber: { type: String, trim: true, maxlength: 35 },
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The customer's email (the spec's user) and display name. */
    userEmail: { type: String, required: true },
    userName: { type: String, required: true },
    status: { type: String, enum: ORDER_STATUSES, required: true, default: "unpaid" },
    /** Stripe PaymentIntent id, once paid. */
    transactionId: { type: String },
    // The order's timeline: placed (createdAt), then each change of status.
    paidAt: { type: Date },
    shippedAt: { type: Date },
    cancelledAt: { type: Date },
    removedAt: { type: Date },
    expiredAt: { type: Date },
    /** While reserving: when the stock sweep takes over an order a crash left behind. */
    reserveBy: { type: Date },
    /** An unpaid card order holds its stock until then; the expiry job ends it after (order-holds.server.ts). */
    holdUntil: { type: Date },
    /** When the reminder that the hold ends soon was noted (once per hold; an extension clears it). */
    holdReminderAt: { type: Date },
    /**
     * What is still to be done with the order's stock holds after a change of status, set in the
     * same update: "release" (ended unpaid) or "ship" (shipped). The step settles them at once and
     * unsets it; what a crash leaves, the stock sweep settles.
     */
    stockPending: { type: String, enum: ["release", "ship"] },
    /** Given once, when the order is paid (invoice.server.ts); never on an unpaid order. */
    invoiceNumber: { type: Number },
    invoicedAt: { type: Date },
    /** The customer's past order this one was reordered from (My Orders' "Order again"). */
    reorderedFrom: { type: Schema.Types.ObjectId },
    /**
     * The events whose mail is not yet in the outbox. Each change adds its event in the same atomic
     * update that makes it, and takes it off once the mail is written (order-mail.server.ts); what
     * a crash or a failed write leaves here, the order mail sweep writes (order-mail-sweep.server.ts).
     */
    mailPending: { type: [{ type: String, enum: ORDER_MAIL_EVENTS }], default: undefined },
    /** The parts whose stock this order took below their minimum order (the admins' low-stock notice). */
    lowStockPartIds: { type: [Schema.Types.ObjectId], default: undefined },
  },
  { timestamps: true },
);

// Each list's filter, then its whole sort (_id included), so the index returns the rows in order
// and no page sorts in memory: My Orders, Manage Orders, Manage Orders by status.
orderSchema.index({ userId: 1, createdAt: -1, _id: -1 });
orderSchema.index({ createdAt: -1, _id: -1 });
orderSchema.index({ status: 1, createdAt: -1, _id: -1 });
// Manage Orders' search by the customer's email (a prefix), newest first.
orderSchema.index({ userEmail: 1, createdAt: -1, _id: -1 });
// The admin home's sales of the last 30 days (paid orders by the day they were paid).
orderSchema.index({ paidAt: 1 }, { sparse: true });
// The order mail sweep: the few orders with an event whose mail is not written yet.
orderSchema.index({ mailPending: 1 }, { sparse: true });
// The stock sweep and the hold jobs: orders left reserving, holds running out, holds to settle.
orderSchema.index({ reserveBy: 1 }, { sparse: true });
orderSchema.index({ holdUntil: 1 }, { sparse: true });
orderSchema.index({ stockPending: 1 }, { sparse: true });
// The caps on what a customer holds unpaid: their open orders by status.
orderSchema.index({ userId: 1, status: 1 });

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };

export const Order: mongoose.Model<OrderDoc> =
  (mongoose.models.Order as mongoose.Model<OrderDoc>) ?? mongoose.model<OrderDoc>("Order", orderSchema);

export type OrderLineView = {
  partId: string;
  partNumber: string;
  productName: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
};

export type OrderView = {
  id: string;
  lines: OrderLineView[];
  /** The first line's part name, with "+ N more" when there are more lines. */
  summary: string;
  totalQuantity: number;
  totalCents: number;
  phone: string;
  address: string;
  /** The buyer's purchase-order number, or null. */
  poNumber: string | null;
  userId: string;
  userEmail: string;
  userName: string;
  status: OrderStatus;
  paid: boolean;
  shipped: boolean;
  transactionId: string | null;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  cancelledAt: string | null;
  removedAt: string | null;
  expiredAt: string | null;
  /** Until when an unpaid card order holds its stock, or null. */
  holdUntil: string | null;
  invoiceNumber: number | null;
  invoicedAt: string | null;
  /** The id of the order this one was reordered from, or null. */
  reorderedFrom: string | null;
};

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

type LineDoc = Partial<Omit<OrderLineView, "partId">> & { partId?: Types.ObjectId | string | null };

export function toOrderView(doc: Partial<OrderDoc> & { _id: Types.ObjectId }): OrderView {
  const status = (doc.status as OrderStatus) ?? "unpaid";
  const lines = ((doc.lines ?? []) as LineDoc[]).map((line) => ({
    partId: line.partId?.toString() ?? "",
    partNumber: line.partNumber ?? "",
    productName: line.productName ?? "",
    unitPriceCents: line.unitPriceCents ?? 0,
    quantity: line.quantity ?? 0,
    lineTotalCents: line.lineTotalCents ?? 0,
  }));
  return {
    id: doc._id.toString(),
    lines,
    summary: orderSummary(lines[0]?.productName ?? "", lines.length),
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalCents: doc.totalCents ?? 0,
    phone: doc.phone ?? "",
    address: doc.address ?? "",
    poNumber: doc.poNumber || null,
    userId: doc.userId?.toString() ?? "",
    userEmail: doc.userEmail ?? "",
    userName: doc.userName ?? "",
    status,
    paid: status === "paid" || status === "shipped",
    shipped: status === "shipped",
    transactionId: doc.transactionId ?? null,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
    paidAt: iso(doc.paidAt),
    shippedAt: iso(doc.shippedAt),
    cancelledAt: iso(doc.cancelledAt),
    removedAt: iso(doc.removedAt),
    expiredAt: iso(doc.expiredAt),
    holdUntil: status === "unpaid" ? iso(doc.holdUntil) : null,
    invoiceNumber: doc.invoiceNumber ?? null,
    invoicedAt: iso(doc.invoicedAt),
    reorderedFrom: doc.reorderedFrom ? doc.reorderedFrom.toString() : null,
  };
}

/** One customer's order; another customer's id (or a malformed one) gives null. */
export async function getOwnOrder(orderId: string, userId: string) {
  if (!isObjectId(orderId) || !isObjectId(userId)) return null;
  const doc = await Order.findOne({ _id: orderId, userId }).lean();
  return doc ? toOrderView(doc) : null;
}

export async function getOrderById(orderId: string) {
  if (!isObjectId(orderId)) return null;
  const doc = await Order.findById(orderId).lean();
  return doc ? toOrderView(doc) : null;
}

// --- Ordering and the order life cycle ----------------------------------------------------------
// Every change of status is one conditional update on the current status, so a double submit or a
// race between two admins can never apply a change twice (nor give stock back twice).

export type OrderLineRequest = { partId: string; quantity: number };

export type PlaceOrderInput = {
  lines: OrderLineRequest[];
  phone: string;
  address: string;
  /** The buyer's purchase-order number (optional). */
  poNumber?: string;
  user: { id: string; email: string; name: string };
  /** The customer's own past order the lines came from (a reorder through the cart). */
  reorderedFrom?: string | null;
  /** The order's id, chosen beforehand (a cart's checkout claims the cart for it). */
  orderId?: string;
  /** The lines come from the customer's cart, claimed for `orderId`: emptied once the order exists. */
  fromCart?: boolean;
};

/** A line that could not be ordered: which one (its place in the request) and why. */
export type LineFailure = LineProblem & {
  index: number;
  partId: string;
  partNumber: string | null;
  productName: string | null;
};

/** Not placed: the lines that could not be ordered, or a refusal of the whole order (a cap). */
export type PlaceOrderResult =
  { ok: true; order: OrderView } | { ok: false; failures: LineFailure[]; refusal?: string };

/** The same part twice becomes one line with both quantities; the first place is kept. */
function mergeLines(lines: OrderLineRequest[]) {
  const merged = new Map<string, OrderLineRequest & { index: number }>();
  lines.forEach((line, index) => {
    const seen = merged.get(line.partId);
    if (seen) seen.quantity += line.quantity;
    else merged.set(line.partId, { ...line, index });
  });
  return [...merged.values()];
}

function failureOf(
  line: { index: number; partId: string },
  part: PartView | undefined,
  problem: LineProblem,
): LineFailure {
  return {
    ...problem,
    index: line.index,
    partId: line.partId,
    partNumber: part?.partNumber ?? null,
    productName: part?.name ?? null,
  };
}

/** The settings of holding stock (server/env.ts). */
function stockSettings() {
  const env = getEnv();
  return {
    reserveMs: env.STOCK_RESERVE_DEADLINE_SECONDS * 1000,
    holdMs: env.ORDER_HOLD_HOURS * HOUR_MS,
  };
}
const HOUR_MS = 60 * 60 * 1000;

/** A fresh order id, chosen before the order is written (the cart's checkout claim names it). */
export const newOrderId = () => new mongoose.Types.ObjectId().toString();

/** A cart's checkout claim older than this was left by a crash (its order is the sweep's by then). */
export const checkoutClaimMs = () => stockSettings().reserveMs;

/** The customer's orders awaiting card payment (and any still taking stock): how many and their total. */
export async function openCardOrdersOf(userId: string, { except }: { except?: string } = {}) {
  const docs = await Order.find(
    { userId, status: { $in: ["reserving", "unpaid"] }, ...(except ? { _id: { $ne: except } } : {}) },
    { totalCents: 1 },
  ).lean();
  return { count: docs.length, totalCents: docs.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0) };
}

/**
 * Places an order of one or more lines, all or nothing, in steps that a crash at any point leaves
 * recoverable (no multi-document transaction: the local database has none):
 * 1. every line is checked against the part as it is now (a failure stops here, nothing written);
 * 2. the order is written in the "reserving" state with its lines, and the customer's caps on
 *    unpaid orders are checked with it counted (two checkouts at once cannot both slip under);
 * 3. each line takes its stock with one conditional update that also notes the order's hold on
 *    the part (part.server.ts, holdStock), so what was taken is known, never guessed;
 * 4. the order is confirmed (unpaid, holding its stock until `holdUntil`), and only then the cart
 *    it came from is emptied.
 * If a line cannot take its stock, the holds taken are given back and the order is dropped. If the
 * process dies in between, the stock sweep (stock-sweep.server.ts) finishes the order when every
 * line holds its stock, or gives back what was taken, once STOCK_RESERVE_DEADLINE_SECONDS passed.
 */
export async function placeOrder({
  lines,
  phone,
  address,
  poNumber,
  user,
  reorderedFrom,
  orderId,
  fromCart = false,
}: PlaceOrderInput): Promise<PlaceOrderResult> {
  if (lines.length < 1 || lines.length > MAX_ORDER_LINES) {
    throw new Error(`An order has 1 to ${MAX_ORDER_LINES} lines`);
  }
  const merged = mergeLines(lines);
  const parts = await getPartsByIds(merged.map((line) => line.partId));
  const failures = merged.flatMap((line) => {
    const problem = lineProblem(parts.get(line.partId), line.quantity);
    return problem ? [failureOf(line, parts.get(line.partId), problem)] : [];
  });
  const id = orderId ?? new mongoose.Types.ObjectId().toString();
  const dropClaim = () => (fromCart ? dropCheckoutClaim(user.id, id) : Promise.resolve());
  if (failures.length) {
    await dropClaim();
    return { ok: false, failures };
  }

  const orderLines = merged.map((line) => {
    const part = parts.get(line.partId)!;
    return {
      partId: part.id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: part.priceCents,
      quantity: line.quantity,
      lineTotalCents: part.priceCents * line.quantity,
    };
  });
  const totalCents = orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const caps = await unpaidCapsOf(user.id);
  const over = capRefusal(caps, await openCardOrdersOf(user.id), totalCents);
  if (over) {
    await dropClaim();
    return { ok: false, failures: [], refusal: over };
  }
  const { reserveMs } = stockSettings();
  await Order.create({
    _id: id,
    lines: orderLines,
    totalCents,
    phone,
    address,
    ...(poNumber ? { poNumber } : {}),
    ...(reorderedFrom ? { reorderedFrom } : {}),
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    status: "reserving",
    reserveBy: new Date(Date.now() + reserveMs),
  });
  // Counted again with this order written: of two checkouts racing past the first look, one sees the other.
  const overNow = capRefusal(caps, await openCardOrdersOf(user.id, { except: id }), totalCents);
  if (overNow) {
    await abandonOrder(id, []);
    await dropClaim();
    return { ok: false, failures: [], refusal: overNow };
  }

  const held = await Promise.all(merged.map((line) => holdStock(line.partId, id, line.quantity)));
  if (held.some((part) => part === null)) {
    await abandonOrder(id, merged);
    await dropClaim();
    const missed = merged.filter((_, i) => !held[i]);
    const now = await getPartsByIds(missed.map((line) => line.partId));
    return {
      ok: false,
      failures: missed.map((line) => {
        const part = now.get(line.partId);
        // Between the check and the reservation another order took the stock (or an admin changed the part).
        const problem = lineProblem(part, line.quantity) ?? {
          reason: "above-stock" as const,
          message: "Other orders took this stock just now; please try again",
        };
        return failureOf(line, part ?? parts.get(line.partId), problem);
      }),
    };
  }
  const belowMinimum = held.filter(
    (part): part is PartView => part !== null && part.availableQuantity < part.minOrderQuantity,
  );
  // A cart's claim dropped by the sweep (this step outlived the deadline) means the cart was let go: not ordered.
  const claimLost = fromCart && !(await cartClaimedFor(user.id, id));
  const order = claimLost
    ? null
    : await confirmOrder(
        id,
        belowMinimum.map((part) => part.id),
      );
  if (!order) {
    // Only past the deadline: the sweep judged this order abandoned and gave its stock back.
    await abandonOrder(id, merged);
    await dropClaim();
    return {
      ok: false,
      failures: [],
      refusal: "Placing your order took too long; nothing was ordered, please try again",
    };
  }
  if (fromCart) await emptyCheckedOutCart(user.id, id);
  // Written right after the order; never throws (an order never fails because mail failed).
  if (await mailOrderPlaced(order, belowMinimum)) await mailWritten(order.id, "placed");
  return { ok: true, order };
}

/**
 * Every line of a reserving order holds its stock: it becomes unpaid, holding the stock until
 * ORDER_HOLD_HOURS from now. Null when it is not reserving (any more). A confirmation the placing
 * step or the sweep already made returns the order as it is.
 */
export async function confirmOrder(orderId: string, lowStockPartIds: string[] = []) {
  const { holdMs } = stockSettings();
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, status: "reserving" },
    {
      $set: {
        status: "unpaid",
        holdUntil: new Date(Date.now() + holdMs),
        mailPending: ["placed"],
        ...(lowStockPartIds.length ? { lowStockPartIds } : {}),
      },
      $unset: { reserveBy: "" },
    },
    { returnDocument: "after" },
  ).lean();
  if (doc) return toOrderView(doc);
  const now = await Order.findById(orderId).lean();
  return now && now.status !== "reserving" && now.status !== "failed" ? toOrderView(now) : null;
}

/**
 * An order that never was (a line without stock, a cap, or left by a crash): it is marked failed
 * so that nothing can confirm it any more, the stock its lines hold goes back (each hold once),
 * and then it is deleted. Every step can be run again: the sweep does, for one a crash left.
 */
export async function abandonOrder(orderId: string, lines: { partId: string; quantity: number }[]) {
  const marked = await Order.findOneAndUpdate(
    { _id: orderId, status: { $in: ["reserving", "failed"] } },
    { $set: { status: "failed" } },
    { projection: { _id: 1 } },
  ).lean();
  // Confirmed meanwhile (by the sweep, or the placing step): it keeps its stock.
  if (!marked && (await Order.exists({ _id: orderId }))) return false;
  // A gone order holds nothing: a hold its late placing step took after the sweep dropped it goes back too.
  await releaseHolds(orderId, lines);
  await Order.deleteOne({ _id: orderId, status: "failed" });
  return true;
}

const ENDED_AT = { cancelled: "cancelledAt", removed: "removedAt", expired: "expiredAt" } as const;

/**
 * Ends an unpaid order (cancelled by its customer, removed by an admin, or expired) and gives
 * every line's stock back. The status changes in one conditional update that also notes the
 * stock as pending, so of two endings racing only one applies; the release itself pulls each
 * hold once (releaseHolds), and what a crash leaves pending the stock sweep settles.
 */
export async function endUnpaidOrder(filter: Record<string, unknown>, status: (typeof ENDED_UNPAID_STATUSES)[number]) {
  const doc = await Order.findOneAndUpdate(
    { ...filter, status: "unpaid" },
    {
      $set: { status, [ENDED_AT[status]]: new Date(), stockPending: "release" },
      $addToSet: { mailPending: status },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  await settleOrderStock(view.id, view.lines, "release");
  if (status !== "expired" && (await mailOrderEnded(view, status === "cancelled" ? "customer" : "shop"))) {
    await mailWritten(view.id, status);
  }
  return view;
}

/** Gives back (or ships) the order's holds, then notes that nothing is pending. Safe to run again. */
export async function settleOrderStock(
  orderId: string,
  lines: { partId: string; quantity: number }[],
  pending: "release" | "ship",
) {
  await releaseHolds(orderId, lines, { ship: pending === "ship" });
  await Order.updateOne({ _id: orderId, stockPending: pending }, { $unset: { stockPending: "" } });
}

/** The customer's own unpaid order becomes cancelled; null if it is not theirs or not unpaid. */
export function cancelOrder(orderId: string, userId: string) {
  if (!isObjectId(orderId) || !isObjectId(userId)) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId, userId }, "cancelled");
}

/** An admin removes an unpaid order; null if it is not unpaid (any more). */
export function removeOrder(orderId: string) {
  if (!isObjectId(orderId)) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId }, "removed");
}

/** A paid order becomes shipped: its held units leave the shop (onHand goes down); null if it is not paid (any more). */
export async function markShipped(orderId: string) {
  if (!isObjectId(orderId)) return null;
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, status: "paid" },
    {
      $set: { status: "shipped", shippedAt: new Date(), stockPending: "ship" },
      $addToSet: { mailPending: "shipped" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  await settleOrderStock(view.id, view.lines, "ship");
  if (await mailOrderShipped(view)) await mailWritten(view.id, "shipped");
  return view;
}

// --- Mail of the order's events ---------------------------------------------------------------------

/**
 * The event's mail is written to the outbox (or not due, e.g. the customer turned order updates
 * off): nothing is left for the sweep. Never throws: if this fails, the sweep finds the event
 * pending and finds its mail already in the outbox.
 */
export async function mailWritten(orderId: string, event: OrderMailEvent) {
  try {
    await Order.updateOne({ _id: orderId }, { $pull: { mailPending: event } });
  } catch (error) {
    console.error(`Could not mark the ${event} mail of order ${orderId} as written:`, error);
  }
}

export type PendingOrderMail = { order: OrderView; events: OrderMailEvent[]; lowStockPartIds: string[] };

/** Orders with an event whose mail is still not written `graceMs` after their last change, oldest first. */
export async function listPendingOrderMail({ graceMs, limit }: { graceMs: number; limit: number }) {
  const docs = await Order.find({
    mailPending: { $in: ORDER_MAIL_EVENTS },
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc): PendingOrderMail => ({
    order: toOrderView(doc),
    events: (doc.mailPending ?? []).filter((event): event is OrderMailEvent =>
      (ORDER_MAIL_EVENTS as readonly string[]).includes(event),
    ),
    lowStockPartIds: (doc.lowStockPartIds ?? []).map((id) => id.toString()),
  }));
}

export type OrderPage = { orders: OrderView[]; page: number; pageCount: number; total: number };

async function pageOf(filter: Record<string, unknown>, page: number, perPage: number): Promise<OrderPage> {
  const total = await Order.countDocuments(filter);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), pageCount);
  const docs = await Order.find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  return { orders: docs.map(toOrderView), page: current, pageCount, total };
}

/** An order being placed (or failing to be) is no one's order yet: no list shows it. */
const PLACED = { $nin: ["reserving", "failed"] };

/** One customer's orders, newest first. */
export function listOrdersOfUser(userId: string, { page = 1, perPage = 20 } = {}) {
  return pageOf({ userId, status: PLACED }, page, perPage);
}

export type AdminOrderFilter = {
  status?: OrderStatus | null;
  /** An exact order number. */
  orderId?: string | null;
  /** The start of the customer's email, lower case. */
  emailPrefix?: string | null;
  /** Placed at or after `from` and before `to`. */
  from?: Date | null;
  to?: Date | null;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Manage Orders' (and its CSV export's) query: every filter given, as one MongoDB filter. */
export function adminOrderQuery({ status, orderId, emailPrefix, from, to }: AdminOrderFilter = {}) {
  const query: Record<string, unknown> = {};
  query.status = status ?? PLACED;
  if (orderId) query._id = isObjectId(orderId) ? new mongoose.Types.ObjectId(orderId) : null;
  // An anchored, case-sensitive prefix of a lower-case field: a range on the userEmail index.
  if (emailPrefix) query.userEmail = { $regex: `^${escapeRegExp(emailPrefix.toLowerCase())}` };
  if (from || to) query.createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) };
  return query;
}

/** All orders for the admin, newest first, filtered by status, order number, email and dates. */
export function listAllOrders({
  page = 1,
  perPage = 20,
  ...filter
}: AdminOrderFilter & { page?: number; perPage?: number } = {}) {
  return pageOf(adminOrderQuery(filter), page, perPage);
}

/** Every order the filter matches, newest first, one at a time (the CSV export: no page limit). */
export async function* eachOrder(filter: AdminOrderFilter = {}): AsyncGenerator<OrderView> {
  const cursor = Order.find(adminOrderQuery(filter)).sort({ createdAt: -1, _id: -1 }).lean().cursor({ batchSize: 500 });
  for await (const doc of cursor) yield toOrderView(doc as OrderDoc);
}

/** True when the user has an order that was paid (paid or already shipped). */
export async function hasPaidOrder(userId: string) {
  if (!isObjectId(userId)) return false;
  return Boolean(await Order.exists({ userId, status: { $in: ["paid", "shipped"] } }));
}
