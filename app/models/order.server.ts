import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

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

orderSchema.index({ userId: 1, createdAt: -1 });
orderSchema.index({ createdAt: -1, _id: -1 });
orderSchema.index({ status: 1, createdAt: -1 });

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
