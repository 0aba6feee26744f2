/**
 * A placed order paid in full, as the money tests need one: by card (Stripe's evidence, as the
 * webhook applies it) or by bank transfer (recorded by staff), through the real services.
 */
import { randomUUID } from "node:crypto";
import { applyPaymentEvidence } from "~/orders/card-payments.server";
import { placeOrder } from "~/orders/checkout.server";
import { getOrderById } from "~/orders/model/reads.server";
import { recordPayment } from "~/orders/service.server";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser } from "./factories";

export const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
export const stripeId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "1 Credit Road" } };

type Customer = Awaited<ReturnType<typeof createUser>>;

/** `quantity` units of a part at $12.50, paid by card or bank transfer; the order as it is then. */
export async function paidOrder(quantity: number, how: "bank-transfer" | "card", user?: Customer) {
  const part = await createPart({ availableQuantity: 2000, minOrderQuantity: 10, priceCents: 1_250 });
  const customer = user ?? (await createUser());
  const placed = await placeOrder({ lines: [{ partId: part.id, quantity }], ...delivery, user: customer });
  if (!placed.ok) throw new Error("not placed");
  const order = placed.order;
  if (how === "card") {
    const outcome = await applyPaymentEvidence({
      orderId: order.id,
      transactionId: stripeId("pi"),
      amountCents: order.totalCents,
      currency: "usd",
    });
    if (outcome !== "paid") throw new Error(`not paid: ${outcome}`);
  } else {
    const paid = await recordPayment(
      order.id,
      { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "BANK-1" },
      staff,
    );
    if (!paid.ok) throw new Error(paid.message);
  }
  return { part, user: customer, order: (await getOrderById(order.id))! };
}
