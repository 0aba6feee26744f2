import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { isObjectId, releaseStock, reserveStock } from "./part.server";

/**
 * unpaid -> paid -> shipped; an unpaid order can also end as cancelled (by its customer) or
 * removed (by an admin), which gives its stock back.
 */
export const ORDER_STATUSES = ["unpaid", "paid", "shipped", "cancelled", "removed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const orderSchema = new Schema(
  {
    /** The part ordered (the spec's orderId). The name and unit price are a snapshot. */
    partId: { type: Schema.Types.ObjectId, required: true },
    productName: { type: String, required: true, maxlength: 120 },
    unitPriceCents: { type: Number, required: true, min: 1 },
    /** unit price x quantity, computed on the server. */
    priceCents: { type: Number, required: true, min: 1 },
    orderQuantity: { type: Number, required: true, min: 1 },
    phone: { type: String, required: true, maxlength: 40 },
    address: { type: String, required: true, maxlength: 300 },
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The customer's email (the spec's user) and display name. */
    userEmail: { type: String, required: true },
    userName: { type: String, required: true },
    status: { type: String, enum: ORDER_STATUSES, required: true, default: "unpaid" },
    /** Stripe PaymentIntent id, once paid. */
    transactionId: { type: String },
    paidAt: { type: Date },
    shippedAt: { type: Date },
    cancelledAt: { type: Date },
    removedAt: { type: Date },
  },
  { timestamps: true },
);

// Each list's filter, then its whole sort (_id included), so the index returns the rows in order
// and no page sorts in memory: My Orders, Manage Orders, Manage Orders by status.
orderSchema.index({ userId: 1, createdAt: -1, _id: -1 });
orderSchema.index({ createdAt: -1, _id: -1 });
orderSchema.index({ status: 1, createdAt: -1, _id: -1 });

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };

export const Order: mongoose.Model<OrderDoc> =
  (mongoose.models.Order as mongoose.Model<OrderDoc>) ??
  mongoose.model<OrderDoc>("Order", orderSchema);

export type OrderView = {
  id: string;
  partId: string;
  productName: string;
  unitPriceCents: number;
  priceCents: number;
  orderQuantity: number;
  phone: string;
  address: string;
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
};

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function toOrderView(doc: Partial<OrderDoc> & { _id: Types.ObjectId }): OrderView {
  const status = (doc.status as OrderStatus) ?? "unpaid";
  return {
    id: doc._id.toString(),
    partId: doc.partId?.toString() ?? "",
    productName: doc.productName ?? "",
    unitPriceCents: doc.unitPriceCents ?? 0,
    priceCents: doc.priceCents ?? 0,
    orderQuantity: doc.orderQuantity ?? 0,
    phone: doc.phone ?? "",
    address: doc.address ?? "",
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
  };
}

/** One customer's order; another customer's id (or a malformed one) gives null. */
export async function getOwnOrder(orderId: string, userId: string) {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const doc = await Order.findOne({ _id: orderId, userId }).lean();
  return doc ? toOrderView(doc) : null;
}

export async function getOrderById(orderId: string) {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const doc = await Order.findById(orderId).lean();
  return doc ? toOrderView(doc) : null;
}

// --- Ordering and the order life cycle ----------------------------------------------------------
// Every change of status is one conditional update on the current status, so a double submit or a
// race between two admins can never apply a change twice (nor give stock back twice).

export type PlaceOrderInput = {
  partId: string;
  quantity: number;
  phone: string;
  address: string;
  user: { id: string; email: string; name: string };
};

/**
 * Reserves the stock in one conditional atomic update, then records the order with a snapshot of
 * the part's name and unit price; the price is unit price x quantity, computed here. If the order
 * cannot be stored, the stock goes back. Returns null when there is not enough stock left.
 */
export async function placeOrder({ partId, quantity, phone, address, user }: PlaceOrderInput) {
  const part = await reserveStock(partId, quantity);
  if (!part) return null;
  try {
    const doc = await Order.create({
      partId: part.id,
      productName: part.name,
      unitPriceCents: part.priceCents,
      priceCents: part.priceCents * quantity,
      orderQuantity: quantity,
      phone,
      address,
      userId: user.id,
      userEmail: user.email,
      userName: user.name,
      status: "unpaid",
    });
    return toOrderView(doc.toObject());
  } catch (error) {
    await releaseStock(part.id, quantity);
    throw error;
  }
}

/** Ends an unpaid order (cancelled by its customer, or removed by an admin) and gives the stock back. */
async function endUnpaidOrder(filter: Record<string, unknown>, status: "cancelled" | "removed") {
  const at = status === "cancelled" ? "cancelledAt" : "removedAt";
  const doc = await Order.findOneAndUpdate(
    { ...filter, status: "unpaid" },
    { $set: { status, [at]: new Date() } },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  await releaseStock(doc.partId.toString(), doc.orderQuantity);
  return toOrderView(doc);
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
    { $set: { status: "shipped", shippedAt: new Date() } },
    { returnDocument: "after" },
  ).lean();
  return doc ? toOrderView(doc) : null;
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

/** All orders for the admin, newest first, optionally of one status. */
export function listAllOrders({
  status,
  page = 1,
  perPage = 20,
}: { status?: OrderStatus | null; page?: number; perPage?: number } = {}) {
  return pageOf(status ? { status } : {}, page, perPage);
}

/** True when the user has an order that was paid (paid or already shipped). */
export async function hasPaidOrder(userId: string) {
  if (!isObjectId(userId)) return false;
  return Boolean(await Order.exists({ userId, status: { $in: ["paid", "shipped"] } }));
}
