/**
 * The demo shows the shop at work on first start: seeded into a database of its own, as
 * `npm run demo` seeds a new one, it has an order in every state and a statement with an overdue invoice.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { listMembers } from "~/models/company-member.server";
import { listAwaitingApproval, listOverdue, Order } from "~/models/order.server";
import { checkStock } from "~/models/stock-check.server";
import { User } from "~/models/user.server";
import { ensureDemoData } from "~/utils/demo-data.server";

let logins: Awaited<ReturnType<typeof ensureDemoData>>;
beforeAll(async () => {
  logins = await ensureDemoData();
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

  test("shows a company with an owner, a buyer with a limit, an accounts person and an order awaiting approval", async () => {
    const owner = await User.findOne({ email: "trade@partsworks.test" }).lean();
    const members = await listMembers(String(owner!.companyId));
    expect(members.map((member) => [member.email, member.role])).toEqual([
      ["trade@partsworks.test", "owner"],
      ["buyer@partsworks.test", "buyer"],
      ["accounts@partsworks.test", "accounts"],
    ]);
    expect(members.find((member) => member.role === "buyer")?.spendingLimitCents).toBe(150_000);
    const awaiting = await listAwaitingApproval(String(owner!.companyId));
    expect(awaiting).toHaveLength(1);
    expect(awaiting[0]).toMatchObject({ userEmail: "buyer@partsworks.test", state: "approval" });
    expect(awaiting[0].totalCents).toBeGreaterThan(150_000);
    // The logins printed at start name each member's part.
    expect(logins.map((login) => [login.email, login.role])).toEqual(
      expect.arrayContaining([
        ["buyer@partsworks.test", "buyer"],
        ["accounts@partsworks.test", "accounts"],
      ]),
    );
    // The held order's stock adds up, and a second run adds nothing.
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);
    await ensureDemoData();
    expect(await Order.countDocuments({ userEmail: "buyer@partsworks.test" })).toBe(1);
  });
});
