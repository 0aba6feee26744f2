import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { HOME_CURRENCY, isCurrency } from "~/domain/money";
import { logFailure } from "../../../server/request-context";
import { assignInvoiceNumber } from "./invoice.server";
import { Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { isDuplicateKeyError } from "~/models/user.server";

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
  (mongoose.models.Payment as mongoose.Model<PaymentDoc>) ?? mongoose.model<PaymentDoc>("Payment", paymentSchema);

/** Stripe event ids already applied: each event changes the shop at most once. */
const stripeEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    /** Set once the event was applied: until then a repeated delivery applies it again (applying is idempotent). */
    appliedAt: { type: Date },
  },
  { timestamps: true },
);

export const StripeEvent =
  (mongoose.models.StripeEvent as mongoose.Model<{ _id: string; type: string; appliedAt?: Date | null }>) ??
  mongoose.model("StripeEvent", stripeEventSchema);

// --- Marking orders paid --------------------------------------------------------------------------

/** What Stripe confirmed: a payment of `amountCents` in `currency` for `orderId`, under `transactionId`. */
export type PaymentEvidence = {
  orderId: string;
  /** The PaymentIntent id. */
  transactionId: string;
  amountCents: number;
  currency: string;
};

/**
 * - paid: this call marked the order paid.
 * - already_paid: the order was paid by this same transaction before (a repeat, changes nothing).
 * - paid_by_other: the order was already paid by another transaction.
 * - mismatch: the amount or currency is not the order's; the order stays unpaid.
 * - not_payable: the order was cancelled or removed.
 * - not_found: no such order.
 */
export type MarkPaidOutcome = "paid" | "already_paid" | "paid_by_other" | "mismatch" | "not_payable" | "not_found";

/**
 * The outcome, and the order whose "paid" event is noted and not yet handed to its subscribers
 * (mail, webhooks): the service that called raises it (orders/events.server.ts).
 */
export type MarkPaidResult = { outcome: MarkPaidOutcome; paidEvent: OrderView | null };

/** Stores the payment record once per order; a repeat (or a race between two confirmations) is a no-op. */
async function recordPayment(
  order: { _id: Types.ObjectId; userEmail: string },
  { transactionId, amountCents, currency }: PaymentEvidence,
) {
  try {
    await Payment.updateOne(
      { myOrder: order._id },
      {
        $setOnInsert: {
          myOrder: order._id,
          transactionId,
          for: order.userEmail,
          status: "paid",
          amountCents,
          currency,
        },
      },
      { upsert: true },
    );
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

/**
 * Marks an order paid on evidence from Stripe. The order changes in ONE conditional update that
 * matches only an unpaid order of exactly this amount, so a payment of the wrong amount, a second
 * payment, or a payment for a cancelled order never changes it. Idempotent: the webhook and the
 * customer's return from Stripe may both confirm the same payment.
 */
export async function markOrderPaid(evidence: PaymentEvidence): Promise<MarkPaidResult> {
  const outcome = (value: MarkPaidOutcome, paidEvent: OrderView | null = null) => ({ outcome: value, paidEvent });
  const { orderId, transactionId, amountCents, currency } = evidence;
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return outcome("not_found");
  const paidIn = currency.toUpperCase();
  if (!isCurrency(paidIn) || !Number.isSafeInteger(amountCents)) {
    return outcome((await Order.exists({ _id: orderId })) ? "mismatch" : "not_found");
  }
  const updated = await Order.findOneAndUpdate(
    // Only an order with no money recorded against it (a part-paid one is settled by staff), for
    // exactly what it asks of the card: its total, or what is left once account credit came off it.
    {
      _id: orderId,
      status: "unpaid",
      // In the order's currency (orders kept before currencies were data are in dollars).
      currency: paidIn === HOME_CURRENCY ? { $in: [paidIn, null] } : paidIn,
      paidCents: { $in: [0, null] },
      $or: [{ totalCents: amountCents, chargeCents: null }, { chargeCents: amountCents }],
    },
    {
      $set: { status: "paid", transactionId, paidAt: new Date(), paidCents: amountCents, invoicePending: true },
      $addToSet: { eventsPending: "paid" },
    },
    { returnDocument: "after" },
  ).lean();
  if (updated) {
    await recordPayment(updated, evidence);
    // The invoice number, on the same path that made the order paid (only the winner gets here).
    // A failure never undoes the payment: Stripe's next confirmation of it numbers the order.
    await numberInvoice(orderId);
    // With its number (the paid event's mail and the ledger read it).
    const numbered = await Order.findById(orderId).lean();
    return outcome("paid", toOrderView(numbered ?? updated));
  }
  const order = await Order.findById(orderId).lean();
  if (!order) return outcome("not_found");
  if (order.status === "paid" || order.status === "shipped") {
    if (order.transactionId !== transactionId) return outcome("paid_by_other");
    await recordPayment(order, evidence);
    // Paid by an earlier call that did not number it (a crash, a failure): its number is a late one,
    // dated no earlier than the numbers given since (invoice.server.ts, lateIssueDate).
    if (!order.invoiceNumber) await numberInvoice(orderId, { late: true });
    // A repeat (the webhook and the return page, or a retry after a crash): an event still pending
    // is raised again (the outbox keys make that write nothing if the first one wrote it after all).
    const pending = order.eventsPending?.includes("paid");
    return outcome("already_paid", pending ? toOrderView(order) : null);
  }
  if (order.status === "unpaid") return outcome("mismatch");
  return outcome("not_payable");
}

async function numberInvoice(orderId: string, options?: { late: boolean }) {
  try {
    await assignInvoiceNumber(orderId, options);
  } catch (error) {
    logFailure(`Invoice number not assigned to order ${orderId}`, error);
  }
}

export type PaymentView = {
  orderId: string;
  transactionId: string;
  for: string;
  status: "paid";
  amountCents: number;
  currency: string;
  createdAt: string;
};

export async function getPaymentForOrder(orderId: string): Promise<PaymentView | null> {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const doc = await Payment.findOne({ myOrder: orderId }).lean();
  if (!doc) return null;
  return {
    orderId: doc.myOrder.toString(),
    transactionId: doc.transactionId,
    for: doc.for,
    status: "paid",
    amountCents: doc.amountCents,
    currency: doc.currency,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
  };
}

/**
 * Claims a Stripe event id. True the first time; false when the event was already applied (its id
 * is the unique _id, so two deliveries racing each other cannot both claim it).
 */
export async function claimStripeEvent(id: string, type: string) {
  try {
    await StripeEvent.create({ _id: id, type });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // Seen before: a repeat of an event applied is nothing to do; one whose handler died (a crash
    // between the claim and the change) is applied by this delivery, as applying is idempotent.
    const seen = await StripeEvent.findById(id, { appliedAt: 1 }).lean();
    return !seen?.appliedAt;
  }
}

/** The event is applied: a repeated delivery changes nothing from now on. */
export async function markStripeEventApplied(id: string) {
  await StripeEvent.updateOne({ _id: id }, { $set: { appliedAt: new Date() } });
}

/** Gives an event id back when applying it failed, so that Stripe's retry is applied. */
export async function releaseStripeEvent(id: string) {
  await StripeEvent.deleteOne({ _id: id });
}
