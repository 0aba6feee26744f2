/**
 * Stock that cannot be hoarded or leaked, at the default settings, through the real actions and
 * services against the local database: the hold time of an unpaid card order, its reminder and
 * expiry, an admin's extension, the caps on unpaid orders (verified or not, and one account trying
 * to take the whole catalogue), races between endings, the stock sweep's recovery of orders a
 * crash left half placed, and the stock check.
 */
import { spawnSync } from "node:child_process";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Cart } from "~/models/cart.server";
import { cancelOrder, removeOrder } from "~/orders/model/holds.server";
import { Order } from "~/orders/model/schema.server";
import { placeOrder } from "~/orders/checkout.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { holdStock } from "~/models/stock-holds.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { User } from "~/models/user.server";
import { action as companyAction } from "~/routes/dashboard.companies_.$id/route";
import { action as cartAction } from "~/routes/dashboard.cart";
import { action as adminOrderAction, loader as adminOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { loader as orderPageLoader } from "~/routes/dashboard.orders_.$id._index";
import { getEnv } from "~/services/env.server";
import { expireOrder, sweepStock } from "~/orders/stock-jobs.server";
import { createPart, createUser, sessionCookieHeader, storedCustomer, updateCompanyOf } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { tsxCommand } from "../setup/tsx-command";
import { DELIVERY_FORM, DETROIT } from "../fixtures/addresses";

const HOUR = 60 * 60 * 1000;
const delivery = { phone: "+1 555 0100", delivery: DETROIT };

async function customer({ verified = true } = {}) {
  const user = await createUser({ verified });
  return { user, cookie: await sessionCookieHeader(user.id) };
}

const stockOf = async (partId: string) => (await Part.findById(partId).lean())!.availableQuantity;
const holdsOf = async (partId: string) => (await Part.findById(partId).lean())!.holds ?? [];

async function place(user: { id: string; email: string; name: string }, lines: { partId: string; quantity: number }[]) {
  const placed = await placeOrder({ lines, ...delivery, user });
  if (!placed.ok) throw new Error(`not placed: ${placed.refusal ?? JSON.stringify(placed.failures)}`);
  return placed.order;
}

function checkout(cookie: string) {
  return settle(
    cartAction(
      actionArgs(
        postRequest("/dashboard/cart", { intent: "checkout", phone: delivery.phone, ...DELIVERY_FORM }, { cookie }),
      ),
    ),
  );
}

async function fillCart(userId: string, lines: { partId: string; quantity: number }[]) {
  await Cart.updateOne(
    { userId },
    { $set: { lines, notices: [], version: 1 }, $unset: { checkout: "" } },
    { upsert: true },
  );
}

describe("an unpaid card order holds its stock for a limited time", () => {
  test("placing notes a hold on each part and a hold time of ORDER_HOLD_HOURS (72 by default), shown on the order page", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user, cookie } = await customer();
    const before = Date.now();
    const order = await place(user, [{ partId: part.id, quantity: 200 }]);
    expect(getEnv().ORDER_HOLD_HOURS).toBe(72);
    const holdUntil = new Date(order.holdUntil!).getTime();
    expect(holdUntil).toBeGreaterThanOrEqual(before + 72 * HOUR);
    expect(holdUntil).toBeLessThan(Date.now() + 72 * HOUR + 1000);
    expect(await stockOf(part.id)).toBe(800);
    expect(await holdsOf(part.id)).toEqual([{ orderId: new mongoose.Types.ObjectId(order.id), quantity: 200 }]);
    expect((await Part.findById(part.id).lean())!.onHand).toBe(1000);

    const page = await settle(
      orderPageLoader(loaderArgs(getRequest(`/dashboard/orders/${order.id}`, { cookie }), { id: order.id })),
    );
    expect((await page.json()).order.holdUntil).toBe(order.holdUntil);
  });

  test("a reminder is written once before the end; then the expiry job cancels it as expired unpaid, gives the stock back once, emails, and audits", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user } = await customer();
    const order = await place(user, [{ partId: part.id, quantity: 300 }]);
    // 20 hours before the end: inside the 24-hour reminder window.
    const holdUntil = new Date(Date.now() + 20 * HOUR);
    await Order.updateOne({ _id: order.id }, { $set: { holdUntil } });
    await sweepStock();
    await sweepStock();
    const reminders = await Outbox.find({ _id: { $regex: `^order:${order.id}:reminder:` } }).lean();
    expect(reminders).toHaveLength(1);
    expect(reminders[0].to).toBe(user.email);
    expect(reminders[0].subject).toMatch(/is held until/);

    // The hold runs out: the job ends it.
    await sweepStock(new Date(holdUntil.getTime() + 1000));
    const after = await Order.findById(order.id).lean();
    expect(after?.status).toBe("expired");
    expect(after?.expiredAt).toBeInstanceOf(Date);
    expect(await stockOf(part.id)).toBe(1000);
    expect(await holdsOf(part.id)).toEqual([]);
    expect(await Outbox.exists({ _id: `order:${order.id}:expired` })).toBeTruthy();
    expect(await Audit.exists({ action: "order.expire", targetId: order.id })).toBeTruthy();
    // Run again: nothing more is given back.
    await sweepStock(new Date(holdUntil.getTime() + 2000));
    expect(await stockOf(part.id)).toBe(1000);
  });

  test("an admin extends one order's hold from the order page (a plain POST); bad input is a 400 and changes nothing", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user } = await customer();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const order = await place(user, [{ partId: part.id, quantity: 100 }]);
    const post = (fields: Record<string, string>) =>
      settle(
        adminOrderAction(
          actionArgs(postRequest(`/dashboard/manageOrders/${order.id}`, fields, { cookie }), { id: order.id }),
        ),
      );
    for (const days of ["0", "31", "-2", "2.5", "lots", ""]) {
      const refused = await post({ intent: "extend-hold", days });
      expect(refused.status).toBe(400);
      expect((await refused.json()).result.error.days[0]).toMatch(/Days/);
    }
    expect((await Order.findById(order.id).lean())?.holdUntil?.toISOString()).toBe(order.holdUntil);

    const extended = await post({ intent: "extend-hold", days: "3" });
    expect(extended.status).toBe(302);
    const holdUntil = (await Order.findById(order.id).lean())!.holdUntil!.getTime();
    expect(holdUntil).toBe(new Date(order.holdUntil!).getTime() + 3 * 24 * HOUR);
    expect(
      await Audit.exists({ action: "order.extend-hold", targetId: order.id, actorEmail: admin.email }),
    ).toBeTruthy();
    const page = await settle(
      adminOrderLoader(loaderArgs(getRequest(`/dashboard/manageOrders/${order.id}`, { cookie }), { id: order.id })),
    );
    expect((await page.json()).order.holdUntil).toBe(new Date(holdUntil).toISOString());

    // A paid or ended order has no hold to extend.
    await cancelOrder(order.id, user);
    const late = await post({ intent: "extend-hold", days: "3" });
    expect(late.status).toBe(409);
  });

  test("cancel racing expiry, and remove racing cancel: one ending wins and each hold comes back once", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const { user } = await customer();
    await updateCompanyOf(user.id, { $set: { unpaidOrdersCap: 100, unpaidValueCapCents: 1e10 } });
    for (let round = 0; round < 5; round++) {
      const first = await place(user, [{ partId: part.id, quantity: 150 }]);
      await Order.updateOne({ _id: first.id }, { $set: { holdUntil: new Date(Date.now() - 1000) } });
      const raced = await Promise.all([cancelOrder(first.id, user), expireOrder(first.id), expireOrder(first.id)]);
      expect(raced.filter(Boolean)).toHaveLength(1);

      const second = await place(user, [{ partId: part.id, quantity: 250 }]);
      const ends = await Promise.all([removeOrder(second.id), cancelOrder(second.id, user), removeOrder(second.id)]);
      expect(ends.filter(Boolean)).toHaveLength(1);
      expect(await stockOf(part.id)).toBe(5000);
      expect(await holdsOf(part.id)).toEqual([]);
    }
  });

  test("an order on account does not expire", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user } = await customer();
    const placed = await placeOrder({
      lines: [{ partId: part.id, quantity: 100 }],
      ...delivery,
      user,
      onAccount: { termsDays: 30 },
    });
    expect(placed.ok && placed.order.status).toBe("account");
    expect(placed.ok && placed.order.holdUntil).toBeNull();
    await sweepStock(new Date(Date.now() + 1000 * HOUR));
    expect((await Order.findById(placed.ok ? placed.order.id : "").lean())?.status).toBe("account");
    expect(await stockOf(part.id)).toBe(900);
    // Its hold is a live order's: the stock check finds nothing to say of the part.
    const check = await checkStock({ settleMs: 30_000 });
    expect(check.problems.filter((problem) => problem.partId === part.id)).toEqual([]);
  });
});

describe("caps on what one account holds unpaid", () => {
  test("an unverified account may hold 2 unpaid card orders, a verified one 5; the next is refused before anything is reserved, saying how to lift it", async () => {
    const part = await createPart({ availableQuantity: 5000, priceCents: 100 });
    const { user, cookie } = await customer({ verified: false });
    for (let i = 0; i < 2; i++) {
      await fillCart(user.id, [{ partId: part.id, quantity: 100 }]);
      expect((await checkout(cookie)).status).toBe(302);
    }
    await fillCart(user.id, [{ partId: part.id, quantity: 100 }]);
    const refused = await checkout(cookie);
    expect(refused.status).toBe(409);
    const message = (await refused.json()).result.error[""][0];
    expect(message).toMatch(/2 orders awaiting card payment/);
    expect(message).toMatch(/email is not verified/);
    expect(message).toMatch(/verify your email/);
    expect(message).toMatch(/pay or cancel an open order/);
    expect(message).toMatch(/ask the shop/);
    expect(await stockOf(part.id)).toBe(4800);
    // The cart keeps its lines and can be checked out once the cap allows.
    expect((await Cart.findOne({ userId: user.id }).lean())?.lines).toHaveLength(1);
    expect(await Order.countDocuments({ userId: user.id })).toBe(2);

    // Verified, the same account may hold more (5 by default): the cart kept above is ordered, then two more.
    await User.updateOne({ _id: user.id }, { $set: { emailVerifiedAt: new Date() } });
    expect((await checkout(cookie)).status).toBe(302);
    for (let i = 4; i <= 5; i++) {
      await fillCart(user.id, [{ partId: part.id, quantity: 100 }]);
      expect((await checkout(cookie)).status).toBe(302);
    }
    // The sixth is refused with the verified account's words (nothing about verifying), nothing reserved.
    await fillCart(user.id, [{ partId: part.id, quantity: 100 }]);
    const sixth = await checkout(cookie);
    expect(sixth.status).toBe(409);
    expect((await sixth.json()).result.error[""][0]).toBe(
      "You already have 5 orders awaiting card payment, the most an account may hold unpaid (5). " +
        "To go on, pay or cancel an open order in My Orders, or ask the shop to raise your account's limit.",
    );
    expect(await Order.countDocuments({ userId: user.id })).toBe(5);
    expect(await stockOf(part.id)).toBe(4500);
    expect((await Cart.findOne({ userId: user.id }).lean())?.lines).toHaveLength(1);
  });

  test("the value cap: $5,000 unverified, $50,000 verified", async () => {
    const part = await createPart({ availableQuantity: 100_000, priceCents: 1000, minOrderQuantity: 10 });
    const unverified = await customer({ verified: false });
    // The cap is on what the orders cost with tax: 472 units are $4,720 and $283.20 of Michigan tax.
    await fillCart(unverified.user.id, [{ partId: part.id, quantity: 472 }]);
    const refused = await checkout(unverified.cookie);
    expect(refused.status).toBe(409);
    expect((await refused.json()).result.error[""][0]).toMatch(
      /more than an account whose email is not verified may hold unpaid \(\$5,000\.00\)/,
    );
    await fillCart(unverified.user.id, [{ partId: part.id, quantity: 471 }]); // $4,992.60 with tax
    expect((await checkout(unverified.cookie)).status).toBe(302);

    const verified = await customer();
    await fillCart(verified.user.id, [{ partId: part.id, quantity: 5001 }]);
    const over = await checkout(verified.cookie);
    expect(over.status).toBe(409);
    expect((await over.json()).result.error[""][0]).toMatch(/\(\$50,000\.00\)/);
    expect(await stockOf(part.id)).toBe(100_000 - 471);
  });

  test("the hoarding attack: a fresh unverified account with the whole catalogue in its cart at full stock is refused, and nothing is held", async () => {
    // A catalogue like the demo's: a dozen parts, $4 to $90 a unit, 800 to 6,000 in stock.
    const parts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createPart({ priceCents: 400 + i * 750, availableQuantity: 800 + i * 470, minOrderQuantity: 100 }),
      ),
    );
    const lines = parts.map((part) => ({ partId: part.id, quantity: part.availableQuantity }));
    const before = new Map(parts.map((part) => [part.id, part.availableQuantity]));
    const { user, cookie } = await customer({ verified: false });
    await fillCart(user.id, lines);
    const refused = await checkout(cookie);
    expect(refused.status).toBe(409);
    expect((await refused.json()).result.error[""][0]).toMatch(/may hold unpaid/);
    for (const line of lines) expect(await stockOf(line.partId)).toBe(before.get(line.partId));
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
    // Verified, the same account is still refused ($50,000 at most), and another customer can order.
    await User.updateOne({ _id: user.id }, { $set: { emailVerifiedAt: new Date() } });
    expect((await checkout(cookie)).status).toBe(409);
    const other = await customer();
    await place(other.user, [{ partId: parts[0].id, quantity: 100 }]);
    expect(await stockOf(parts[0].id)).toBe(parts[0].availableQuantity - 100);
  });

  test("an admin sets a customer's own caps on their company's record; bad input is a 400 and changes nothing", async () => {
    const { user } = await customer({ verified: false });
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const post = (fields: Record<string, string>) =>
      settle(
        companyAction(
          actionArgs(
            postRequest(`/dashboard/companies/${user.companyId}`, { intent: "unpaid-caps", ...fields }, { cookie }),
            { id: user.companyId },
          ),
        ),
      );
    for (const orders of ["0", "-1", "1.5", "many"]) {
      const refused = await post({ orders, value: "1000" });
      expect(refused.status).toBe(400);
    }
    expect((await storedCustomer(user.id))?.unpaidOrdersCap).toBeUndefined();
    expect((await post({ orders: "10", value: "250000" })).status).toBe(302);
    const stored = await storedCustomer(user.id);
    expect(stored).toMatchObject({ unpaidOrdersCap: 10, unpaidValueCapCents: 25_000_000 });
    expect(await Audit.exists({ action: "company.unpaid-caps", targetId: user.companyId })).toBeTruthy();

    // Their own caps now apply, though the email is still not verified.
    const part = await createPart({ availableQuantity: 5000, priceCents: 100 });
    for (let i = 0; i < 3; i++) await place(user, [{ partId: part.id, quantity: 100 }]);
    // Empty fields go back to the shop's defaults.
    expect((await post({ orders: "", value: "" })).status).toBe(302);
    expect((await storedCustomer(user.id))?.unpaidOrdersCap).toBeUndefined();
  });
});

describe("what a crash leaves, the stock sweep settles", () => {
  const leftReserving = async (userId: string, partIds: string[], held: string[], ageMs = 60_000) => {
    const id = new mongoose.Types.ObjectId();
    const user = await User.findById(userId).lean();
    await Order.create({
      _id: id,
      lines: partIds.map((partId) => ({
        partId,
        productName: "P",
        unitPriceCents: 100,
        quantity: 100,
        lineTotalCents: 10_000,
      })),
      totalCents: 10_000 * partIds.length,
      phone: delivery.phone,
      address: "12 Gear Lane, Detroit, MI 48209",
      deliveryAddress: delivery.delivery,
      userId,
      userEmail: user!.email,
      userName: user!.name,
      status: "reserving",
      reserveBy: new Date(Date.now() - ageMs),
    });
    for (const partId of held) expect(await holdStock(partId, id.toString(), 100)).toBeTruthy();
    await Cart.updateOne(
      { userId },
      {
        $set: {
          lines: partIds.map((partId) => ({ partId, quantity: 100 })),
          checkout: { orderId: id, at: new Date(Date.now() - ageMs) },
        },
      },
      { upsert: true },
    );
    return id.toString();
  };

  test("an order whose every line took its stock is completed (and its cart emptied); one half reserved gives back what it took (its cart kept)", async () => {
    const [a, b] = await Promise.all([
      createPart({ availableQuantity: 1000 }),
      createPart({ availableQuantity: 1000 }),
    ]);
    const whole = await customer();
    const half = await customer();
    const complete = await leftReserving(whole.user.id, [a.id, b.id], [a.id, b.id]);
    const undone = await leftReserving(half.user.id, [a.id, b.id], [a.id]);
    await sweepStock();
    const done = await Order.findById(complete).lean();
    expect(done?.status).toBe("unpaid");
    expect(done?.holdUntil).toBeInstanceOf(Date);
    expect((await Cart.findOne({ userId: whole.user.id }).lean())?.lines).toEqual([]);
    expect(await Order.findById(undone).lean()).toBeNull();
    const kept = await Cart.findOne({ userId: half.user.id }).lean();
    expect(kept?.lines).toHaveLength(2);
    expect(kept?.checkout ?? null).toBeNull();
    expect(await stockOf(a.id)).toBe(900);
    expect(await stockOf(b.id)).toBe(900);
    // Idempotent: a second pass (or a second instance) changes nothing.
    await sweepStock();
    expect([await stockOf(a.id), await stockOf(b.id)]).toEqual([900, 900]);
  });

  test("a young reserving order is left alone: the placing step may still be at work", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user } = await customer();
    const id = await leftReserving(user.id, [part.id], [], -60_000);
    await sweepStock();
    expect((await Order.findById(id).lean())?.status).toBe("reserving");
    await Order.deleteOne({ _id: id });
  });
});

describe("the stock check", () => {
  test("finds nothing in stock that adds up, and names a part whose units are held for no one", async () => {
    const part = await createPart({ availableQuantity: 1000 });
    const { user } = await customer();
    await place(user, [{ partId: part.id, quantity: 100 }]);
    const clean = await checkStock({ settleMs: 30_000 });
    expect(clean.problems.filter((problem) => problem.partId === part.id)).toEqual([]);

    // 200 units gone from available with no order: the leak the issue describes.
    await Part.updateOne({ _id: part.id }, { $inc: { availableQuantity: -200 } });
    const leaked = await checkStock({ settleMs: 30_000 });
    const found = leaked.problems.filter((problem) => problem.partId === part.id);
    expect(found).toHaveLength(1);
    expect(found[0].message).toMatch(/200 units held for no one/);
    await Part.updateOne({ _id: part.id }, { $inc: { availableQuantity: 200 } });
  });

  test("npm run stock:check exits 0 when the stock adds up and 1 with the list when it does not", async () => {
    const uri = process.env.MONGODB_URI!.replace(/\/[^/?]*(\?|$)/, `/stockcheck${Date.now()}$1`);
    const connection = await mongoose.createConnection(uri).asPromise();
    const now = new Date();
    const part = (n: string, available: number, onHand: number) => ({
      name: `Check ${n}`,
      partNumber: `SC-${n}`,
      description: "d",
      img: "/images/parts/pw-1001.svg",
      priceCents: 100,
      minOrderQuantity: 10,
      availableQuantity: available,
      onHand,
      category: "other",
      brand: "PartsWorks",
      createdAt: now,
      updatedAt: now,
    });
    await connection.collection("parts").insertOne(part("1", 500, 500));
    const run = () =>
      spawnSync(...tsxCommand("scripts/stock-check.ts"), {
        env: { ...process.env, MONGODB_URI: uri },
        encoding: "utf8",
      });
    const good = run();
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/Stock adds up: 1 parts checked/);
    await connection.collection("parts").insertOne(part("2", 300, 500));
    const bad = run();
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(
      /SC-2 Check 2: available 300 \+ held by orders 0 = 300, but 500 on hand \(200 units held for no one\)/,
    );
    await connection.dropDatabase();
    await connection.close();
  }, 60_000);
});
