import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { mailOrderEnded, mailOrderPlaced, mailOrderShipped } from "~/utils/order-mail.server";
import { lineProblem, MAX_ORDER_LINES, orderSummary, type LineProblem } from "~/utils/order-lines";
import { getPartsByIds, isObjectId, releaseStockOfLines, reserveStock, type PartView } from "./part.server";

/**
 * unpaid -> paid -> shipped; an unpaid order can also end as cancelled (by its customer) or
 * removed (by an admin), which gives its stock back.
 */
export const ORDER_STATUSES = ["unpaid", "paid", "shipped", "cancelled", "removed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The changes that mail someone: placing an order, and each later status. */
export const ORDER_MAIL_EVENTS = ["placed", "paid", "shipped", "cancelled", "removed"] as const;
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
};

/** A line that could not be ordered: which one (its place in the request) and why. */
export type LineFailure = LineProblem & {
  index: number;
  partId: string;
  partNumber: string | null;
  productName: string | null;
};

export type PlaceOrderResult = { ok: true; order: OrderView } | { ok: false; failures: LineFailure[] };

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

/**
 * Places an order of one or more lines, all or nothing. Every line is checked against the part as
 * it is now (a line that fails the check stops the order before anything is written); then each
 * line's stock is reserved with one conditional atomic update (never below zero, never below the
 * part's minimum). If any reservation fails, the ones that succeeded are released again, and the
 * failures say which lines and why. The order keeps a snapshot of each part's number, name and
 * unit price as reserved; every total is computed here. No multi-document transaction: the local
 * database has none, and the compensation gives the same result on any MongoDB.
 */
export async function placeOrder({
  lines,
  phone,
  address,
  poNumber,
  user,
  reorderedFrom,
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
  if (failures.length) return { ok: false, failures };

  const reserved = await Promise.all(merged.map((line) => reserveStock(line.partId, line.quantity)));
  const taken = merged.filter((_, i) => reserved[i]);
  if (taken.length < merged.length) {
    await releaseStockOfLines(taken);
    const missed = merged.filter((_, i) => !reserved[i]);
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

  const orderLines = merged.map((line, i) => {
    const part = reserved[i]!;
    return {
      partId: part.id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: part.priceCents,
      quantity: line.quantity,
      lineTotalCents: part.priceCents * line.quantity,
    };
  });
  const belowMinimum = reserved.filter(
    (part): part is PartView => part !== null && part.availableQuantity < part.minOrderQuantity,
  );
  try {
    const doc = await Order.create({
      lines: orderLines,
      totalCents: orderLines.reduce((sum, line) => sum + line.lineTotalCents, 0),
      phone,
      address,
      ...(poNumber ? { poNumber } : {}),
      ...(reorderedFrom ? { reorderedFrom } : {}),
      userId: user.id,
      userEmail: user.email,
      userName: user.name,
      status: "unpaid",
      mailPending: ["placed"],
      ...(belowMinimum.length ? { lowStockPartIds: belowMinimum.map((part) => part.id) } : {}),
    });
    const order = toOrderView(doc.toObject());
    // Written right after the order; never throws (an order never fails because mail failed).
    if (await mailOrderPlaced(order, belowMinimum)) await mailWritten(order.id, "placed");
    return { ok: true, order };
  } catch (error) {
    await releaseStockOfLines(merged);
    throw error;
  }
}

/** Ends an unpaid order (cancelled by its customer, or removed by an admin) and gives every line's stock back. */
async function endUnpaidOrder(filter: Record<string, unknown>, status: "cancelled" | "removed") {
  const at = status === "cancelled" ? "cancelledAt" : "removedAt";
  const doc = await Order.findOneAndUpdate(
    { ...filter, status: "unpaid" },
    { $set: { status, [at]: new Date() }, $addToSet: { mailPending: status } },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  await releaseStockOfLines(view.lines);
  if (await mailOrderEnded(view, status === "cancelled" ? "customer" : "shop")) await mailWritten(view.id, status);
  return view;
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

/** A paid order becomes shipped (stock stays out); null if it is not paid (any more). */
export async function markShipped(orderId: string) {
  if (!isObjectId(orderId)) return null;
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, status: "paid" },
    { $set: { status: "shipped", shippedAt: new Date() }, $addToSet: { mailPending: "shipped" } },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
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

/** One customer's orders, newest first. */
export function listOrdersOfUser(userId: string, { page = 1, perPage = 20 } = {}) {
  return pageOf({ userId }, page, perPage);
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
  if (status) query.status = status;
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
