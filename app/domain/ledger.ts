/**
 * The customer's money in one ledger: each account (the customer's company; a customer alone has a
 * company of one) has an append-only list of entries, each with its date, kind, amount and currency,
 * the order and document it belongs to, and who made it. An entry is never changed: a mistake is
 * corrected by a new entry that names the one it corrects. The balance is the sum of the amounts:
 * positive, the customer owes the shop; negative, the shop owes the customer (credit).
 *
 * The entries an order implies follow from the order's own money events (its invoice, payments and
 * reversals, card payment, credit notes, refunds and payouts): `entriesOfOrder` lists them, each
 * with a key that names the event once, so posting them again (after a crash, by the sweep, by the
 * migration) writes nothing twice. Rules: docs/decisions/0009-ledger.md.
 */
import { CURRENCY_CODES, money, totalsByCurrency, type Currency } from "./money";

/** Currencies the ledger holds (ISO 4217, app/content/currencies.ts). Amounts are in the currency's minor unit. */
export const LEDGER_CURRENCIES = CURRENCY_CODES as [Currency, ...Currency[]];
export type LedgerCurrency = Currency;

export const LEDGER_KINDS = [
  "invoice",
  "payment",
  "card-payment",
  "payment-reversal",
  "credit-note",
  "credit-applied",
  "refund",
  "refund-failed",
  "payout",
  "write-off",
  "correction",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export type LedgerEntryInput = {
  /** Names the money event once: `invoice:<order>`, `payment:<payment>`, `credit-note:<note>`… */
  key: string;
  accountId: string;
  kind: LedgerKind;
  /** Its effect on the balance, in minor units: + the customer owes more, − the shop owes more. */
  amountCents: number;
  currency: LedgerCurrency;
  /** When it happened (the invoice's date, the day money was received, the refund's day). */
  at: string;
  orderId: string;
  /** The document it belongs to, as people read it (INV-000042, CN-000007, a payment's reference). */
  document: string;
  by: string | null;
  /** The entry (key) it settles or corrects, if any. */
  settles: string | null;
};

/** What of an order the ledger reads (a subset of the order's view). */
export type LedgerOrder = {
  id: string;
  number: string;
  companyId: string;
  userEmail: string;
  totalCents: number;
  currency?: LedgerCurrency;
  invoiceNumber: number | null;
  invoicedAt: string | null;
  createdAt: string;
  paidAt: string | null;
  paidCents: number;
  transactionId: string | null;
  payments: {
    id: string;
    amountCents: number;
    method: string;
    receivedOn: string;
    reference: string;
    recordedBy: string;
    reversedAt: string | null;
    reversedBy: string | null;
  }[];
  creditNotes: {
    id: string;
    number: string;
    issuedAt: string;
    issuedBy: string | null;
    totalCents: number;
    refundCents: number;
    refund: { id: string | null; status: string; refundedAt: string | null; failedAt: string | null } | null;
    payout: { paidAt: string; amountCents: number; reference: string; by: string | null } | null;
  }[];
  /** Account credit taken off this order: each use names the credit note it came from. */
  creditUses?: { id: string; noteId: string; noteNumber: string; amountCents: number; at: string; by: string | null }[];
};

export const formatInvoiceDocument = (number: number) => `INV-${String(number).padStart(6, "0")}`;

/** Card money received: what the order's paid amount holds beyond the payments recorded by staff. */
export function cardPaidCents(order: Pick<LedgerOrder, "transactionId" | "paidAt" | "paidCents" | "payments">) {
  if (!order.transactionId || !order.paidAt) return 0;
  const recorded = order.payments.filter((p) => !p.reversedAt).reduce((sum, p) => sum + p.amountCents, 0);
  return Math.max(0, order.paidCents - recorded);
}

/**
 * The entries an order implies now. An order that was never invoiced (unpaid, cancelled unpaid)
 * implies none: nothing was owed.
 */
export function entriesOfOrder(order: LedgerOrder): LedgerEntryInput[] {
  if (!order.invoiceNumber || !order.companyId) return [];
  const currency = order.currency ?? "USD";
  const base = { accountId: order.companyId, currency, orderId: order.id };
  const invoiceKey = `invoice:${order.id}`;
  const entries: LedgerEntryInput[] = [
    {
      ...base,
      key: invoiceKey,
      kind: "invoice",
      amountCents: order.totalCents,
      at: order.invoicedAt ?? order.paidAt ?? order.createdAt,
      document: formatInvoiceDocument(order.invoiceNumber),
      by: null,
      settles: null,
    },
  ];
  const card = cardPaidCents(order);
  if (card > 0)
    entries.push({
      ...base,
      key: `card-payment:${order.id}`,
      kind: "card-payment",
      amountCents: -card,
      at: order.paidAt!,
      document: order.transactionId!,
      by: null,
      settles: invoiceKey,
    });
  for (const payment of order.payments) {
    const key = `payment:${payment.id}`;
    entries.push({
      ...base,
      key,
      kind: "payment",
      amountCents: -payment.amountCents,
      at: payment.receivedOn,
      document: payment.reference || `${payment.method} payment`,
      by: payment.recordedBy || null,
      settles: invoiceKey,
    });
    if (payment.reversedAt)
      entries.push({
        ...base,
        key: `payment-reversal:${payment.id}`,
        kind: "payment-reversal",
        amountCents: payment.amountCents,
        at: payment.reversedAt,
        document: payment.reference || `${payment.method} payment`,
        by: payment.reversedBy,
        settles: key,
      });
  }
  for (const use of order.creditUses ?? []) {
    // Credit moves from a credit note to this invoice: the balance does not change, what each owes does.
    const common = { ...base, at: use.at, by: use.by };
    entries.push(
      {
        ...common,
        key: `credit-applied:${use.id}`,
        kind: "credit-applied",
        amountCents: -use.amountCents,
        document: use.noteNumber,
        settles: invoiceKey,
      },
      {
        ...common,
        key: `credit-used:${use.id}`,
        kind: "credit-applied",
        amountCents: use.amountCents,
        document: formatInvoiceDocument(order.invoiceNumber),
        settles: `credit-note:${use.noteId}`,
      },
    );
  }
  for (const note of order.creditNotes) {
    // A note being numbered (a moment, or until the sweep after a crash) is posted once it has its number.
    if (!note.number.startsWith("CN-")) continue;
    const key = `credit-note:${note.id}`;
    entries.push({
      ...base,
      key,
      kind: "credit-note",
      amountCents: -note.totalCents,
      at: note.issuedAt,
      document: note.number,
      by: note.issuedBy,
      settles: invoiceKey,
    });
    if (note.refundCents > 0 && note.refund?.status === "succeeded")
      entries.push({
        ...base,
        key: `refund:${note.id}`,
        kind: "refund",
        amountCents: note.refundCents,
        at: note.refund.refundedAt ?? note.issuedAt,
        document: note.refund.id ?? note.number,
        by: null,
        settles: key,
      });
    if (note.refundCents > 0 && (note.refund?.status === "failed" || note.refund?.status === "canceled"))
      // The card refund did not happen: its money stays the customer's credit (nothing moves).
      entries.push({
        ...base,
        key: `refund-failed:${note.id}`,
        kind: "refund-failed",
        amountCents: 0,
        at: note.refund.failedAt ?? note.issuedAt,
        document: note.refund.id ?? note.number,
        by: null,
        settles: key,
      });
    if (note.payout)
      entries.push({
        ...base,
        key: `payout:${note.id}`,
        kind: "payout",
        amountCents: note.payout.amountCents,
        at: note.payout.paidAt,
        document: note.payout.reference,
        by: note.payout.by,
        settles: key,
      });
  }
  return entries;
}

/** The balance of entries, per currency: + the customer owes, − the shop owes the customer. */
export function balancesOf(entries: Pick<LedgerEntryInput, "amountCents" | "currency">[]) {
  const totals = totalsByCurrency(entries.map((entry) => money(entry.amountCents, entry.currency)));
  return new Map(totals.map((total) => [total.currency, total.amount]));
}

/** An entry posted differs from the one the order implies now (an entry is never changed: a correction is due). */
export function entryDiffers(posted: LedgerEntryInput, implied: LedgerEntryInput) {
  return (
    posted.accountId !== implied.accountId ||
    posted.kind !== implied.kind ||
    posted.amountCents !== implied.amountCents ||
    posted.currency !== implied.currency
  );
}

/** A document the account's entries are open against: an invoice (owed) or a credit note (credit). */
export type OpenItem = {
  key: string;
  kind: LedgerKind;
  document: string;
  orderId: string;
  at: string;
  currency: LedgerCurrency;
  /** What the document said when issued (its own entry). */
  amountCents: number;
  /** What of it is still open after every entry that settles it: + owed by the customer, − owed to them. */
  openCents: number;
};

/**
 * The account's entries gathered by the document they settle in the end (a payment's reversal
 * settles the payment, which settles the invoice): what each invoice still owes and what credit
 * each credit note still holds. An entry that settles nothing of this list stands on its own.
 */
export function openItems(
  entries: Pick<
    LedgerEntryInput,
    "key" | "kind" | "document" | "orderId" | "at" | "currency" | "amountCents" | "settles"
  >[],
) {
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  // A credit note is a document of its own: what it settles on its invoice is netted below.
  const rootOf = (entry: (typeof entries)[number]) => {
    let current = entry;
    for (
      let hops = 0;
      current.kind !== "credit-note" && current.settles && byKey.has(current.settles) && hops < 16;
      hops++
    )
      current = byKey.get(current.settles)!;
    return current;
  };
  const items = new Map<string, OpenItem>();
  for (const entry of entries) {
    const root = rootOf(entry);
    const item = items.get(root.key) ?? {
      key: root.key,
      kind: root.kind,
      document: root.document,
      orderId: root.orderId,
      at: root.at,
      currency: root.currency,
      amountCents: root.amountCents,
      openCents: 0,
    };
    item.openCents += entry.amountCents;
    items.set(root.key, item);
  }
  // A credit note's credit goes first to what its own invoice still owes (the rest is the account's).
  for (const entry of entries) {
    if (entry.kind !== "credit-note" || !entry.settles) continue;
    const note = items.get(entry.key);
    const invoice = items.get(entry.settles);
    if (!note || !invoice || note.openCents >= 0 || invoice.openCents <= 0) continue;
    const taken = Math.min(-note.openCents, invoice.openCents);
    note.openCents += taken;
    invoice.openCents -= taken;
  }
  return [...items.values()].sort((a, b) => a.at.localeCompare(b.at) || a.key.localeCompare(b.key));
}

/**
 * What the customer owes the shop and what the shop owes the customer, per currency, from the open
 * items: both are shown ("Open on account"), and their difference is the balance.
 */
export function owedBothWays(entries: Parameters<typeof openItems>[0]) {
  const out = new Map<LedgerCurrency, { owesCents: number; owedCents: number; balanceCents: number }>();
  for (const item of openItems(entries)) {
    const row = out.get(item.currency) ?? { owesCents: 0, owedCents: 0, balanceCents: 0 };
    if (item.openCents > 0) row.owesCents += item.openCents;
    else row.owedCents -= item.openCents;
    row.balanceCents += item.openCents;
    out.set(item.currency, row);
  }
  return out;
}
