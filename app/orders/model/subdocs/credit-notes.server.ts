/** An order's credit notes as stored (with their refund and payout), and as the screens read them. */
import { Schema, type Types } from "mongoose";
import {
  CREDIT_REASONS,
  formatCreditNoteNumber,
  REFUND_STATUSES,
  type CreditNoteView,
  type CreditReason,
  type RefundStatus,
} from "~/domain/credit-notes";
import type { ReturnView } from "~/domain/returns";
import type { TaxKind, TaxLine } from "~/domain/tax";
import type { OrderDoc } from "../schema.server";
import type { OrderLineView } from "../view.server";
import { iso } from "./iso.server";
import { noteUseSchema } from "./credit-uses.server";
import { taxLineSchema } from "./lines.server";

/**
 * A credit note (CN-000042, its own gap-free sequence): the units of each line credited at the price paid,
 * the tax on them in proportion, and where the money went (domain/credit-notes.ts). Written once, in one
 * update of the order conditional on the count of credit notes read; its refund's status follows Stripe.
 */
export const creditNoteSchema = new Schema({
  /** Given right after the note is written (numberCreditNote); the sweep numbers one a crash left without. */
  number: { type: Number },
  issuedAt: { type: Date, required: true },
  issuedBy: { type: String, maxlength: 200 },
  reason: { type: String, enum: CREDIT_REASONS, required: true },
  /** The return whose received units it credits (reason "return"). */
  returnId: { type: Schema.Types.ObjectId },
  lines: {
    type: [
      new Schema(
        {
          lineIndex: { type: Number, required: true, min: 0 },
          quantity: { type: Number, required: true, min: 1 },
          netCents: { type: Number, required: true, min: 0 },
        },
        { _id: false },
      ),
    ],
    required: true,
  },
  netCents: { type: Number, required: true, min: 0 },
  taxLines: { type: [taxLineSchema], default: undefined },
  taxCents: { type: Number, required: true, min: 0 },
  totalCents: { type: Number, required: true, min: 0 },
  refundCents: { type: Number, required: true, min: 0 },
  appliedCents: { type: Number, required: true, min: 0 },
  accountCreditCents: { type: Number, required: true, min: 0 },
  /** The Stripe refund of `refundCents`: its id once Stripe answered, its status, and when it succeeded or failed. */
  refund: {
    type: new Schema(
      {
        id: { type: String },
        status: { type: String, enum: REFUND_STATUSES, required: true },
        refundedAt: { type: Date },
        /** When Stripe reported it failed or cancelled (it is then owed by bank). */
        failedAt: { type: Date },
        failure: { type: String, maxlength: 300 },
      },
      { _id: false },
    ),
  },
  /** Its credit taken off other invoices (orders/credit-apply.server.ts): each use, and their sum. */
  uses: { type: [noteUseSchema], default: undefined },
  usedCents: { type: Number, min: 0 },
  /** The account credit paid out to the customer's bank, as staff recorded it (once). */
  payout: {
    type: new Schema(
      {
        paidAt: { type: Date, required: true },
        amountCents: { type: Number, min: 1 },
        reference: { type: String, trim: true, maxlength: 60, required: true },
        by: { type: String, maxlength: 200 },
      },
      { _id: false },
    ),
  },
});

type CreditNoteDoc = {
  _id: Types.ObjectId;
  number?: number | null;
  issuedAt: Date;
  issuedBy?: string | null;
  reason: string;
  returnId?: Types.ObjectId | null;
  lines: { lineIndex: number; quantity: number; netCents: number }[];
  netCents: number;
  taxLines?: Partial<TaxLine>[] | null;
  taxCents: number;
  totalCents: number;
  refundCents: number;
  appliedCents: number;
  accountCreditCents: number;
  refund?: { id?: string | null; status: string; refundedAt?: Date | null; failedAt?: Date | null } | null;
  payout?: { paidAt: Date; amountCents?: number | null; reference: string; by?: string | null } | null;
  uses?:
    { _id: Types.ObjectId; orderId: Types.ObjectId; amountCents: number; at: Date; pending?: boolean | null }[] | null;
  usedCents?: number | null;
};

export function toCreditNoteViews(
  doc: Partial<OrderDoc>,
  lines: OrderLineView[],
  returns: ReturnView[],
): CreditNoteView[] {
  return ((doc.creditNotes ?? []) as unknown as CreditNoteDoc[]).map((note) => {
    const returnId = note.returnId?.toString() ?? null;
    return {
      id: note._id.toString(),
      // A note being numbered (a moment, or until the sweep after a crash) reads "CN being numbered".
      number: note.number ? formatCreditNoteNumber(note.number) : "CN being numbered",
      issuedAt: note.issuedAt.toISOString(),
      issuedBy: note.issuedBy ?? null,
      reason: note.reason as CreditReason,
      returnId,
      returnNumber: returns.find((entry) => entry.id === returnId)?.number ?? null,
      lines: note.lines.map((line) => ({
        lineIndex: line.lineIndex,
        partNumber: lines[line.lineIndex]?.partNumber ?? "",
        productName: lines[line.lineIndex]?.productName ?? "",
        unitPriceCents: lines[line.lineIndex]?.unitPriceCents ?? 0,
        quantity: line.quantity,
        netCents: line.netCents,
      })),
      netCents: note.netCents,
      taxLines: (note.taxLines ?? []).map((line) => ({
        kind: (line.kind ?? "unknown") as TaxKind,
        label: line.label ?? "",
        rate: line.rate ?? 0,
        baseCents: line.baseCents ?? 0,
        amountCents: line.amountCents ?? 0,
        note: line.note ?? null,
      })),
      taxCents: note.taxCents,
      totalCents: note.totalCents,
      refundCents: note.refundCents,
      appliedCents: note.appliedCents,
      accountCreditCents: note.accountCreditCents,
      refund: note.refund
        ? {
            id: note.refund.id ?? null,
            status: note.refund.status as RefundStatus,
            refundedAt: iso(note.refund.refundedAt),
            failedAt: iso(note.refund.failedAt),
          }
        : null,
      usedCents: note.usedCents ?? 0,
      uses: (note.uses ?? []).map((use) => ({
        id: use._id.toString(),
        orderId: use.orderId.toString(),
        amountCents: use.amountCents,
        at: use.at.toISOString(),
      })),
      payout: note.payout
        ? {
            paidAt: note.payout.paidAt.toISOString(),
            amountCents: note.payout.amountCents ?? note.accountCreditCents,
            reference: note.payout.reference,
            by: note.payout.by ?? null,
          }
        : null,
    };
  });
}
