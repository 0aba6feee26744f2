/**
 * The demo shows the shop at work on first start: seeded into a database of its own, as
 * `npm run demo` seeds a new one, it has an order in every state and a statement with an overdue invoice.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { listApiKeys } from "~/models/api-key.server";
import { listOverdue, Order } from "~/models/order.server";
import { User } from "~/models/user.server";
import { ensureDemoData } from "~/utils/demo-data.server";

beforeAll(async () => {
  await ensureDemoData();
});

describe("the demo data", () => {
  test("holds orders awaiting card payment, on account, overdue, part-paid, paid to ship, shipped and cancelled", async () => {
    const demo = await Order.find({
      userEmail: { $in: ["customer@partsworks.test", "trade@partsworks.test"] },
    }).lean();
    const statuses = new Set(demo.map((order) => order.status));
    for (const status of ["unpaid", "account", "paid", "shipped", "cancelled"]) expect(statuses).toContain(status);
    expect(demo.some((order) => order.shipment?.trackingNumber)).toBe(true);
    // Part-paid: money recorded, less than the total.
    expect(demo.some((order) => (order.paidCents ?? 0) > 0 && (order.paidCents ?? 0) < order.totalCents)).toBe(true);

    const overdue = await listOverdue(100);
    expect(overdue.orders.map((order) => order.userEmail)).toContain("trade@partsworks.test");
  });

  test("the trade customer's API keys screen lists a key, once however often the demo starts", async () => {
    await ensureDemoData();
    const trade = await User.findOne({ email: "trade@partsworks.test" }).lean();
    const keys = await listApiKeys(trade!._id.toString());
    expect(keys.map((key) => [key.name, key.scopes])).toEqual([["Purchasing system", ["read", "order"]]]);
  });
});
