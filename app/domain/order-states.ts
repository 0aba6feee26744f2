/**
 * The one place that names an order's state and its words: every screen, email, document and CSV
 * reads them from here (shared by server and browser). The state is worked out from the stored
 * status, the money received and the due date, so "overdue" needs no job to flip it.
 */
import { formatCents, formatDate } from "~/format";
import { creditHeldCents, owedByBank, type RefundStatus } from "./credit-notes";
import type { Currency } from "./money";

export const ORDER_STATES = [
  "approval",
  "unpaid",
  "part-paid",
  "on-account",
  "overdue",
  "pending",
  "part-shipped",
  "shipped",
  "cancelled",
  "removed",
  "expired",
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The word for each state. Unpaid, Pending and Shipped are the spec's (Manage Orders). */
export const ORDER_STATE_WORDS: Record<OrderState, string> = {
  approval: "Submitted for approval",
  unpaid: "Unpaid",
  "part-paid": "Part-paid",
  "on-account": "On account",
  overdue: "Overdue",
  pending: "Pending",
  "part-shipped": "Part-shipped",
  shipped: "Shipped",
  cancelled: "Cancelled",
  removed: "Removed",
  expired: "Expired unpaid",
};

/** What each state means, for the filter's options and help. */
export const ORDER_STATE_MEANINGS: Record<OrderState, string> = {
  approval: "Submitted for approval (over a buyer's limit per order; its stock is held)",
  unpaid: "Unpaid (awaiting payment)",
  "part-paid": "Part-paid (balance left)",
  "on-account": "On account (invoiced, not yet due)",
  overdue: "Overdue (on account, past due)",
  pending: "Pending (paid, to ship)",
  "part-shipped": "Part-shipped (paid; some parcels have left, the rest is to ship)",
  shipped: "Shipped (paid)",
  cancelled: "Cancelled (by the customer while unpaid, or by the shop before shipping, with a credit note)",
  removed: "Removed by the shop",
  expired: "Expired unpaid (its hold on the stock ran out)",
};

export const PAYMENT_METHODS = ["bank-transfer", "cheque", "cash"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_WORDS: Record<PaymentMethod, string> = {
  "bank-transfer": "Bank transfer",
  cheque: "Cheque",
  cash: "Cash",
};

type StateInput = {
  status: string;
  totalCents: number;
  paidCents: number;
  paidAt?: Date | string | null;
  dueAt?: Date | string | null;
  /** Some parcels have left (the order is not shipped whole yet while its status is not shipped). */
  partShipped?: boolean;
};

/** The state of an order at `now`. An order on account shows its money's state until it is paid. */
export function orderState(order: StateInput, now: Date = new Date()): OrderState {
  const { status } = order;
  if (status === "cancelled" || status === "removed" || status === "expired") return status;
  if (status === "approval") return "approval";
  const paid = Boolean(order.paidAt) || status === "paid";
  if (paid) return status === "shipped" ? "shipped" : order.partShipped ? "part-shipped" : "pending";
  if (order.dueAt && new Date(order.dueAt).getTime() < now.getTime()) return "overdue";
  if (order.paidCents > 0 && order.paidCents < order.totalCents) return "part-paid";
  if (status === "account" || (status === "shipped" && order.dueAt)) return "on-account";
  return "unpaid";
}

/** A day as app/format writes it (a fixed locale and time zone, so server and browser agree). */
export const formatDay = (iso: string | Date) => formatDate(iso);

/**
 * The state's word with what goes with it: "On account, due Dec 25, 2026", "Overdue since …", and for a
 * cancelled order that was paid, where its money went: "Cancelled · refunded", "Cancelled · credited".
 */
export function orderStateText(order: { state: OrderState; dueAt: string | null; creditNotes?: CreditedMoney[] }) {
  const word = ORDER_STATE_WORDS[order.state];
  if (order.state === "on-account" && order.dueAt) return `${word}, due ${formatDay(order.dueAt)}`;
  if (order.state === "overdue" && order.dueAt) return `${word}, was due ${formatDay(order.dueAt)}`;
  if (order.state === "cancelled" && order.creditNotes?.length) {
    const money = moneyBack(order.creditNotes);
    const how = [money.refunded ? "refunded" : "", money.credited ? "credited" : ""].filter(Boolean).join(" and ");
    return how ? `${word} · ${how}` : word;
  }
  return word;
}

/** What of a credit note's money the words of an ended order need (a CreditNoteView has it all). */
export type CreditedMoney = {
  refundCents: number;
  accountCreditCents: number;
  /** What of its account credit already went off other invoices. */
  usedCents?: number | null;
  refund: { status: RefundStatus } | null;
  payout: { paidAt: string; amountCents: number; reference: string } | null;
};

const refundLost = (note: CreditedMoney) => note.refund?.status === "failed" || note.refund?.status === "canceled";

/**
 * Where the money of an order's credit notes went: back to the card (or on its way), owed by bank after a
 * refund the card's bank refused, held on the account, paid out by bank. `refunded` and `credited` say
 * whether any went back to the customer, and whether any was credited to their account.
 */
export function moneyBack(notes: CreditedMoney[]) {
  let toCardCents = 0;
  let cardPending = false;
  let lostCents = 0;
  let heldCents = 0;
  let creditedCents = 0;
  const payouts: { paidAt: string; amountCents: number; reference: string }[] = [];
  for (const note of notes) {
    const lost = refundLost(note);
    if (!lost && note.refundCents) {
      toCardCents += note.refundCents;
      cardPending ||= note.refund?.status !== "succeeded";
    }
    if (note.payout) {
      payouts.push(note.payout);
      continue;
    }
    creditedCents += owedByBank(note);
    const held = creditHeldCents(note);
    const lostHere = lost ? Math.min(note.refundCents, held) : 0;
    lostCents += lostHere;
    heldCents += held - lostHere;
  }
  return {
    toCardCents,
    cardPending,
    lostCents,
    heldCents,
    payouts,
    refunded: toCardCents > 0 || payouts.length > 0,
    credited: creditedCents > 0,
  };
}

/**
 * A cancelled order in one sentence for its customer (amounts in the order's currency): where its money
 * went, and what they may do about money held on their account (`mayAskPayout`: they may ask for it by
 * bank; the page adds the button).
 * Null for an order that was never paid (nothing to say beyond "Cancelled").
 */
export function cancelledMoneyWords(
  order: { state: OrderState; paid: boolean; creditNotes: CreditedMoney[]; currency?: Currency },
  mayAskPayout: boolean,
) {
  const amount = (cents: number) => formatCents(cents, { currency: order.currency });
  if (order.state !== "cancelled") return null;
  if (!order.creditNotes.length)
    return order.paid ? "Cancelled: its credit note follows shortly, with where your money goes." : null;
  const money = moneyBack(order.creditNotes);
  const parts: string[] = [];
  if (money.toCardCents)
    parts.push(`${amount(money.toCardCents)} ${money.cardPending ? "being refunded" : "refunded"} to your card`);
  for (const payout of money.payouts)
    parts.push(
      `${amount(payout.amountCents)} paid out to your bank on ${formatDay(payout.paidAt)} (reference ${payout.reference})`,
    );
  if (money.lostCents)
    parts.push(`${amount(money.lostCents)} to come back to you by bank (the refund to your card did not go through)`);
  if (money.heldCents) parts.push(`${amount(money.heldCents)} credited to your account`);
  if (!parts.length) return "Cancelled: nothing is owed on it.";
  const said = `Cancelled, ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0]}`;
  if (!money.heldCents) return `${said}.`;
  return mayAskPayout
    ? `${said}: it comes off your next order, or ask us to pay it out.`
    : `${said}: it comes off your next order, or your company's owners or accounts can ask us to pay it out.`;
}

/** Whether an ended order's customer has money on their account they may ask us to pay out. */
export const heldOnAccount = (notes: CreditedMoney[]) => moneyBack(notes).heldCents > 0;

/** Payment terms: none (card only) or net days. */
export const PAYMENT_TERMS = [0, 7, 15, 30, 60] as const;
export type PaymentTerms = (typeof PAYMENT_TERMS)[number];
export const termsWords = (days: number | null | undefined) => (days ? `Net ${days} days` : "None (card only)");

/** Staff may remove an order that holds stock with nothing paid: unpaid, or still waiting for approval. */
export const removableByStaff = (state: OrderState) => state === "unpaid" || state === "approval";
