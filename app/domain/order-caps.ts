import { formatCents } from "~/format";
import type { Currency } from "./money";

/**
 * The caps on what one customer may hold in orders awaiting card payment: how many orders and
 * their total. An account whose email is not verified gets the lower defaults; an admin can set a
 * customer's own (on their record). They keep one account from holding the catalogue unpaid.
 */
export type UnpaidCaps = { orders: number; valueCents: number; verified: boolean; own: boolean };

/** What lifts the cap, said to the customer: verify, pay or cancel, or ask the shop. */
function howToLift(caps: UnpaidCaps) {
  const steps = [
    caps.verified || caps.own ? null : "verify your email (My Profile) to raise it",
    "pay or cancel an open order in My Orders",
    "or ask the shop to raise your account's limit",
  ].filter(Boolean);
  return `To go on, ${steps.join(", ")}.`;
}

/**
 * Why a new order of `totalCents` is over the caps, given the customer's open card orders (this
 * one not counted), or null when it fits; amounts in `currency`, the order's (US dollars when not named).
 */
export function capRefusal(
  caps: UnpaidCaps,
  open: { count: number; totalCents: number },
  totalCents: number,
  currency?: Currency,
) {
  const money = (cents: number) => formatCents(cents, { currency });
  const who = caps.own ? "your account" : caps.verified ? "an account" : "an account whose email is not verified";
  if (open.count + 1 > caps.orders) {
    return (
      `You already have ${open.count} ${open.count === 1 ? "order" : "orders"} awaiting card payment, ` +
      `the most ${who} may hold unpaid (${caps.orders}). ${howToLift(caps)}`
    );
  }
  if (open.totalCents + totalCents > caps.valueCents) {
    const already = open.count ? ` with the ${money(open.totalCents)} already awaiting payment` : "";
    return (
      `This order of ${money(totalCents)}${already} is more than ${who} may hold unpaid ` +
      `(${money(caps.valueCents)}). ${howToLift(caps)}`
    );
  }
  return null;
}

/** An order on account that the credit limit refuses: the limit, what is open on account, the order, and why in words. */
export type CreditRefusal = { limitCents: number; balanceCents: number; orderCents: number; message: string };

/** Why an order on account is refused by the credit limit, and what to do instead (in `currency`: the account's and the order's). */
export function creditMessage(
  { limitCents, balanceCents, orderCents }: Omit<CreditRefusal, "message">,
  currency?: Currency,
) {
  const money = (cents: number) => formatCents(cents, { currency });
  return (
    `This order (${money(orderCents)}) would take your account past its credit limit of ` +
    `${money(limitCents)}: ${money(balanceCents)} is open or awaiting approval on account now. ` +
    `Pay an open invoice (see your statement) or pay this order by card.`
  );
}
