/**
 * The credit on a customer's account: the part of each credit note neither refunded to a card nor
 * taken off its invoice, listed for the statement, and paid out to the customer's bank once.
 */
import mongoose from "mongoose";
import { creditHeldCents, settlementWords, type CreditNoteView, type RefundStatus } from "~/domain/credit-notes";
import { currencyOf, money, totalsByCurrency, type Money } from "~/domain/money";
import { isObjectId } from "~/models/part.server";
import { Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { type CustomerScope, scopeFilter } from "./reads.server";

/**
 * A customer's (company's) credit notes for the statement, newest first (the latest 50), and the credit
 * they put on its account: the part of each credit note not refunded to a card nor taken off its invoice.
 */
export async function accountCredits(scope: CustomerScope, limit = 50) {
  const owner = scopeFilter(scope);
  if (!owner) return { accountCreditCents: 0, accountCreditByCurrency: [] as Money[], notes: [] };
  const [docs, total] = await Promise.all([
    Order.find({ ...owner, "creditNotes.0": { $exists: true } })
      .sort({ updatedAt: -1 })
      .limit(limit)
      .lean(),
    Order.find(
      { ...owner, "creditNotes.0": { $exists: true } },
      {
        currency: 1,
        "creditNotes.accountCreditCents": 1,
        "creditNotes.refundCents": 1,
        "creditNotes.refund.status": 1,
        "creditNotes.payout": 1,
        "creditNotes.usedCents": 1,
      },
    ).lean<
      {
        currency?: string | null;
        creditNotes?: {
          accountCreditCents?: number;
          refundCents?: number;
          refund?: { status: RefundStatus } | null;
          payout?: unknown;
          usedCents?: number;
        }[];
      }[]
    >(),
  ]);
  // Credit paid out to the bank is no longer on the account.
  const heldOn = (doc: (typeof total)[number]) =>
    (doc.creditNotes ?? []).reduce(
      (cents, note) =>
        cents +
        creditHeldCents({
          accountCreditCents: note.accountCreditCents ?? 0,
          refundCents: note.refundCents ?? 0,
          refund: note.refund ?? null,
          usedCents: note.usedCents ?? 0,
          payout: note.payout,
        }),
      0,
    );
  // Each credit note's credit is in its order's currency: totalled per currency, never across them.
  const accountCreditByCurrency = totalsByCurrency(total.map((doc) => money(heldOn(doc), currencyOf(doc.currency))));
  const accountCreditCents = total.reduce((sum, doc) => sum + heldOn(doc), 0);
  const notes = docs
    .flatMap((doc) => {
      const order = toOrderView(doc);
      return order.creditNotes.map((note) => ({
        id: note.id,
        number: note.number,
        issuedAt: note.issuedAt,
        orderId: order.id,
        orderNumber: order.number,
        currency: order.currency,
        totalCents: note.totalCents,
        accountCreditCents: creditHeldCents(note),
        settled: settlementWords({ ...note, refundStatus: note.refund?.status ?? null }, order.currency),
      }));
    })
    .sort((a, b) => b.issuedAt.localeCompare(a.issuedAt))
    .slice(0, limit);
  return { accountCreditCents, accountCreditByCurrency, notes };
}

export type PayoutOutcome =
  | { outcome: "paid_out"; order: OrderView; note: CreditNoteView }
  | { outcome: "already"; order: OrderView; note: CreditNoteView }
  | { outcome: "nothing"; order: OrderView; note: CreditNoteView }
  | { outcome: "not_found" };

/**
 * Records that a credit note's account credit was paid out to the customer's bank (once: one update
 * conditional on there being none, so of two staff recording it one is taken, the other is told).
 */
export async function recordPayout(
  orderId: string,
  noteId: string,
  { reference, by }: { reference: string; by: string },
): Promise<PayoutOutcome> {
  if (!isObjectId(orderId) || !isObjectId(noteId)) return { outcome: "not_found" };
  const doc = await Order.findById(orderId).lean();
  const index = (doc?.creditNotes ?? []).findIndex((note) => note._id.toString() === noteId);
  if (!doc || index < 0) return { outcome: "not_found" };
  const before = toOrderView(doc);
  const note = before.creditNotes[index];
  if (note.payout) return { outcome: "already", order: before, note };
  // What it still holds: its credit less what went off other invoices (never more than the account holds).
  const amountCents = creditHeldCents(note);
  if (!amountCents) return { outcome: "nothing", order: before, note };
  const at = `creditNotes.${index}`;
  const updated = await Order.findOneAndUpdate(
    {
      _id: orderId,
      [`${at}._id`]: new mongoose.Types.ObjectId(noteId),
      [`${at}.payout`]: null,
      // No credit taken off an invoice since the read: that credit is no longer here to pay out.
      [`${at}.usedCents`]: note.usedCents ? note.usedCents : { $in: [0, null] },
      // What is owed as read: a refund's status changing meanwhile makes staff look again.
      [`${at}.refund.status`]: note.refund?.status ?? null,
    },
    {
      $set: { [`${at}.payout`]: { paidAt: new Date(), amountCents, reference, by } },
      $addToSet: { eventsPending: "payout" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!updated) {
    const now = toOrderView((await Order.findById(orderId).lean())!);
    return { outcome: "already", order: now, note: now.creditNotes[index] };
  }
  const order = toOrderView(updated);
  return { outcome: "paid_out", order, note: order.creditNotes[index] };
}
