import { invoicedOnShipping } from "~/domain/tax";
import { gapFreeSequence } from "~/models/gap-free-numbers.server";
import { DAY_MS, Order } from "./schema.server";

/**
 * Invoice numbers: 1, 2, 3… printed INV-000001, with no gap and no duplicate, in the order orders were
 * invoiced. A number is claimed for an order already paid (or confirmed on account) in the
 * `invoice_numbers` registry and never given back, so a later invoice never takes an earlier number;
 * a crash between the claim and the order's write is healed by claiming again, which finds it.
 */
export const invoiceNumbers = gapFreeSequence("invoice", "invoice_numbers");

// Invoiced: paid, or confirmed on account (numbered when placed, with its due date), except an
// intra-community supply, invoiced once shipped (the day of the supply is on its invoice); or cancelled
// after that, its invoice corrected by a credit note (issued, or still to issue after a crash).
const INVOICED: Record<string, unknown> = {
  $or: [
    { status: "shipped" },
    { status: { $in: ["paid", "account"] }, "taxLines.kind": { $ne: "intra-community" } },
    { status: "cancelled", $or: [{ creditPending: true }, { "creditNotes.0": { $exists: true } }] },
  ],
};
const DATED = { invoicedAt: 1, paidAt: 1, dueAt: 1, termsDays: 1, shippedAt: 1, taxLines: 1 } as const;

/**
 * Gives an invoiced order its invoice number once; returns the order's number (null when the order is
 * not invoiced). Called right after the order is marked paid (or confirmed on account), and `late` by the
 * stock sweep for an order a crash left between the two writes (`invoicePending`), by the invoice screen
 * and by a cancellation, so it is idempotent: the order's claim is found again, and the number is set
 * only where there is none.
 */
export async function assignInvoiceNumber(
  orderId: string,
  { late = false }: { late?: boolean } = {},
): Promise<number | null> {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const current = await Order.findOne(
    { _id: orderId, ...INVOICED },
    { invoiceNumber: 1, invoicePending: 1, ...DATED },
  ).lean();
  if (!current) return null;
  if (current.invoiceNumber) {
    // Numbered, and the mark left by a crash between the number and its clearing: cleared now.
    if (current.invoicePending) await Order.updateOne({ _id: orderId }, { $unset: { invoicePending: 1 } });
    return current.invoiceNumber;
  }
  const number = await invoiceNumbers.take(orderId);
  const invoicedAt =
    current.invoicedAt ?? (late ? await lateIssueDate(current, number) : invoiceDate(current)) ?? new Date();
  // Terms run from the invoice: an order on account invoiced when it shipped is due that many days after.
  const shippedOnAccount = invoicedOnShipping(current.taxLines ?? []) && current.termsDays != null;
  await Order.updateOne(
    { _id: orderId, ...INVOICED, invoiceNumber: { $exists: false } },
    {
      $set: {
        invoiceNumber: number,
        invoicedAt,
        ...(shippedOnAccount ? { dueAt: new Date(invoicedAt.getTime() + current.termsDays! * DAY_MS) } : {}),
      },
      $unset: { invoicePending: 1 },
    },
  );
  return number;
}

/**
 * The date of an invoice numbered late (after a crash): the day it became due to be issued, or the
 * previous number's date when that is later, so a late number is never dated before the one before it.
 * The previous number's order may not carry it yet (a crash after its claim, or its write still on the
 * way in another process): then its own invoice date, the one it is given when numbered on time.
 */
async function lateIssueDate(order: Parameters<typeof invoiceDate>[0], number: number) {
  const own = invoiceDate(order) ?? new Date();
  if (number <= 1) return own;
  const previous = await invoiceNumbers.Registry.findById(number - 1, { owner: 1 }).lean();
  const owner = previous && (await Order.findById(previous.owner, DATED).lean());
  const before = owner ? (owner.invoicedAt ?? invoiceDate(owner)) : null;
  return before && before > own ? before : own;
}

/**
 * Invoiceable orders a crash left without their number for `graceMs` (`invoicePending`), numbered now:
 * first those whose number was claimed before the crash, in number order, then the others in the order
 * they were invoiced, so each is dated from the number before it as written. Returns how many.
 */
export async function numberInvoicesLeft({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  const left = await Order.find({ invoicePending: true, updatedAt: { $lte: new Date(Date.now() - graceMs) } }, DATED)
    .limit(limit)
    .lean();
  const ids = left.map((order) => order._id.toString());
  const claimed = new Map(
    (await invoiceNumbers.Registry.find({ owner: { $in: ids } }, { owner: 1 }).lean()).map((claim) => [
      claim.owner,
      claim._id,
    ]),
  );
  const inTurn = left
    .map((order) => {
      const id = order._id.toString();
      return { id, claim: claimed.get(id) ?? Infinity, at: invoiceDate(order)?.getTime() ?? 0 };
    })
    .sort((a, b) => a.claim - b.claim || a.at - b.at || a.id.localeCompare(b.id));
  let numbered = 0;
  for (const { id } of inTurn) if (await assignInvoiceNumber(id, { late: true })) numbered++;
  return numbered;
}

/** Invoiced orders without a number for `graceMs` (the stock check reports them), by their order numbers. */
export async function invoicedWithoutNumber({ graceMs }: { graceMs: number }) {
  const docs = await Order.find(
    { ...INVOICED, invoiceNumber: { $exists: false }, updatedAt: { $lte: new Date(Date.now() - graceMs) } },
    { number: 1 },
  ).lean();
  return docs.map((doc) => ({ id: doc._id.toString(), number: doc.number ?? null }));
}

/**
 * The day an invoice is issued, from what the order records (docs/behaviour.md, "Invoices"): an
 * intra-community supply when it shipped; an order on account when it was confirmed (its due date less
 * its terms), any other when it was paid. Stored once with the invoice number (invoicedAt); every
 * screen, document, CSV and the API read that.
 */
export function invoiceDate(order: {
  dueAt?: Date | null;
  termsDays?: number | null;
  paidAt?: Date | null;
  shippedAt?: Date | null;
  taxLines?: readonly { kind: string }[] | null;
}): Date | null {
  if (invoicedOnShipping(order.taxLines ?? [])) return order.shippedAt ?? null;
  if (order.dueAt && order.termsDays != null) return new Date(order.dueAt.getTime() - order.termsDays * DAY_MS);
  return order.paidAt ?? null;
}

export { formatInvoiceDocument as formatInvoiceNumber } from "~/domain/ledger";
