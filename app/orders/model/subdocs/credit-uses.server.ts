/**
 * Account credit taken off an order: each use names the credit note it came from (on the same
 * account, often on another order) and the amount. The credit note keeps the same use (its id,
 * the order, the amount) and the sum it has given, so its credit is never given twice.
 */
import { Schema, type Types } from "mongoose";
import { iso } from "./iso.server";

/** On the order the credit came off: what, from which credit note, when and by whom. */
export const creditUseSchema = new Schema({
  noteId: { type: Schema.Types.ObjectId, required: true },
  /** The order that holds the credit note. */
  noteOrderId: { type: Schema.Types.ObjectId, required: true },
  noteNumber: { type: String, required: true, maxlength: 20 },
  amountCents: { type: Number, required: true, min: 1 },
  at: { type: Date, required: true },
  by: { type: String, maxlength: 200 },
});

/** On the credit note: where its credit went (the use's id is the order's use's id). */
export const noteUseSchema = new Schema({
  orderId: { type: Schema.Types.ObjectId, required: true },
  amountCents: { type: Number, required: true, min: 1 },
  at: { type: Date, required: true },
  /** Set with the claim, until the order has taken the credit (the credit sweep settles what a crash leaves). */
  pending: { type: Boolean },
});

export type CreditUseView = {
  id: string;
  noteId: string;
  noteOrderId: string;
  noteNumber: string;
  amountCents: number;
  at: string;
  by: string | null;
};

export type CreditUseDoc = {
  _id: Types.ObjectId;
  noteId: Types.ObjectId;
  noteOrderId: Types.ObjectId;
  noteNumber: string;
  amountCents: number;
  at: Date;
  by?: string | null;
};

export const toCreditUseView = (use: CreditUseDoc): CreditUseView => ({
  id: use._id.toString(),
  noteId: use.noteId.toString(),
  noteOrderId: use.noteOrderId.toString(),
  noteNumber: use.noteNumber,
  amountCents: use.amountCents,
  at: iso(use.at)!,
  by: use.by ?? null,
});
