/**
 * The stock-holds and companies migrations write a batch of documents at a time (bulkWrite). Their
 * results must be what the former versions, one write per document or per order
 * (tests/fixtures/migrations-unbatched), made of the same database: each runs on its own copy of a
 * shop in the shape before them, with more documents than a batch and the awkward cases (an order
 * naming a part twice, a hold already there, a deleted placer, a user already in a company), and the
 * two databases are compared document by document.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, describe, expect, test } from "vitest";
import * as stockHolds from "../../scripts/migrations/20261125150000-stock-holds.js";
import * as companies from "../../scripts/migrations/20261125180000-companies.js";
import * as stockHoldsBefore from "../fixtures/migrations-unbatched/20261125150000-stock-holds.js";
import * as companiesBefore from "../fixtures/migrations-unbatched/20261125180000-companies.js";

const { ObjectId } = mongoose.Types;
type Db = NonNullable<typeof mongoose.connection.db>;

const databases: Db[] = [];
afterAll(async () => {
  for (const db of databases) await db.dropDatabase();
});

function database(label: string) {
  const db = mongoose.connection.getClient().db(`migrations-${label}-${randomUUID().slice(0, 8)}`) as unknown as Db;
  databases.push(db);
  return db;
}

/** A shop as it was before the two migrations: more parts than a batch, orders in every state. */
function legacyShop() {
  const written = new Date("2026-11-01T10:00:00Z");
  const parts = Array.from({ length: 1_150 }, (_, index) => ({
    _id: new ObjectId(),
    name: `Part ${index}`,
    partNumber: `MG-${index}`,
    ...(index % 97 === 5 ? {} : { availableQuantity: (index * 37) % 5_000 }),
    ...(index === 7 ? { onHand: 12_345 } : {}),
  }));
  const users = Array.from({ length: 12 }, (_, index) => ({
    _id: new ObjectId(),
    email: `legacy-${index}@example.com`,
    name: `Legacy ${index}`,
    role: "customer",
    createdAt: written,
    ...(index % 3 === 0
      ? {
          companyName: `Legacy Motors ${index}`,
          taxId: `DE${index}`,
          billingAddress: `${index} Old Street`,
          unpaidOrdersCap: index,
          account: { termsDays: 30, creditLimitCents: 100_000 * index },
        }
      : {}),
  }));
  // One user already in a company (a shop part-way through), one since deleted (not written).
  const companyOfFirst = new ObjectId();
  Object.assign(users[1], { companyId: companyOfFirst, companyRole: "owner" });
  const deleted = new ObjectId();
  const statuses = ["unpaid", "paid", "account", "shipped", "cancelled", "expired"];
  const orders = Array.from({ length: 700 }, (_, index) => {
    const lineParts = [parts[(index * 7) % 300], parts[(index * 11) % 300]];
    // Every tenth order names its first part twice: it holds that part once.
    if (index % 10 === 0) lineParts.push(lineParts[0]);
    const placer = index % 50 === 3 ? deleted : users[index % users.length]._id;
    return {
      _id: new ObjectId(),
      number: 100_001 + index,
      lines: lineParts.map((part, line) => ({ partId: part._id, quantity: 100 + line + index })),
      totalCents: 1_000,
      status: statuses[index % statuses.length],
      ...(index % 123 === 0 ? {} : { userId: placer }),
      ...(index === 6 ? { holdUntil: written } : {}),
      createdAt: written,
    };
  });
  orders.push({ ...orders[0], _id: new ObjectId(), number: 200_000, lines: [], status: "unpaid" });
  // A hold already noted (an earlier, interrupted run): not noted twice.
  const heldOrder = orders.find((order) => order.status === "paid")!;
  const heldPart = parts.find((part) => part._id.equals(heldOrder.lines[0].partId))!;
  Object.assign(heldPart, { holds: [{ orderId: heldOrder._id, quantity: heldOrder.lines[0].quantity }] });
  return { parts, users, orders, companies: [{ _id: companyOfFirst, ownerCount: 1, createdAt: written }] };
}

async function write(db: Db, shop: ReturnType<typeof legacyShop>) {
  await db.collection("parts").insertMany(shop.parts.map((doc) => ({ ...doc })));
  await db.collection("users").insertMany(shop.users.map((doc) => ({ ...doc })));
  await db.collection("orders").insertMany(shop.orders.map((doc) => ({ ...doc })));
  await db.collection("companies").insertMany(shop.companies.map((doc) => ({ ...doc })));
}

/**
 * The database as comparable documents: a company is known by its owner (its id is new in each
 * run), and a time the migration wrote (now, or a hold time from now) by its kind.
 */
async function snapshot(db: Db, since: Date) {
  const users = await db.collection("users").find().sort({ _id: 1 }).toArray();
  const ownerOf = new Map(users.map((user) => [String(user.companyId), `company of ${String(user._id)}`]));
  const normal = (value: unknown): unknown => {
    if (value instanceof Date) return value >= since ? "written by the migration" : value.toISOString();
    if (value instanceof ObjectId) return ownerOf.get(String(value)) ?? String(value);
    if (Array.isArray(value)) return value.map(normal);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normal(inner)]));
    }
    return value;
  };
  const all = async (name: string) => (await db.collection(name).find().sort({ _id: 1 }).toArray()).map(normal);
  const companyDocs = (await all("companies")) as { _id: string }[];
  return {
    parts: await all("parts"),
    users: users.map(normal),
    orders: await all("orders"),
    companies: companyDocs.sort((a, b) => a._id.localeCompare(b._id)),
  };
}

describe("the batched stock-holds and companies migrations", () => {
  test("leave every part, order, user and company as the one-write-at-a-time versions did, and a second run changes nothing", async () => {
    const shop = legacyShop();
    const before = database("before");
    const after = database("after");
    await write(before, shop);
    await write(after, shop);
    const since = new Date();

    await stockHoldsBefore.up(before);
    await companiesBefore.up(before);
    await stockHolds.up(after);
    await companies.up(after);

    const expected = await snapshot(before, since);
    const actual = await snapshot(after, since);
    // The migrations did their work (not two empty results compared).
    const heldParts = (actual.parts as { holds?: unknown[] }[]).filter((part) => part.holds?.length);
    expect(heldParts.length).toBeGreaterThan(100);
    expect((actual.parts as { onHand?: number }[]).every((part) => typeof part.onHand === "number")).toBe(true);
    expect(actual.companies).toHaveLength(12);
    expect((actual.orders as { companyId?: unknown }[]).every((order) => "companyId" in order)).toBe(true);

    expect(actual.parts).toEqual(expected.parts);
    expect(actual.orders).toEqual(expected.orders);
    expect(actual.users).toEqual(expected.users);
    expect(actual.companies).toEqual(expected.companies);

    await stockHolds.up(after);
    await companies.up(after);
    expect(await snapshot(after, since)).toEqual(actual);
  }, 120_000);
});
