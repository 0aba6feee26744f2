/**
 * Orders of several lines against the real local database: all-or-nothing reservation with
 * compensation, 200 concurrent orders over overlapping parts, cancel/remove giving every line
 * back once, payment of the whole order, and the migration of one-part orders.
 */
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { cancelOrder, removeOrder } from "~/orders/model/holds.server";
import { Order } from "~/orders/model/schema.server";
import { placeOrder } from "~/orders/checkout.server";
import type { PlaceOrderResult } from "~/orders/checkout-order.server";
import { Part } from "~/models/part.server";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { loader as manageOrdersLoader } from "~/routes/dashboard.manageOrders";
import { loader as myOrdersLoader } from "~/routes/dashboard.orders";
import { loader as orderPageLoader } from "~/routes/dashboard.orders_.$id._index";
import { migrateDb } from "~/services/migrate.server";
import { createPart } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";
import { DETROIT } from "../fixtures/addresses";

const delivery = { phone: "+1 555 0100", delivery: DETROIT };
const stockOf = async (id: string) => (await Part.findById(id).lean())?.availableQuantity;

describe("an order of several lines", () => {
  test("reserves every line, snapshots each part and computes the totals; the same part twice is one line", async () => {
    const a = await createPart({ priceCents: 1200, availableQuantity: 1000 });
    const b = await createPart({ priceCents: 350, availableQuantity: 500, minOrderQuantity: 10 });
    const { user } = await signedIn();
    const result = await placeOrder({
      lines: [
        { partId: a.id, quantity: 100 },
        { partId: b.id, quantity: 20 },
        { partId: a.id, quantity: 150 },
      ],
      ...delivery,
      user,
    });
    expect(result.ok).toBe(true);
    const { order } = result as Extract<PlaceOrderResult, { ok: true }>;
    expect(order.lines).toEqual([
      {
        partId: a.id,
        partNumber: a.partNumber,
        productName: a.name,
        unitPriceCents: 1200,
        quantity: 250,
        lineTotalCents: 300_000,
        listUnitPriceCents: 1200,
        priceSource: "list",
        backorderedQuantity: 0,
        backorderExpectedOn: null,
        shippedQuantity: 0,
        returnedQuantity: 0,
      },
      {
        partId: b.id,
        partNumber: b.partNumber,
        productName: b.name,
        unitPriceCents: 350,
        quantity: 20,
        lineTotalCents: 7000,
        listUnitPriceCents: 350,
        priceSource: "list",
        backorderedQuantity: 0,
        backorderExpectedOn: null,
        shippedQuantity: 0,
        returnedQuantity: 0,
      },
    ]);
    // Michigan's 6 % on the net: the delivery address names no other place.
    expect(order).toMatchObject({
      netCents: 307_000,
      taxCents: 18_420,
      totalCents: 325_420,
      totalQuantity: 270,
      summary: `${a.name} + 1 more`,
      status: "unpaid",
    });
    expect(await stockOf(a.id)).toBe(750);
    expect(await stockOf(b.id)).toBe(480);
  });

  test("a line below the minimum, above the stock or for a removed part stops the whole order and says which", async () => {
    const good = await createPart({ availableQuantity: 1000 });
    const scarce = await createPart({ availableQuantity: 120 });
    const gone = await createPart();
    await Part.deleteOne({ _id: gone.id });
    const { user } = await signedIn();
    const before = await Order.countDocuments({ userId: user.id });
    const result = await placeOrder({
      lines: [
        { partId: good.id, quantity: 100 },
        { partId: good.id, quantity: 1 }, // merged with the first line: 101, fine
        { partId: scarce.id, quantity: 150 },
        { partId: gone.id, quantity: 100 },
      ],
      ...delivery,
      user,
    });
    expect(result).toEqual({
      ok: false,
      failures: [
        expect.objectContaining({
          index: 2,
          partId: scarce.id,
          reason: "above-stock",
          message: "Only 120 units are available",
        }),
        expect.objectContaining({
          index: 3,
          partId: gone.id,
          reason: "missing",
          message: "This part is no longer available",
        }),
      ],
    });
    const below = await placeOrder({ lines: [{ partId: good.id, quantity: 99 }], ...delivery, user });
    expect(below).toMatchObject({
      ok: false,
      failures: [{ reason: "below-minimum", message: "The minimum order is 100 units" }],
    });
    expect(await stockOf(good.id)).toBe(1000);
    expect(await stockOf(scarce.id)).toBe(120);
    expect(await Order.countDocuments({ userId: user.id })).toBe(before);
  });

  test("if the order cannot be stored after every line was reserved, every line's stock goes back", async () => {
    const a = await createPart({ availableQuantity: 500 });
    const b = await createPart({ availableQuantity: 500 });
    const { user } = await signedIn();
    await expect(
      placeOrder({
        lines: [
          { partId: a.id, quantity: 100 },
          { partId: b.id, quantity: 200 },
        ],
        phone: "5".repeat(41),
        delivery: DETROIT,
        user,
      }),
    ).rejects.toThrow();
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([500, 500]);
  });

  test("200 concurrent orders of several lines over overlapping parts never oversell and leave no stock reserved by a failed order", async () => {
    const parts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createPart({ availableQuantity: 4000 + i * 500, minOrderQuantity: 10, priceCents: 100 + i }),
      ),
    );
    const start = new Map(parts.map((part) => [part.id, part.availableQuantity]));
    const { user } = await signedIn();
    // One customer places all 200: their own caps on unpaid orders let the stock decide.
    await setUnpaidCaps(user.id, { orders: 1000, valueCents: 1e12 });
    // Deterministic "random" lines: 2 to 5 distinct parts per order, 10 to 400 units each. The
    // demand is about three times the stock, so many orders fail part-way.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const orders = Array.from({ length: 200 }, () => {
      const count = 2 + Math.floor(next() * 4);
      const picked = [...parts].sort(() => next() - 0.5).slice(0, count);
      return picked.map((part) => ({ partId: part.id, quantity: 10 + Math.floor(next() * 391) }));
    });

    const started = performance.now();
    const results = await Promise.all(orders.map((lines) => placeOrder({ lines, ...delivery, user })));
    const seconds = (performance.now() - started) / 1000;
    console.log(`200 concurrent multi-line orders in ${seconds.toFixed(1)} s`);

    const placed = results.filter((result) => result.ok);
    const failed = results.filter((result) => !result.ok);
    expect(placed.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) {
      expect(result.ok === false && result.failures.length).toBeGreaterThan(0);
      if (!result.ok)
        for (const failure of result.failures) expect(failure.message).toMatch(/units are available|try again/);
    }

    const stored = await Order.find({ userId: user.id }).lean();
    expect(stored).toHaveLength(placed.length);
    const orderedUnits = new Map<string, number>();
    for (const order of stored) {
      for (const line of order.lines) {
        const id = line.partId.toString();
        orderedUnits.set(id, (orderedUnits.get(id) ?? 0) + line.quantity);
      }
    }
    for (const part of parts) {
      const now = (await stockOf(part.id))!;
      expect(now).toBeGreaterThanOrEqual(0);
      // Exact: what is gone from stock is exactly what the stored orders hold.
      expect(start.get(part.id)! - now).toBe(orderedUnits.get(part.id) ?? 0);
    }
    expect(seconds).toBeLessThan(60);
  }, 120_000);

  test("cancelling (twice at once) or removing an order gives every line's stock back exactly once", async () => {
    const a = await createPart({ availableQuantity: 1000 });
    const b = await createPart({ availableQuantity: 1000 });
    const { user } = await signedIn();
    const lines = [
      { partId: a.id, quantity: 300 },
      { partId: b.id, quantity: 200 },
    ];
    const first = await placeOrder({ lines, ...delivery, user });
    const second = await placeOrder({ lines, ...delivery, user });
    if (!first.ok || !second.ok) throw new Error("orders not placed");
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([400, 600]);

    const cancels = await Promise.all([cancelOrder(first.order.id, user), cancelOrder(first.order.id, user)]);
    expect(cancels.filter(Boolean)).toHaveLength(1);
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([700, 800]);

    expect(await removeOrder(second.order.id)).not.toBeNull();
    expect(await removeOrder(second.order.id)).toBeNull();
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([1000, 1000]);
  });

  test("one payment of the order's total pays the whole order; another amount does not", async () => {
    const a = await createPart({ priceCents: 500 });
    const b = await createPart({ priceCents: 700 });
    const { user } = await signedIn();
    const placed = await placeOrder({
      lines: [
        { partId: a.id, quantity: 100 },
        { partId: b.id, quantity: 100 },
      ],
      ...delivery,
      user,
    });
    if (!placed.ok) throw new Error("not placed");
    const evidence = { orderId: placed.order.id, transactionId: "pi_lines_1", currency: "usd" };
    expect((await markOrderPaid({ ...evidence, amountCents: 50_000 })).outcome).toBe("mismatch");
    // The net alone is not the total: $1,200 and 6 % Michigan sales tax.
    expect((await markOrderPaid({ ...evidence, amountCents: 120_000 })).outcome).toBe("mismatch");
    expect((await markOrderPaid({ ...evidence, amountCents: 127_200 })).outcome).toBe("paid");
    expect((await Order.findById(placed.order.id).lean())?.status).toBe("paid");
  });
});

describe("the screens of an order of several lines", () => {
  test("My Orders and Manage Orders name it by its first part and '+ N more'; its page lists every line, to its owner only", async () => {
    const a = await createPart({ priceCents: 100 });
    const b = await createPart({ priceCents: 200 });
    const c = await createPart({ priceCents: 300 });
    const owner = await signedIn();
    const order = await createOrder({
      user: owner.user,
      lines: [
        { part: a, quantity: 100 },
        { part: b, quantity: 100 },
        { part: c, quantity: 100 },
      ],
    });

    const mine = await (
      await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie: owner.cookie }))))
    ).json();
    expect(mine.orders[0]).toMatchObject({
      id: order.id,
      summary: `${a.name} + 2 more`,
      lineCount: 3,
      totalQuantity: 300,
      totalCents: 60_000,
    });

    const page = await settle(
      orderPageLoader(
        loaderArgs(getRequest(`/dashboard/orders/${order.id}`, { cookie: owner.cookie }), { id: order.id }),
      ),
    );
    expect(page.status).toBe(200);
    const { order: shown } = await page.json();
    expect(
      shown.lines.map((line: { partNumber: string; lineTotalCents: number }) => [line.partNumber, line.lineTotalCents]),
    ).toEqual([
      [a.partNumber, 10_000],
      [b.partNumber, 20_000],
      [c.partNumber, 30_000],
    ]);

    const stranger = await signedIn();
    const hidden = await settle(
      orderPageLoader(
        loaderArgs(getRequest(`/dashboard/orders/${order.id}`, { cookie: stranger.cookie }), { id: order.id }),
      ),
    );
    expect(hidden.status).toBe(404);
    const malformed = await settle(
      orderPageLoader(loaderArgs(getRequest("/dashboard/orders/nope", { cookie: owner.cookie }), { id: "nope" })),
    );
    expect(malformed.status).toBe(404);

    const admin = await signedIn("admin");
    const all = await (
      await settle(manageOrdersLoader(loaderArgs(getRequest("/dashboard/manageOrders", { cookie: admin.cookie }))))
    ).json();
    expect(all.orders.find((row: { id: string }) => row.id === order.id)).toMatchObject({
      summary: `${a.name} + 2 more`,
      totalCents: 60_000,
    });
  });
});

describe("the migration of one-part orders", () => {
  test("turns every old order into an order of one line, keeps everything else, and runs once", async () => {
    const part = await createPart({ priceCents: 900 });
    // A database of its own on the same server, holding orders of the first shape.
    const db = mongoose.connection.useDb(`migration-${Date.now()}`).db!;
    const userId = new mongoose.Types.ObjectId();
    const deletedPartId = new mongoose.Types.ObjectId();
    await db.collection("parts").insertOne({ _id: new mongoose.Types.ObjectId(part.id), partNumber: part.partNumber });
    const old = (partId: mongoose.Types.ObjectId, quantity: number, status: string) => ({
      partId,
      productName: "Old Part",
      unitPriceCents: 900,
      priceCents: 900 * quantity,
      orderQuantity: quantity,
      phone: "555-0100",
      address: "1 Old Road",
      userId,
      userEmail: "old@example.com",
      userName: "Old Customer",
      status,
      ...(status === "paid" ? { transactionId: "pi_old", paidAt: new Date("2026-01-02") } : {}),
      createdAt: new Date("2026-01-01"),
      updatedAt: new Date("2026-01-01"),
    });
    const inserted = await db
      .collection("orders")
      .insertMany([old(new mongoose.Types.ObjectId(part.id), 150, "paid"), old(deletedPartId, 100, "unpaid")]);

    // A new database gets every migration; this one is among them.
    const applied = await migrateDb(db);
    expect(applied).toContain("20261123090000-order-lines.js");
    const [paid, unpaid] = await db.collection("orders").find({}).sort({ _id: 1 }).toArray();
    expect(paid).toMatchObject({
      _id: inserted.insertedIds[0],
      lines: [
        {
          partId: new mongoose.Types.ObjectId(part.id),
          partNumber: part.partNumber,
          productName: "Old Part",
          unitPriceCents: 900,
          quantity: 150,
          lineTotalCents: 135_000,
        },
      ],
      totalCents: 135_000,
      status: "paid",
      transactionId: "pi_old",
      paidAt: new Date("2026-01-02"),
      createdAt: new Date("2026-01-01"),
      userEmail: "old@example.com",
    });
    for (const field of ["partId", "productName", "unitPriceCents", "priceCents", "orderQuantity"])
      expect(paid).not.toHaveProperty(field);
    expect(unpaid.lines).toEqual([
      expect.objectContaining({ partId: deletedPartId, partNumber: "", quantity: 100, lineTotalCents: 90_000 }),
    ]);

    // Recorded once: a second start applies nothing and changes nothing.
    expect(await migrateDb(db)).toEqual([]);
    expect(await db.collection("changelog").countDocuments()).toBe(applied.length);
    await db.dropDatabase();
  });
});
