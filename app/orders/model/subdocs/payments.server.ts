/** Money staff recorded on an order (bank transfer, cheque, cash): how it is stored and read. */
import { Schema, type Types } from "mongoose";
import { PAYMENT_METHODS } from "~/domain/order-states";
import { iso } from "./iso.server";

/** Money received outside Stripe, as staff recorded it; a wrong entry is reversed, never deleted. */
export const recordedPaymentSchema = new Schema({
  amountCents: { type: Number, required: true, min: 1 },
  method: { type: String, enum: PAYMENT_METHODS, required: true },
  /** The day the money arrived (UTC midnight). */
  receivedOn: { type: Date, required: true },
  reference: { type: String, trim: true, maxlength: 60, default: "" },
  recordedBy: { type: String, required: true },
  recordedAt: { type: Date, required: true },
  reversedAt: { type: Date },
  reversedBy: { type: String },
  reversalReason: { type: String, maxlength: 200 },
});

export type RecordedPaymentView = {
  id: string;
  amountCents: number;
  method: (typeof PAYMENT_METHODS)[number];
  receivedOn: string;
  reference: string;
  recordedBy: string;
  recordedAt: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
};

export type PaymentDoc = {
  _id?: Types.ObjectId;
  amountCents: number;
  method: string;
  receivedOn: Date;
  reference?: string | null;
  recordedBy: string;
  recordedAt: Date;
  reversedAt?: Date | null;
  reversedBy?: string | null;
  reversalReason?: string | null;
};

export function toPaymentView(payment: PaymentDoc): RecordedPaymentView {
  return {
    id: payment._id?.toString() ?? "",
    amountCents: payment.amountCents,
    method: payment.method as RecordedPaymentView["method"],
    receivedOn: payment.receivedOn.toISOString(),
    reference: payment.reference ?? "",
    recordedBy: payment.recordedBy,
    recordedAt: payment.recordedAt.toISOString(),
    reversedAt: iso(payment.reversedAt),
    reversedBy: payment.reversedBy ?? null,
    reversalReason: payment.reversalReason ?? null,
  };
}
