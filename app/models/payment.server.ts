import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

/** The payment record of the spec: myOrder, transactionId, for, status. */
const paymentSchema = new Schema(
  {
    myOrder: { type: Schema.Types.ObjectId, required: true },
    transactionId: { type: String, required: true },
    /** Who paid: the customer's email. */
    for: { type: String, required: true },
    status: { type: String, enum: ["paid"], required: true, default: "paid" },
    amountCents: { type: Number, required: true },
    currency: { type: String, required: true, default: "usd" },
  },
  { timestamps: true },
);

paymentSchema.index({ transactionId: 1 }, { unique: true });
paymentSchema.index({ myOrder: 1 }, { unique: true });

export type PaymentDoc = InferSchemaType<typeof paymentSchema> & { _id: Types.ObjectId };

export const Payment: mongoose.Model<PaymentDoc> =
  (mongoose.models.Payment as mongoose.Model<PaymentDoc>) ??
  mongoose.model<PaymentDoc>("Payment", paymentSchema);

/** Stripe event ids already applied: each event changes the shop at most once. */
const stripeEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
  },
  { timestamps: true },
);

export const StripeEvent =
  (mongoose.models.StripeEvent as mongoose.Model<{ _id: string; type: string }>) ??
  mongoose.model("StripeEvent", stripeEventSchema);
