/**
 * The customer's statement of account, read from the ledger (docs/decisions/0009-ledger.md): for a
 * period, the balance brought forward, every entry with its document and the running balance, the
 * balance carried forward, and what is open at the period's end aged by how long it is overdue.
 * Amounts keep the ledger's sign: + the customer owes the shop, − the shop owes the customer.
 */
import { z } from "zod";
import { formatCents, formatDate } from "~/format";
import { filterDay } from "./day";
import { openItems, type LedgerCurrency, type LedgerEntryInput, type LedgerKind } from "./ledger";
import { CURRENCY_CODES, HOME_CURRENCY } from "./money";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** What of a ledger entry the statement reads. */
export type StatementEntry = Pick<
  LedgerEntryInput,
  "key" | "kind" | "amountCents" | "currency" | "at" | "orderId" | "document" | "settles"
>;

// --- The period ------------------------------------------------------------------------------------

const isDay = (value: string | undefined) => value !== undefined && filterDay.safeParse(value).success;

/** The statement's period filter (a GET form): whole UTC days, both ends included, both optional. */
export const statementPeriodSchema = z
  .object({ from: filterDay.optional(), to: filterDay.optional() })
  // Compared only once both are days (a bad date has its own message, not a second one on the other field).
  .refine((value) => !isDay(value.from) || !isDay(value.to) || value.from! <= value.to!, {
    path: ["to"],
    message: "The end date must not be before the start date",
  });

export type StatementPeriod = { from?: string; to?: string };

/** The period as instants: entries at or after `start` and before `end` (the day after `to`) are in it. */
export function periodBounds(period: StatementPeriod) {
  return {
    start: period.from ? new Date(`${period.from}T00:00:00Z`) : null,
    end: period.to ? new Date(Date.parse(`${period.to}T00:00:00Z`) + DAY_MS) : null,
  };
}

// --- Words -----------------------------------------------------------------------------------------

/** Who owes whom, without a minus sign: a minus reads as a debt, and credit is the shop's debt. */
export function balanceHeadline(cents: number, currency: LedgerCurrency = HOME_CURRENCY) {
  if (cents > 0) return `You owe us ${formatCents(cents, { currency })}`;
  if (cents < 0) return `We owe you ${formatCents(-cents, { currency })}`;
  return "Nothing is owed either way";
}

/** A running balance in a column: what the customer owes, or what is theirs ("in credit"). */
export function balanceCell(cents: number, currency: LedgerCurrency = HOME_CURRENCY) {
  return cents < 0 ? `${formatCents(-cents, { currency })} in credit` : formatCents(cents, { currency });
}

/** Payment terms in words; without terms, how orders are paid depends on whether the shop takes cards. */
export function termsLine(termsDays: number | null | undefined, cardPayments: boolean) {
  if (termsDays) return `Net ${termsDays} days from the invoice date`;
  return cardPayments
    ? "None: each order is paid when it is placed, by card or bank transfer"
    : "None: each order is paid by bank transfer before it ships";
}

const KIND_WORDS: Record<LedgerKind, string> = {
  invoice: "Invoice",
  payment: "Payment received",
  "card-payment": "Card payment",
  "payment-reversal": "Payment reversed",
  "credit-note": "Credit note",
  "credit-applied": "Credit applied",
  refund: "Refunded to your card",
  "refund-failed": "Card refund failed: we owe it to you by bank",
  payout: "Paid out to your bank",
  "write-off": "Written off",
  correction: "Correction",
};

// --- Ageing ----------------------------------------------------------------------------------------

export const AGEING_BUCKETS = ["current", "days1To30", "days31To60", "days61To90", "over90Days"] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

export const AGEING_WORDS: Record<AgeingBucket, string> = {
  current: "Current",
  days1To30: "1–30 days overdue",
  days31To60: "31–60 days overdue",
  days61To90: "61–90 days overdue",
  over90Days: "Over 90 days overdue",
};

export function ageingBucket(daysOverdue: number): AgeingBucket {
  if (daysOverdue <= 0) return "current";
  if (daysOverdue <= 30) return "days1To30";
  if (daysOverdue <= 60) return "days31To60";
  if (daysOverdue <= 90) return "days61To90";
  return "over90Days";
}

/** Whole days past the due date at `asOf` (0 or less: not overdue). */
export const daysOverdue = (dueAt: string, asOf: Date) => Math.floor((asOf.getTime() - Date.parse(dueAt)) / DAY_MS);

export type OpenInvoice = {
  key: string;
  document: string;
  orderId: string;
  invoicedAt: string;
  dueAt: string;
  openCents: number;
  daysOverdue: number;
  bucket: AgeingBucket;
};

/**
 * What is owed at `asOf`, by how long it is overdue: each document still open in the customer's
 * disfavour (`openItems`), due on its order's due date, or when it was issued for an order without
 * terms (paid when ordered). `dueAt` maps an order's id to its due date.
 */
export function ageingOf(entries: StatementEntry[], dueAt: ReadonlyMap<string, string | null>, asOf: Date) {
  const buckets = Object.fromEntries(AGEING_BUCKETS.map((bucket) => [bucket, 0])) as Record<AgeingBucket, number>;
  const invoices: OpenInvoice[] = [];
  for (const item of openItems(entries)) {
    if (item.openCents <= 0) continue;
    const due = (item.kind === "invoice" ? dueAt.get(item.orderId) : null) ?? item.at;
    const days = daysOverdue(due, asOf);
    const bucket = ageingBucket(days);
    buckets[bucket] += item.openCents;
    invoices.push({
      key: item.key,
      document: item.document,
      orderId: item.orderId,
      invoicedAt: item.at,
      dueAt: due,
      openCents: item.openCents,
      daysOverdue: Math.max(0, days),
      bucket,
    });
  }
  invoices.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.key.localeCompare(b.key));
  return { buckets, invoices };
}

// --- Lines -----------------------------------------------------------------------------------------

export type StatementLine = {
  key: string;
  at: string;
  kind: LedgerKind;
  description: string;
  document: string;
  orderId: string;
  /** What the line added to what the customer owes, and what it took off (each 0 or more). */
  chargeCents: number;
  creditCents: number;
  /** The balance after the line: + the customer owes, − the shop owes. */
  balanceCents: number;
  /** An invoice's state at the statement's end: paid, settled by credit, open, overdue. */
  status: string | null;
};

/** The two halves of credit applied to an invoice share their id: `credit-applied:<id>`, `credit-used:<id>`. */
const pairId = (key: string) => {
  const match = /^credit-(?:applied|used):(.+)$/.exec(key);
  return match ? match[1] : null;
};

/**
 * The period's entries as lines with the running balance from `openingCents`. Credit applied to an
 * invoice is posted as two entries that cancel out (off the invoice, off the credit note): one line
 * "Credit CN-… applied to INV-…" that changes no balance. `all` is every entry of the account,
 * where the documents the pair settles are found.
 */
export function statementLines(
  period: StatementEntry[],
  all: StatementEntry[],
  openingCents: number,
  statusOf: (entry: StatementEntry) => string | null = () => null,
) {
  const byKey = new Map(all.map((entry) => [entry.key, entry]));
  const halves = new Map<string, StatementEntry[]>();
  for (const entry of period) {
    const id = entry.kind === "credit-applied" ? pairId(entry.key) : null;
    if (id) halves.set(id, [...(halves.get(id) ?? []), entry]);
  }
  const lines: StatementLine[] = [];
  const merged = new Set<string>();
  let balance = openingCents;
  for (const entry of period) {
    if (merged.has(entry.key)) continue;
    const id = entry.kind === "credit-applied" ? pairId(entry.key) : null;
    const pair = id ? halves.get(id) : undefined;
    if (pair?.length === 2 && pair[0].amountCents + pair[1].amountCents === 0) {
      const offInvoice = pair.find((half) => half.amountCents < 0) ?? pair[0];
      const offNote = pair.find((half) => half !== offInvoice)!;
      // Each half names the other side's document: the half off the invoice names the credit note.
      const invoice = (offInvoice.settles && byKey.get(offInvoice.settles)?.document) || offNote.document;
      const note = (offNote.settles && byKey.get(offNote.settles)?.document) || offInvoice.document;
      for (const half of pair) merged.add(half.key);
      lines.push({
        key: `credit:${id}`,
        at: entry.at,
        kind: "credit-applied",
        description: `Credit ${note} applied to ${invoice}`,
        document: note,
        orderId: offInvoice.orderId,
        chargeCents: 0,
        creditCents: 0,
        balanceCents: balance,
        status: null,
      });
      continue;
    }
    balance += entry.amountCents;
    lines.push({
      key: entry.key,
      at: entry.at,
      kind: entry.kind,
      description: KIND_WORDS[entry.kind],
      document: entry.document,
      orderId: entry.orderId,
      chargeCents: Math.max(0, entry.amountCents),
      creditCents: Math.max(0, -entry.amountCents),
      balanceCents: balance,
      status: statusOf(entry),
    });
  }
  return lines;
}

// --- The statement ---------------------------------------------------------------------------------

/**
 * Oldest first; on one day an invoice before what settles it (a card payment is taken a moment
 * before the invoice it pays is numbered, yet reads after it).
 */
const byDate = (a: StatementEntry, b: StatementEntry) =>
  a.at.slice(0, 10).localeCompare(b.at.slice(0, 10)) ||
  Number(b.kind === "invoice") - Number(a.kind === "invoice") ||
  a.at.localeCompare(b.at) ||
  a.key.localeCompare(b.key);

/**
 * The statement of one account in one currency for a period: opening balance (everything before
 * it), the period's lines, closing balance, and at the period's end (or now, if sooner) what each
 * side owes and the ageing of what the customer owes.
 */
export function buildStatement({
  entries,
  currency = "USD",
  period = {},
  dueAt,
  now = new Date(),
}: {
  entries: StatementEntry[];
  currency?: LedgerCurrency;
  period?: StatementPeriod;
  dueAt: ReadonlyMap<string, string | null>;
  now?: Date;
}) {
  const money = (cents: number) => formatCents(cents, { currency });
  const { start, end } = periodBounds(period);
  const mine = entries.filter((entry) => entry.currency === currency).sort(byDate);
  const time = (entry: StatementEntry) => Date.parse(entry.at);
  const before = start ? mine.filter((entry) => time(entry) < start.getTime()) : [];
  const upToEnd = end ? mine.filter((entry) => time(entry) < end.getTime()) : mine;
  const inPeriod = upToEnd.filter((entry) => !start || time(entry) >= start.getTime());
  const openingCents = before.reduce((sum, entry) => sum + entry.amountCents, 0);
  const asOf = end && end.getTime() < now.getTime() ? end : now;
  const ageing = ageingOf(upToEnd, dueAt, asOf);
  const open = new Map(openItems(upToEnd).map((item) => [item.key, item.openCents]));
  const openInvoices = new Map(ageing.invoices.map((invoice) => [invoice.key, invoice]));
  const paidByMoney = new Set(
    upToEnd.filter((e) => (e.kind === "payment" || e.kind === "card-payment") && e.settles).map((e) => e.settles),
  );
  const statusOf = (entry: StatementEntry) => {
    if (entry.kind !== "invoice") return null;
    const invoice = openInvoices.get(entry.key);
    if (invoice)
      return invoice.daysOverdue > 0
        ? `${money(invoice.openCents)} open, overdue ${invoice.daysOverdue} ${invoice.daysOverdue === 1 ? "day" : "days"} (due ${formatDate(invoice.dueAt)})`
        : `${money(invoice.openCents)} open, due ${formatDate(invoice.dueAt)}`;
    if ((open.get(entry.key) ?? 0) <= 0) return paidByMoney.has(entry.key) ? "Paid" : "Settled by credit";
    return null;
  };
  const lines = statementLines(inPeriod, mine, openingCents, statusOf);
  const closingCents = openingCents + inPeriod.reduce((sum, entry) => sum + entry.amountCents, 0);
  let owesCents = 0;
  let owedCents = 0;
  for (const cents of open.values()) {
    if (cents > 0) owesCents += cents;
    else owedCents -= cents;
  }
  return {
    currency,
    from: period.from ?? null,
    to: period.to ?? null,
    asOf: asOf.toISOString(),
    openingCents,
    closingCents,
    lines,
    owesCents,
    owedCents,
    ageing: ageing.buckets,
    openInvoices: ageing.invoices,
    overdueCents: ageing.invoices.filter((i) => i.daysOverdue > 0).reduce((sum, i) => sum + i.openCents, 0),
    headline: balanceHeadline(closingCents, currency),
  };
}

export type Statement = ReturnType<typeof buildStatement>;

/**
 * The statement of one account in each currency its ledger holds, each on its own (a balance is
 * never carried across currencies): `currency` (the one the account buys in) first, then the
 * shop's others in their order. An account with no entries has one empty statement, in `currency`.
 */
export function buildStatements({
  entries,
  currency = HOME_CURRENCY,
  ...rest
}: Parameters<typeof buildStatement>[0]): Statement[] {
  const held = new Set(entries.map((entry) => entry.currency));
  const currencies = held.size
    ? [currency, ...CURRENCY_CODES.filter((code) => code !== currency)].filter((code) => held.has(code))
    : [currency];
  return currencies.map((code) => buildStatement({ entries, currency: code, ...rest }));
}

/** The statement's period in words: "Jan 1, 2026 to Jan 31, 2026", "Everything up to Jan 31, 2026"… */
export function periodWords(period: StatementPeriod) {
  if (period.from && period.to) return `${formatDate(period.from)} to ${formatDate(period.to)}`;
  if (period.from) return `From ${formatDate(period.from)}`;
  if (period.to) return `Everything up to ${formatDate(period.to)}`;
  return "Every entry since the account was opened";
}
