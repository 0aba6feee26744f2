import type { UnpaidCaps } from "~/domain/order-caps";
import { modelSettings } from "./settings.server";
import { getUserById, type UserView } from "./user.server";

/** The shop's caps for an account with (or without) a verified email. */
export function shopUnpaidCaps(verified: boolean) {
  const caps = modelSettings().unpaidCaps;
  return { ...(verified ? caps.verified : caps.unverified), verified };
}

/** The caps of a customer (as read just now, or read here by id). */
export async function unpaidCapsOf(customer: string | UserView): Promise<UnpaidCaps> {
  const user = typeof customer === "string" ? await getUserById(customer) : customer;
  const verified = Boolean(user?.emailVerified);
  const shop = shopUnpaidCaps(verified);
  const orders = user?.unpaidCaps.orders ?? shop.orders;
  const valueCents = user?.unpaidCaps.valueCents ?? shop.valueCents;
  return {
    orders,
    valueCents,
    verified,
    own: Boolean(user && (user.unpaidCaps.orders !== null || user.unpaidCaps.valueCents !== null)),
  };
}
