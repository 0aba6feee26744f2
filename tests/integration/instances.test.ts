/**
 * Several app instances on one database, as behind a load balancer: nothing that matters lives in a
 * process's memory. Two production servers of this build share the suite's database and secret.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { Session } from "~/models/session.server";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { createPart, createUser, sessionCookieHeader, TEST_PASSWORD } from "../setup/factories";
import { DELIVERY_FORM } from "../fixtures/addresses";

/** A customer placing several orders at once: their own caps on unpaid orders let the stock decide. */
async function buyer() {
  const user = await createUser();
  await setUnpaidCaps(user.id, { orders: 100, valueCents: 1e10 });
  return user.id;
}

const work = mkdtempSync(path.join(tmpdir(), "shop-instances-"));
const shops: Shop[] = [];

beforeAll(async () => {
  // The suite's database, shared: only its address is needed to start a shop on it.
  const db = { uri: process.env.MONGODB_URI! } as LocalDb;
  const extraEnv = { SESSION_SECRET: process.env.SESSION_SECRET! };
  const buildDir = process.env.BUILD_DIR!;
  // One after the other: on a new database two first starts race to create the collections, which the
  // local database refuses (real MongoDB answers NamespaceExists, which mongoose passes over).
  for (let i = 0; i < 2; i++) shops.push(await startShop({ work, db, buildDir, extraEnv }));
}, 120_000);

afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  rmSync(work, { recursive: true, force: true });
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

function post(shop: Shop, path: string, fields: Record<string, string>, cookie = "") {
  return fetch(`${shop.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: shop.url,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: form(fields),
  });
}

describe("two instances on one database", () => {
  test("a session made on one works on the other, and signing out on the other ends it on both", async () => {
    const [a, b] = shops;
    const user = await createUser({ name: "Ines Instance" });
    const login = await post(a, "/login", { email: user.email, password: TEST_PASSWORD, redirectTo: "/dashboard" });
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .find((line) => line.startsWith("__session="))!
      .split(";")[0];

    for (const shop of [a, b]) {
      const page = await fetch(`${shop.url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(page.status, shop.url).toBe(200);
      expect(await page.text()).toContain("Ines Instance");
    }

    expect((await post(b, "/logout", {}, cookie)).status).toBe(302);
    for (const shop of [a, b]) {
      const page = await fetch(`${shop.url}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(page.status, shop.url).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/login/);
    }
  });

  // 60 orders at once, 30 on each instance, for 40 units: a third must be refused, so a read-then-write
  // race between the instances would show as stock below zero or more orders than units. (200 for 150
  // units proved nothing more and cost the shops about three times the CPU.)
  test("60 concurrent orders spread over both never oversell", async () => {
    const [a, b] = shops;
    const STOCK = 40;
    const ATTEMPTS = 60;
    const part = await createPart({ availableQuantity: STOCK, minOrderQuantity: 1 });
    const customers = await Promise.all(Array.from({ length: 20 }, async () => sessionCookieHeader(await buyer())));
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        post(
          i % 2 ? a : b,
          `/parts/${part.id}`,
          { quantity: "1", phone: "555-0100", ...DELIVERY_FORM },
          customers[i % 20],
        ),
      ),
    );
    const placed = answers.filter((answer) => answer.status === 302).length;
    const refused = answers.filter((answer) => answer.status === 409 || answer.status === 400).length;
    expect(placed + refused).toBe(ATTEMPTS);
    const stock = (await Part.findById(part.id).lean())!.availableQuantity;
    const orders = await Order.find({ $or: [{ partId: part.id }, { "lines.partId": part.id }] }).lean();
    expect(stock).toBeGreaterThanOrEqual(0);
    expect(orders).toHaveLength(placed);
    expect(stock).toBe(STOCK - placed);
    expect(placed).toBe(STOCK);
  }, 180_000);

  // 60 at once, 30 from each instance: two instances handing out the same number would collide here.
  test("60 orders placed at once over both get 60 distinct, increasing order numbers", async () => {
    const [a, b] = shops;
    const ORDERS = 60;
    const part = await createPart({ availableQuantity: 1_000, minOrderQuantity: 1 });
    const customers = await Promise.all(Array.from({ length: 20 }, async () => sessionCookieHeader(await buyer())));
    const answers = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        post(
          i % 2 ? a : b,
          `/parts/${part.id}`,
          { quantity: "1", phone: "555-0100", ...DELIVERY_FORM },
          customers[i % 20],
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(ORDERS).fill(302));
    const orders = await Order.find({ "lines.partId": part.id }, { number: 1 }).lean();
    const numbers = orders.map((order) => order.number);
    expect(numbers).toHaveLength(ORDERS);
    expect(numbers.every((number) => Number.isSafeInteger(number) && number! > 100_000)).toBe(true);
    expect(new Set(numbers).size).toBe(ORDERS);
  }, 180_000);

  test("a change made through one is visible on the other at once", async () => {
    const [a, b] = shops;
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const part = await createPart({ priceCents: 1_200 });
    const before = await (await fetch(`${b.url}/parts?q=${encodeURIComponent(part.name)}`)).text();
    expect(before).toContain("$12.00");

    const stock = String(part.availableQuantity);
    const edit = await post(
      a,
      "/dashboard/manageProducts",
      { intent: "update", partId: part.id, price: "37", stock, expectedStock: stock },
      cookie,
    );
    expect(edit.status).toBeLessThan(400);
    const after = await (await fetch(`${b.url}/parts?q=${encodeURIComponent(part.name)}`)).text();
    expect(after).toContain("$37.00");
    expect(await Session.countDocuments({ userId: admin.id })).toBe(1);
  });
});
