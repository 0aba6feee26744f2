/**
 * The one place that names an order's state and its words: every screen, email, document and CSV
 * reads them from here (shared by server and browser). The state is worked out from the stored
 * status, the money received and the due date, so "overdue" needs no job to flip it.
 */
import { formatDate } from "~/format";

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

/** The state's word with what goes with it: "On account, due Dec 25, 2026", "Overdue since …". */
export function orderStateText(order: { state: OrderState; dueAt: string | null }) {
  const word = ORDER_STATE_WORDS[order.state];
  if (order.state === "on-account" && order.dueAt) return `${word}, due ${formatDay(order.dueAt)}`;
  if (order.state === "overdue" && order.dueAt) return `${word}, was due ${formatDay(order.dueAt)}`;
  return word;
}

/** Payment terms: none (card only) or net days. */
export const PAYMENT_TERMS = [0, 7, 15, 30, 60] as const;
export type PaymentTerms = (typeof PAYMENT_TERMS)[number];
export const termsWords = (days: number | null | undefined) => (days ? `Net ${days} days` : "None (card only)");

/** Staff may remove an order that holds stock with nothing paid: unpaid, or still waiting for approval. */
export const removableByStaff = (state: OrderState) => state === "unpaid" || state === "approval";
