/**
 * Checkout is a workflow of named steps, each with its compensation: a failure after any step
 * leaves the stock, the cart and the orders exactly as they were, and the customer may check the
 * same cart out again. The failure comes through the workflow's own seam between steps
 * (`afterStep`), on the real services and the local database; the order is a cart checkout of two
 * lines, by card, on account, and on account over a buyer's limit (sent for approval).
 */
import { describe, expect, test, vi } from "vitest";
import { Cart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { CHECKOUT_STEPS } from "~/orders/checkout.server";
import { newOrderId } from "~/orders/model/placing.server";
import { Order } from "~/orders/model/schema.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { createPart, createUser } from "../setup/factories";
import { DETROIT } from "../fixtures/addresses";
import { runSweepsNow } from "../setup/sweeps";

const delivery = { phone: "+1 555 0100", delivery: DETROIT };

type Payment = "card" | "account" | "approval";

async function shop(payment: Payment) {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName: `Steps ${owner.id.slice(-5)}`, account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
  );
  // Over the limit of $10: the order waits for the owner's approval.
  const buyer =
    payment === "approval"
      ? await createUser({
          name: "Ben Buyer",
          company: { id: owner.companyId, role: "buyer" },
          spendingLimitCents: 1000,
        })
      : owner;
  const parts = await Promise.all([createPart({ availableQuantity: 500 }), createPart({ availableQuantity: 300 })]);
  const lines = [
    { partId: parts[0].id, quantity: 120 },
    { partId: parts[1].id, quantity: 100 },
  ];
  await Cart.updateOne(
    { userId: buyer.id },
    { $set: { lines, notices: [], version: 1 }, $unset: { checkout: "" } },
    { upsert: true },
  );
  return { buyer, parts, lines };
}

/** What a checkout may change: each part's stock and holds, the cart, the buyer's orders. */
async function state(userId: string, partIds: string[]) {
  const parts = await Part.find({ _id: { $in: partIds } }, { availableQuantity: 1, onHand: 1, holds: 1 })
    .sort({ _id: 1 })
    .lean();
  const cart = await Cart.findOne({ userId }, { lines: 1, checkout: 1 }).lean();
  return JSON.parse(
    JSON.stringify({
      parts: parts.map((part) => ({ available: part.availableQuantity, onHand: part.onHand, holds: part.holds ?? [] })),
      cartLines: cart?.lines.map((line) => ({ partId: line.partId, quantity: line.quantity })),
      claimed: Boolean(cart?.checkout?.orderId),
      orders: await Order.countDocuments({ userId }),
    }),
  );
}

const mailOf = (orderId: string) => Outbox.countDocuments({ _id: { $regex: `^(order|approval):${orderId}:` } });

/** The cart checkout as the cart screen runs it: the cart's lines, for a fresh order id (its first step claims the cart). */
async function checkOut(
  { buyer, lines }: Awaited<ReturnType<typeof shop>>,
  payment: Payment,
  afterStep?: (name: string) => void,
) {
  const orderId = newOrderId();
  const placing = placeCustomerOrder(
    { lines, ...delivery, user: buyer, orderId, fromCart: true, payment: payment === "card" ? "card" : "account" },
    { afterStep },
  );
  return { orderId, placing };
}

describe("checkout as a workflow", () => {
  test("its steps, in the order they run", () => {
    expect(CHECKOUT_STEPS).toEqual([
      "claim-cart",
      "claim-quote",
      "check-payment-terms",
      "validate-lines",
      "price-and-tax",
      "check-caps-and-credit",
      "write-reserving-order",
      "hold-stock",
      "confirm-or-send-for-approval",
      "mark-quote-accepted",
      "apply-account-credit",
      "raise-events",
      "post-to-ledger",
      "remember-address",
    ]);
  });

  for (const payment of ["card", "account", "approval"] as const) {
    test(`${payment}: a failure after each step leaves stock, cart and orders as they were; then the checkout places the order`, async () => {
      const setup = await shop(payment);
      const partIds = setup.parts.map((part) => part.id);
      const before = await state(setup.buyer.id, partIds);
      expect(before.claimed).toBe(false);
      // Every step before the order is confirmed: from then on the order is placed and stays.
      const commit = CHECKOUT_STEPS.indexOf("confirm-or-send-for-approval");
      for (const failing of CHECKOUT_STEPS.slice(0, commit)) {
        const ran: string[] = [];
        const { orderId, placing } = await checkOut(setup, payment, (name) => {
          ran.push(name);
          if (name === failing) throw new Error(`injected after ${name}`);
        });
        await expect(placing).rejects.toThrow(`injected after ${failing}`);
        expect(ran).toEqual(CHECKOUT_STEPS.slice(0, CHECKOUT_STEPS.indexOf(failing) + 1));
        expect(await Order.exists({ _id: orderId }), `order left after ${failing}`).toBeNull();
        expect(await mailOf(orderId), `mail after ${failing}`).toBe(0);
        expect(await state(setup.buyer.id, partIds), `after a failure after ${failing}`).toEqual(before);
      }

      // A failure once the order is confirmed: placed all the same, and the sweeps empty the cart,
      // number an invoice on account and send the mail the last step did not.
      const cut = await checkOut(setup, payment, (name) => {
        if (name === "confirm-or-send-for-approval") throw new Error("cut after the confirmation");
      });
      const error = vi.spyOn(console, "error").mockImplementation(() => {});
      expect((await cut.placing).ok).toBe(true);
      error.mockRestore();
      expect(await mailOf(cut.orderId)).toBe(0);
      await runSweepsNow();
      expect(await mailOf(cut.orderId)).toBeGreaterThan(0);
      const swept = await Order.findById(cut.orderId).lean();
      expect(swept?.eventsPending ?? []).toEqual([]);
      if (payment === "account") expect(swept?.invoiceNumber).toBeGreaterThan(0);
      expect(await state(setup.buyer.id, partIds)).toMatchObject({ cartLines: [], claimed: false, orders: 1 });
      // The customer fills the cart again and checks it out whole.
      await Cart.updateOne({ userId: setup.buyer.id }, { $set: { lines: setup.lines, version: 2 } });

      const { orderId, placing } = await checkOut(setup, payment);
      const placed = await placing;
      expect(placed.ok).toBe(true);
      const order = await Order.findById(orderId).lean();
      expect(order?.status).toBe({ card: "unpaid", account: "account", approval: "approval" }[payment]);
      if (payment === "account") expect(order?.invoiceNumber).toBeGreaterThan(0);
      const after = await state(setup.buyer.id, partIds);
      expect(after.parts.map((part: { available: number }) => part.available)).toEqual([260, 100]);
      expect(after.parts.map((part: { holds: unknown[] }) => part.holds.length)).toEqual([2, 2]);
      expect(after).toMatchObject({ cartLines: [], claimed: false, orders: 2 });
      // Its mail: the order placed to the customer, or the owner's approval request.
      expect(await mailOf(orderId)).toBeGreaterThan(0);
    });
  }
});
