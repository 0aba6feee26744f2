/**
 * Credit notes: what a credit note is for, how its amounts follow from the order it credits, and the
 * words people read. A credit note credits units of an order's lines at the price paid for them, with
 * the tax charged on them taken in proportion, and never more than was charged: the sum of every credit
 * of a line stays within the line's total, and the credited tax within the tax charged. Shared by the
 * model, the screens, mail, documents and the API.
 */
import { formatCents, formatDate } from "~/format";
import type { Currency } from "./money";
import type { TaxLine } from "./tax";

export const CREDIT_NOTE_PREFIX = "CN-";
export const formatCreditNoteNumber = (number: number) => `${CREDIT_NOTE_PREFIX}${String(number).padStart(6, "0")}`;

/** A credit note's page, and its PDF (the document routes: /documents/{orderId}/credit-note?number=CN-000001). */
export function creditNotePath(orderId: string, number: string, pdf = false) {
  return `/documents/${orderId}/credit-note${pdf ? "/pdf" : ""}?number=${encodeURIComponent(number)}`;
}

/** Why a credit note was issued: units of a return received, or a paid order cancelled before it shipped. */
export const CREDIT_REASONS = ["return", "cancellation"] as const;
export type CreditReason = (typeof CREDIT_REASONS)[number];

/**
 * Where the credit's money goes: back to the card through Stripe, off the order's open invoice, or onto the
 * company's account (money received by bank transfer, cheque or cash: it comes off what they owe, or staff pay it out).
 */
export type CreditSettlement = { refundCents: number; appliedCents: number; accountCreditCents: number };

export const REFUND_STATUSES = ["pending", "succeeded", "failed", "canceled"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Whether Stripe's news of a refund (`next`, its events may come in any order) may replace what the
 * credit note records (`current`): failed and canceled are final, and so is succeeded, but for a
 * failure after it (the card's bank sent the money back).
 */
export function refundMayBecome(current: RefundStatus, next: RefundStatus) {
  if (current === next || current === "failed" || current === "canceled") return false;
  return current !== "succeeded" || next === "failed";
}

export const REFUND_STATUS_WORDS: Record<RefundStatus, string> = {
  pending: "Refund to the card under way",
  succeeded: "Refunded to the card",
  failed: "Refund to the card failed",
  canceled: "Refund to the card cancelled",
};

/** One line of the order as placed, and what earlier credit notes already credited of it. */
export type CreditableLine = { quantity: number; unitPriceCents: number; lineTotalCents: number };
export type CreditTaxLine = { kind: string; label: string; rate: number; amountCents: number; note: string | null };
export type PriorCredit = {
  lines: { lineIndex: number; quantity: number; netCents: number }[];
  taxLines: { amountCents: number }[];
};

export type CreditLine = { lineIndex: number; quantity: number; netCents: number };
export type CreditAmounts = {
  lines: CreditLine[];
  netCents: number;
  taxLines: CreditTaxLine[];
  taxCents: number;
  totalCents: number;
};

/**
 * The amounts of a credit of `units` (per line index) of an order: each line at its unit price, the whole
 * rest of the line when its last units are credited (so rounding never leaves or exceeds a cent), and
 * each tax line in proportion to the net credited (its whole rest when the order is credited in full).
 * Units beyond what is left to credit of a line are refused: null, with the line.
 */
export function creditAmounts(
  order: { lines: CreditableLine[]; netCents: number; taxLines: CreditTaxLine[] },
  prior: PriorCredit[],
  units: { lineIndex: number; quantity: number }[],
): { ok: true; amounts: CreditAmounts } | { ok: false; lineIndex: number; left: number } {
  const creditedUnits = order.lines.map(() => 0);
  const creditedNet = order.lines.map(() => 0);
  for (const note of prior)
    for (const line of note.lines) {
      creditedUnits[line.lineIndex] += line.quantity;
      creditedNet[line.lineIndex] += line.netCents;
    }
  const lines: CreditLine[] = [];
  for (const { lineIndex, quantity } of units) {
    const line = order.lines[lineIndex];
    if (!line || quantity <= 0) continue;
    const left = line.quantity - creditedUnits[lineIndex];
    if (quantity > left) return { ok: false, lineIndex, left: Math.max(0, left) };
    const netCents =
      quantity === left
        ? line.lineTotalCents - creditedNet[lineIndex]
        : Math.min(line.unitPriceCents * quantity, line.lineTotalCents - creditedNet[lineIndex]);
    lines.push({ lineIndex, quantity, netCents });
    creditedUnits[lineIndex] += quantity;
  }
  const netCents = lines.reduce((sum, line) => sum + line.netCents, 0);
  const everything = order.lines.every((line, index) => creditedUnits[index] >= line.quantity);
  const taxLines = order.taxLines.map((tax, index) => {
    const already = prior.reduce((sum, note) => sum + (note.taxLines[index]?.amountCents ?? 0), 0);
    const rest = Math.max(0, tax.amountCents - already);
    const share = order.netCents > 0 ? Math.round((tax.amountCents * netCents) / order.netCents) : 0;
    return { ...tax, amountCents: everything ? rest : Math.min(share, rest) };
  });
  const taxCents = taxLines.reduce((sum, line) => sum + line.amountCents, 0);
  return { ok: true, amounts: { lines, netCents, taxLines, taxCents, totalCents: netCents + taxCents } };
}

/**
 * Where a credit of `totalCents` goes: to the card first (at most what the card paid less what was refunded
 * already), then off what is still owed on the order's invoice, and the rest onto the company's account.
 */
export function settleCredit(
  totalCents: number,
  money: { cardPaidCents: number; refundedCents: number; balanceCents: number },
): CreditSettlement {
  const refundCents = Math.max(0, Math.min(totalCents, money.cardPaidCents - money.refundedCents));
  const appliedCents = Math.max(0, Math.min(totalCents - refundCents, money.balanceCents));
  return { refundCents, appliedCents, accountCreditCents: totalCents - refundCents - appliedCents };
}

/**
 * What a credit note owes the customer by bank: its account credit, and card money whose refund Stripe
 * reported failed or cancelled (it did not reach the card). Staff pay it out and record it once.
 */
export function owedByBank(
  note: Pick<CreditSettlement, "refundCents" | "accountCreditCents"> & {
    refund: { status: RefundStatus } | null;
  },
) {
  const refundLost = note.refund?.status === "failed" || note.refund?.status === "canceled";
  return note.accountCreditCents + (refundLost ? note.refundCents : 0);
}

/**
 * What of a credit note's credit the account still holds: what it owes by bank, less what went
 * off other invoices; nothing once paid out.
 */
export function creditHeldCents(
  note: Parameters<typeof owedByBank>[0] & { usedCents?: number | null; payout?: unknown },
) {
  return note.payout ? 0 : Math.max(0, owedByBank(note) - (note.usedCents ?? 0));
}

/**
 * How a credit note's money was settled, in one sentence (order pages, the document, mail), its amounts
 * in `currency`: the credited order's (US dollars when not named).
 */
export function settlementWords(
  note: CreditSettlement & {
    refundStatus: RefundStatus | null;
    payout?: { paidAt: string; reference: string; amountCents?: number } | null;
    /** Its credit that came off later orders of the account. */
    usedCents?: number;
  },
  currency?: Currency,
) {
  const money = (cents: number) => formatCents(cents, { currency });
  const parts: string[] = [];
  const used = note.usedCents ?? 0;
  if (note.refundCents)
    parts.push(
      `${money(note.refundCents)} ${note.refundStatus === "succeeded" ? "refunded to the card" : note.refundStatus === "failed" || note.refundStatus === "canceled" ? `not refunded to the card (Stripe reported the refund ${note.refundStatus}): ${note.payout ? "paid out by bank instead" : "we pay it to your bank instead"}` : "being refunded to the card"}`,
    );
  if (note.appliedCents) parts.push(`${money(note.appliedCents)} taken off what is due on the invoice`);
  if (used) parts.push(`${money(used)} came off your later orders`);
  if (note.payout)
    parts.push(
      `${money(note.payout.amountCents ?? note.accountCreditCents)} paid out to your bank on ${formatDate(note.payout.paidAt)} (reference ${note.payout.reference})`,
    );
  else if (note.accountCreditCents - used > 0)
    parts.push(`${money(note.accountCreditCents - used)} credited to your account (it comes off your next order)`);
  return parts.length ? `${parts.join("; ")}.` : "Nothing to pay back.";
}

/** A credit note (CN-000042): the units credited, its amounts, and where the money went. */
export type CreditNoteView = {
  id: string;
  number: string;
  issuedAt: string;
  issuedBy: string | null;
  reason: CreditReason;
  /** The return whose received units it credits, and its RMA number. */
  returnId: string | null;
  returnNumber: string | null;
  lines: {
    lineIndex: number;
    partNumber: string;
    productName: string;
    unitPriceCents: number;
    quantity: number;
    netCents: number;
  }[];
  netCents: number;
  taxLines: TaxLine[];
  taxCents: number;
  totalCents: number;
  refundCents: number;
  appliedCents: number;
  accountCreditCents: number;
  /** Its refund to the card: when it succeeded, or when Stripe reported it failed or cancelled. */
  refund: { id: string | null; status: RefundStatus; refundedAt: string | null; failedAt: string | null } | null;
  /** Its credit taken off other invoices of the account: the sum, and each use (the order it went to). */
  usedCents: number;
  uses: { id: string; orderId: string; amountCents: number; at: string }[];
  /** The account credit paid out by bank, once staff recorded it. */
  payout: { paidAt: string; amountCents: number; reference: string; by: string | null } | null;
};
