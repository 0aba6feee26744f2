/**
 * Credit notes on the order (CN-…, their own gap-free sequence) and the cancellation of a paid order
 * before it ships; the refunds they start are refunds.server.ts, the account credit they leave
 * account-credit.server.ts. A credit note is written in one update of the order conditional on the
 * number of credit notes read, so of two tabs crediting the same units one is written and the other
 * reads again and finds them credited. Its amounts follow domain/credit-notes.ts. What a crash leaves
 * between a change and its credit note (`creditPending`) the stock sweep issues.
 */
import mongoose from "mongoose";
import { creditAmounts, settleCredit, type CreditReason, type CreditNoteView } from "~/domain/credit-notes";
import { cardPaidCents as cardPaid } from "~/domain/ledger";
import { gapFreeSequence } from "~/models/gap-free-numbers.server";
import { formatQuantity } from "~/format";
import { isObjectId } from "~/models/part.server";
import { sameOrMissing } from "~/models/stock-holds.server";
import { Order, type OrderDoc } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { settleOrderStock } from "./holds.server";

/** Credit note numbers: 1, 2, 3… printed CN-000001, with no gap and no duplicate. */
export const creditNoteNumbers = gapFreeSequence("credit-note", "credit_note_numbers");

/**
 * Gives a credit note written without its number (just now, or before a crash) its number: claimed for
 * the note in the registry (again the same one after a crash), set where none is. Returns the order.
 */
export async function numberCreditNote(orderId: string, noteId: string): Promise<OrderView> {
  const number = await creditNoteNumbers.take(noteId);
  const doc = await Order.findById(orderId).lean();
  const index = (doc?.creditNotes ?? []).findIndex((note) => note._id.toString() === noteId);
  if (!doc || index < 0) throw new Error(`Credit note ${noteId} is not on order ${orderId}`);
  const at = `creditNotes.${index}`;
  const updated = await Order.findOneAndUpdate(
    { _id: orderId, [`${at}._id`]: new mongoose.Types.ObjectId(noteId), [`${at}.number`]: null },
    { $set: { [`${at}.number`]: number } },
    { returnDocument: "after" },
  ).lean();
  return toOrderView(updated ?? (await Order.findById(orderId).lean())!);
}

export type CreditSource = { reason: "return"; returnId: string } | { reason: "cancellation" };

export type IssueOutcome =
  | { outcome: "issued"; order: OrderView; note: CreditNoteView }
  | { outcome: "already"; order: OrderView; note: CreditNoteView }
  | { outcome: "nothing"; order: OrderView }
  | { outcome: "refused"; order: OrderView; message: string; lineIndex: number }
  | { outcome: "not_found" };

/** Card money the order can still give back: what the card paid, less refunds asked for (and not failed). */
function cardMoney(order: OrderView) {
  const cardPaidCents = cardPaid(order);
  const refundedCents = order.creditNotes
    .filter((note) => note.refund && note.refund.status !== "failed" && note.refund.status !== "canceled")
    .reduce((sum, note) => sum + note.refundCents, 0);
  return { cardPaidCents, refundedCents };
}

function unitsToCredit(doc: OrderDoc, order: OrderView, source: CreditSource) {
  if (source.reason === "cancellation") {
    const credited = order.lines.map(() => 0);
    for (const note of order.creditNotes) for (const line of note.lines) credited[line.lineIndex] += line.quantity;
    return order.lines.map((line, lineIndex) => ({ lineIndex, quantity: line.quantity - credited[lineIndex] }));
  }
  const entry = order.returns.find((candidate) => candidate.id === source.returnId);
  if (!entry || entry.status !== "received") return null;
  return entry.lines.map((line) => ({ lineIndex: line.lineIndex, quantity: line.receivedQuantity ?? 0 }));
}

const sameSource = (note: CreditNoteView, source: CreditSource) =>
  source.reason === "return" ? note.returnId === source.returnId : note.reason === "cancellation";

/** The note that clears what the source left pending, in the same update as the credit note. */
function pendingOf(doc: OrderDoc, source: CreditSource) {
  if (source.reason === "cancellation") return "creditPending";
  const index = (doc.returns ?? []).findIndex((entry) => entry._id.toString() === source.returnId);
  return index >= 0 ? `returns.${index}.creditPending` : null;
}

/**
 * Issues the credit note of `source` once: for a received return, its units that came back; for a paid
 * order cancelled, every unit not credited yet. Each line at the price paid, tax in proportion, never more
 * than was charged; the money goes to the card (a refund, pending until Stripe answers), off the open
 * invoice, or onto the company's account (settleCredit). A second call finds the note issued: "already".
 */
export async function issueCreditNote(orderId: string, source: CreditSource, issuedBy: string): Promise<IssueOutcome> {
  if (!isObjectId(orderId) || (source.reason === "return" && !isObjectId(source.returnId)))
    return { outcome: "not_found" };
  for (let attempt = 0; attempt < 10; attempt++) {
    const doc = await Order.findById(orderId).lean();
    if (!doc) return { outcome: "not_found" };
    const order = toOrderView(doc);
    const existing = order.creditNotes.find((note) => sameSource(note, source));
    if (existing) return { outcome: "already", order, note: existing };
    const units = unitsToCredit(doc, order, source);
    if (!units) return { outcome: "not_found" };
    const computed = creditAmounts(order, order.creditNotes, units);
    if (!computed.ok) {
      const line = order.lines[computed.lineIndex];
      return {
        outcome: "refused",
        order,
        lineIndex: computed.lineIndex,
        message: `At most ${formatQuantity(computed.left)} units of ${line?.productName ?? "that line"} are left to credit`,
      };
    }
    const pending = pendingOf(doc, source);
    const { amounts } = computed;
    if (!amounts.lines.length) {
      if (pending) await Order.updateOne({ _id: orderId }, { $unset: { [pending]: "" } });
      return { outcome: "nothing", order };
    }
    // What is still owed on the invoice (also of an order on account cancelled just now: its balance reads 0).
    const owed = doc.paidAt ? 0 : Math.max(0, order.totalCents - order.paidCents - order.creditedCents);
    const settlement = settleCredit(amounts.totalCents, { ...cardMoney(order), balanceCents: owed });
    const noteId = new mongoose.Types.ObjectId();
    // First the credit note (one per source: of two tabs one writes it), then its number.
    const updated = await Order.findOneAndUpdate(
      { _id: orderId, creditNoteCount: sameOrMissing(doc.creditNoteCount), status: doc.status },
      {
        $push: {
          creditNotes: {
            _id: noteId,
            issuedAt: new Date(),
            issuedBy,
            reason: source.reason satisfies CreditReason,
            ...(source.reason === "return" ? { returnId: new mongoose.Types.ObjectId(source.returnId) } : {}),
            lines: amounts.lines,
            netCents: amounts.netCents,
            taxLines: amounts.taxLines.map((line) => ({ ...line, baseCents: amounts.netCents })),
            taxCents: amounts.taxCents,
            totalCents: amounts.totalCents,
            ...settlement,
            ...(settlement.refundCents ? { refund: { status: "pending" } } : {}),
          },
        },
        $inc: { creditNoteCount: 1, creditedCents: amounts.totalCents },
        ...(pending ? { $unset: { [pending]: "" } } : {}),
        $addToSet: { eventsPending: "credit" },
      },
      { returnDocument: "after" },
    ).lean();
    // Another credit note (or a change of status) came first: read again.
    if (!updated) continue;
    const view = await numberCreditNote(orderId, noteId.toString());
    return { outcome: "issued", order: view, note: view.creditNotes.find((note) => note.id === noteId.toString())! };
  }
  throw new Error(`The credit note of order ${orderId} kept changing under us`);
}

export type CancelPaidOutcome =
  | { outcome: "cancelled"; order: OrderView }
  | { outcome: "already_cancelled" | "shipped" | "not_paid"; order: OrderView }
  | { outcome: "not_found" };

/**
 * Cancels a paid (or invoiced on account) order that has not shipped a parcel, with staff's reason: its stock goes back and its
 * full credit note is noted as pending in the same update (issued next by the service, or by the sweep).
 * Of two cancellations at once one applies; the other is told it was already cancelled.
 */
export async function cancelPaidOrder(orderId: string, reason?: string): Promise<CancelPaidOutcome> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  const doc = await Order.findOneAndUpdate(
    {
      _id: orderId,
      status: { $in: ["paid", "account"] },
      shipmentCount: { $in: [0, null] },
      "shipments.0": { $exists: false },
    },
    {
      $set: {
        status: "cancelled",
        cancelledAt: new Date(),
        stockPending: "release",
        creditPending: true,
        ...(reason ? { cancelReason: reason } : {}),
      },
      $unset: { backordered: "" },
      $addToSet: { eventsPending: "removed" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) {
    const current = await Order.findById(orderId).lean();
    if (!current) return { outcome: "not_found" };
    const order = toOrderView(current);
    if (order.status === "cancelled" || order.status === "removed") return { outcome: "already_cancelled", order };
    if (order.shipments.length) return { outcome: "shipped", order };
    return { outcome: "not_paid", order };
  }
  const order = toOrderView(doc);
  await settleOrderStock(order.id, order.lines, "release");
  return { outcome: "cancelled", order };
}

/** Orders whose credit note a crash left unissued for `graceMs`, and refunds never sent to Stripe. */
export async function listCreditsLeft({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  const docs = await Order.find({
    $or: [
      { creditPending: true },
      { "returns.creditPending": true },
      { creditNotes: { $elemMatch: { "refund.status": "pending", "refund.id": { $exists: false } } } },
      { creditNotes: { $elemMatch: { number: null } } },
    ],
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .limit(limit)
    .lean();
  return docs.map((doc) => ({
    order: toOrderView(doc),
    cancellation: Boolean(doc.creditPending),
    returnIds: (doc.returns ?? []).filter((entry) => entry.creditPending).map((entry) => entry._id.toString()),
    unnumbered: (doc.creditNotes ?? []).filter((note) => !note.number).map((note) => note._id.toString()),
  }));
}
