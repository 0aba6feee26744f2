/**
 * Invoice numbers against the real database: given once, at payment, with no gap and no duplicate
 * under 50 concurrent payments; a second confirmation or a racing repair takes no second number,
 * and a number taken but not used is given back and used next.
 */
import { describe, expect, test } from "vitest";
import { assignInvoiceNumber, invoiceCounter } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";

/** Every number issued is on exactly one order or given back: 1..seq, nothing missing, nothing twice. */
async function expectNoGapNoDuplicate() {
  const { seq, free } = await invoiceCounter();
  const docs = await Order.find({ invoiceNumber: { $exists: true } }, { invoiceNumber: 1 }).lean();
  const used = docs.map((doc) => doc.invoiceNumber!);
  const all = [...used, ...free].sort((a, b) => a - b);
  expect(all).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
}

const pay = (order: { id: string; totalCents: number }, transactionId = `pi_inv_${order.id}`) =>
  markOrderPaid({ orderId: order.id, transactionId, amountCents: order.totalCents, currency: "usd" }).then(
    (result) => result.outcome,
  );

describe("invoice numbers", () => {
  test("50 concurrent payments: 50 numbers, no gap, no duplicate; unpaid orders get none", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 700 });
    const orders = await Promise.all(
      Array.from({ length: 50 }, () => createOrder({ user: customer, part, status: "unpaid" })),
    );
    const unpaid = await createOrder({ user: customer, part, status: "unpaid" });
    const before = await invoiceCounter();

    const outcomes = await Promise.all(orders.map((order) => pay(order)));
    expect(outcomes).toEqual(orders.map(() => "paid"));

    const numbers = (
      await Order.find({ _id: { $in: orders.map((order) => order.id) } }, { invoiceNumber: 1, invoicedAt: 1 }).lean()
    ).map((doc) => doc.invoiceNumber);
    expect(numbers.every((number) => Number.isInteger(number) && number! > 0)).toBe(true);
    expect(new Set(numbers).size).toBe(50);
    const after = await invoiceCounter();
    expect(after.seq - before.seq + before.free.length - after.free.length).toBe(50);
    expect((await Order.findById(unpaid.id).lean())?.invoiceNumber).toBeUndefined();
    await expectNoGapNoDuplicate();
  }, 120_000);

  test("the webhook and the return page confirming together, and repairs racing them, give one number", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "unpaid" });
    const results = await Promise.all([
      pay(order, "pi_same_1"),
      pay(order, "pi_same_1"),
      ...Array.from({ length: 8 }, () => assignInvoiceNumber(order.id)),
    ]);
    expect(results.filter((result) => result === "paid")).toHaveLength(1);
    const doc = await Order.findById(order.id).lean();
    expect(doc?.invoiceNumber).toBeGreaterThan(0);
    // Every repair that ran after the payment answered the order's one number.
    for (const result of results.slice(2)) expect([null, doc?.invoiceNumber]).toContain(result);
    expect(await assignInvoiceNumber(order.id)).toBe(doc?.invoiceNumber);
    await expectNoGapNoDuplicate();
  }, 120_000);

  test("a paid order without a number (a crash between the writes) is numbered once by the repair; numbers given back are used first", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "paid" });
    const results = await Promise.all(Array.from({ length: 10 }, () => assignInvoiceNumber(order.id)));
    const number = (await Order.findById(order.id).lean())?.invoiceNumber;
    expect(results).toEqual(results.map(() => number));
    await expectNoGapNoDuplicate();

    const given = (await invoiceCounter()).free;
    if (given.length) {
      const next = await createOrder({ user: customer, status: "paid" });
      expect(await assignInvoiceNumber(next.id)).toBe(Math.min(...given));
    }
    await expectNoGapNoDuplicate();
    expect(await assignInvoiceNumber((await createOrder({ user: customer })).id)).toBe(null);
  });
});
