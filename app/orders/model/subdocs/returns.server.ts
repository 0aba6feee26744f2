/** An order's returns (RMAs) as stored, and as the screens read them. */
import { Schema, type Types } from "mongoose";
import {
  formatRmaNumber,
  MAX_DECLINE_REASON,
  MAX_RETURN_NOTE,
  RETURN_CONDITIONS,
  RETURN_REASONS,
  RETURN_STATUSES,
  type ReturnCondition,
  type ReturnReason,
  type ReturnStatus,
  type ReturnView,
} from "~/domain/returns";
import type { OrderDoc } from "../schema.server";
import type { OrderLineView } from "../view.server";
import { iso } from "./iso.server";

/**
 * A return the customer asked for (RMA): the units of each line, why, and what became of it. Every
 * change is one update of the order conditional on the return's status as read (returns.server.ts);
 * `stockPending` is set while units received back to stock are still to reach the part.
 */
export const returnSchema = new Schema({
  status: { type: String, enum: RETURN_STATUSES, required: true },
  /** Given when approved: RMA-100042 (returns' own counter). */
  number: { type: Number },
  reason: { type: String, enum: RETURN_REASONS, required: true },
  note: { type: String, trim: true, maxlength: MAX_RETURN_NOTE, default: "" },
  lines: {
    type: [
      new Schema(
        {
          lineIndex: { type: Number, required: true, min: 0 },
          partId: { type: Schema.Types.ObjectId, required: true },
          quantity: { type: Number, required: true, min: 1 },
          /** Units that came back (set when received; at most `quantity`). */
          receivedQuantity: { type: Number, min: 0 },
          /** What they were found in, set when received (a return received before this has `condition` only). */
          condition: { type: String, enum: RETURN_CONDITIONS },
        },
        { _id: false },
      ),
    ],
    required: true,
  },
  requestedAt: { type: Date, required: true },
  requestedBy: { type: Schema.Types.ObjectId, required: true },
  requestedByName: { type: String, maxlength: 200 },
  decidedAt: { type: Date },
  decidedBy: { type: String, maxlength: 200 },
  declineReason: { type: String, trim: true, maxlength: MAX_DECLINE_REASON },
  receivedAt: { type: Date },
  receivedBy: { type: String, maxlength: 200 },
  /** The one condition of a return received before each line had its own: it applies to every line. */
  condition: { type: String, enum: RETURN_CONDITIONS },
  stockPending: { type: Boolean },
  /** Set when received, in the same update, until the return's credit note is issued (credit-notes.server.ts). */
  creditPending: { type: Boolean },
});

type ReturnDoc = {
  _id: Types.ObjectId;
  status: string;
  number?: number | null;
  reason: string;
  note?: string | null;
  lines: { lineIndex: number; quantity: number; receivedQuantity?: number | null; condition?: string | null }[];
  requestedAt: Date;
  requestedBy: Types.ObjectId;
  requestedByName?: string | null;
  decidedAt?: Date | null;
  decidedBy?: string | null;
  declineReason?: string | null;
  receivedAt?: Date | null;
  receivedBy?: string | null;
  condition?: string | null;
};

/**
 * The condition of a return's line as stored: its own, or (received before lines had one) the
 * return's, which applied to every line. Null until received. Stock, the stock check and the views read it.
 */
export function lineCondition(
  entry: { status: string; condition?: string | null },
  line: { condition?: string | null },
): ReturnCondition | null {
  if (entry.status !== "received") return null;
  return ((line.condition ?? entry.condition) as ReturnCondition | null | undefined) ?? null;
}

export function toReturnViews(doc: Partial<OrderDoc>, lines: OrderLineView[]): ReturnView[] {
  return ((doc.returns ?? []) as unknown as ReturnDoc[]).map((entry) => {
    const conditions = entry.lines.map((line) => lineCondition(entry, line));
    return {
      id: entry._id.toString(),
      number: entry.number ? formatRmaNumber(entry.number) : null,
      status: entry.status as ReturnStatus,
      reason: entry.reason as ReturnReason,
      note: entry.note ?? "",
      lines: entry.lines.map((line, index) => ({
        lineIndex: line.lineIndex,
        partNumber: lines[line.lineIndex]?.partNumber ?? "",
        productName: lines[line.lineIndex]?.productName ?? "",
        quantity: line.quantity,
        receivedQuantity: line.receivedQuantity ?? null,
        condition: conditions[index],
      })),
      requestedAt: entry.requestedAt.toISOString(),
      requestedBy: entry.requestedBy.toString(),
      requestedByName: entry.requestedByName ?? "",
      decidedAt: iso(entry.decidedAt),
      decidedBy: entry.decidedBy ?? null,
      declineReason: entry.declineReason ?? null,
      receivedAt: iso(entry.receivedAt),
      receivedBy: entry.receivedBy ?? null,
      condition: conditions.every((each) => each === conditions[0]) ? (conditions[0] ?? null) : null,
    };
  });
}
