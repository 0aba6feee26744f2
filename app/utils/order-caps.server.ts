import { getUserById } from "~/models/user.server";
import { formatCents } from "./misc";
import { getEnv } from "./env.server";

/**
 * The caps on what one customer may hold in orders awaiting card payment: how many orders and
 * their total. An account whose email is not verified gets the lower defaults; an admin can set a
 * customer's own (on their record). They keep one account from holding the catalogue unpaid.
 */
export type UnpaidCaps = { orders: number; valueCents: number; verified: boolean; own: boolean };

/** The shop's caps for an account with (or without) a verified email. */
export function shopUnpaidCaps(verified: boolean) {
  const env = getEnv();
  return verified
    ? { orders: env.UNPAID_ORDERS_CAP, valueCents: env.UNPAID_VALUE_CAP * 100, verified }
    : { orders: env.UNVERIFIED_UNPAID_ORDERS_CAP, valueCents: env.UNVERIFIED_UNPAID_VALUE_CAP * 100, verified };
}

export async function unpaidCapsOf(userId: string): Promise<UnpaidCaps> {
  const env = getEnv();
  const user = await getUserById(userId);
  const verified = Boolean(user?.emailVerified);
  const orders = user?.unpaidCaps.orders ?? (verified ? env.UNPAID_ORDERS_CAP : env.UNVERIFIED_UNPAID_ORDERS_CAP);
  const valueCents =
    user?.unpaidCaps.valueCents ?? (verified ? env.UNPAID_VALUE_CAP : env.UNVERIFIED_UNPAID_VALUE_CAP) * 100;
  return {
    orders,
    valueCents,
    verified,
    own: Boolean(user && (user.unpaidCaps.orders !== null || user.unpaidCaps.valueCents !== null)),
  };
}

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
 * one not counted), or null when it fits.
 */
export function capRefusal(caps: UnpaidCaps, open: { count: number; totalCents: number }, totalCents: number) {
  const who = caps.own ? "your account" : caps.verified ? "an account" : "an account whose email is not verified";
  if (open.count + 1 > caps.orders) {
    return (
      `You already have ${open.count} ${open.count === 1 ? "order" : "orders"} awaiting card payment, ` +
      `the most ${who} may hold unpaid (${caps.orders}). ${howToLift(caps)}`
    );
  }
  if (open.totalCents + totalCents > caps.valueCents) {
    const already = open.count ? ` with the ${formatCents(open.totalCents)} already awaiting payment` : "";
    return (
      `This order of ${formatCents(totalCents)}${already} is more than ${who} may hold unpaid ` +
      `(${formatCents(caps.valueCents)}). ${howToLift(caps)}`
    );
  }
  return null;
}
