/**
 * How an order's money came, in words: the payments received (a card payment through Stripe, and
 * each bank transfer, cheque or cash payment staff recorded), the terms it was sold on, and what is
 * still due. The order pages, the invoice, mail and the CSV all say it with these functions.
 */
import { formatCents } from "~/format";
import type { Currency } from "./money";
import { PAYMENT_METHOD_WORDS, termsWords, type PaymentMethod } from "./order-states";

/** How the customer chose to pay when ordering. */
export const ORDER_PAYMENT_METHODS = ["card", "account", "bank-transfer"] as const;
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number];

export type PaymentFacts = {
  /** The currency of the sale, every amount below in its minor unit (US dollars when not named). */
  currency?: Currency;
  paymentMethod: OrderPaymentMethod;
  termsDays: number | null;
  /** The Stripe PaymentIntent of a card payment. */
  transactionId: string | null;
  paidAt: string | null;
  paidCents: number;
  totalCents: number;
  balanceCents: number;
  payments: {
    amountCents: number;
    method: PaymentMethod;
    receivedOn: string;
    reference: string;
    reversedAt: string | null;
  }[];
  /** Account credit taken off the order: the credit note it came from, the day and the amount. */
  creditUses?: { noteNumber: string; amountCents: number; at: string }[];
};

/** How account credit taken off an order reads among its payments received. */
export const ACCOUNT_CREDIT = "Account credit";

/** One payment received, as a document or a page lists it. */
export type ReceivedPayment = {
  /** The day the money arrived (ISO). */
  on: string;
  /** "Card", "Bank transfer", "Cheque", "Cash", "Account credit". */
  method: string;
  /** How it came, as the e-invoice's payment means reads it. */
  means: "card" | PaymentMethod | "credit";
  /** The bank's reference, the cheque number, or the card payment's id; "" when none was given. */
  reference: string;
  amountCents: number;
};

/**
 * Every payment received and not reversed, oldest first: the card payment, those recorded, and
 * account credit taken off the order (its credit note as the reference).
 */
export function receivedPayments(order: PaymentFacts): ReceivedPayment[] {
  const card: ReceivedPayment[] =
    order.transactionId && order.paidAt
      ? [
          {
            on: order.paidAt,
            method: "Card",
            means: "card" as const,
            reference: order.transactionId,
            amountCents: order.paidCents,
          },
        ]
      : [];
  const recorded = order.payments
    .filter((payment) => !payment.reversedAt)
    .map((payment) => ({
      on: payment.receivedOn,
      method: PAYMENT_METHOD_WORDS[payment.method],
      means: payment.method,
      reference: payment.reference,
      amountCents: payment.amountCents,
    }));
  const credit = (order.creditUses ?? []).map((use) => ({
    on: use.at,
    method: ACCOUNT_CREDIT,
    means: "credit" as const,
    reference: use.noteNumber,
    amountCents: use.amountCents,
  }));
  return [...card, ...recorded, ...credit].sort((a, b) => a.on.localeCompare(b.on));
}

const listWords = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;

/** "bank transfer", "card and cheque": how the money received came. */
function methodsWords(order: PaymentFacts) {
  const methods = [...new Set(receivedPayments(order).map((payment) => payment.method.toLowerCase()))];
  return listWords(methods);
}

/** The terms the order was sold on: the invoice's "Terms" line. */
export function termsOf(order: PaymentFacts): string {
  if (order.paymentMethod === "account") return termsWords(order.termsDays);
  if (order.transactionId) return "Card, at the time of order";
  if (order.paymentMethod === "bank-transfer") return "Bank transfer before dispatch (pro-forma)";
  const received = receivedPayments(order);
  if (received.length) return `Paid before dispatch by ${methodsWords(order)}`;
  return "Card, at the time of order";
}

/**
 * The order's payment in one line, as the order pages show it: "Paid by bank transfer",
 * "On account, net 30 days; part-paid by cheque, $600.00 still due", "Bank transfer (pro-forma), awaiting payment".
 */
export function paymentLine(order: PaymentFacts): string {
  const received = receivedPayments(order);
  const base =
    order.paymentMethod === "account"
      ? `On account, ${termsWords(order.termsDays).toLowerCase()}`
      : order.paymentMethod === "bank-transfer"
        ? "Bank transfer (pro-forma)"
        : "By card";
  if (!received.length) {
    if (order.paymentMethod === "account") return base;
    return order.balanceCents > 0 ? `${base}, awaiting payment` : base;
  }
  const how = methodsWords(order);
  const paid =
    order.balanceCents > 0
      ? `part-paid by ${how}, ${formatCents(order.balanceCents, { currency: order.currency })} still due`
      : `paid by ${how}`;
  if (order.paymentMethod === "account") return `${base}; ${paid}`;
  return paid.charAt(0).toUpperCase() + paid.slice(1);
}
