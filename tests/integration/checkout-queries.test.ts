/**
 * A checkout's database round trips, as the database sees them: a cart of three lines checked out by
 * a company's buyer, by card and on account. The user and company are read once, each part once, and
 * the order is not read again right after it is written; the totals are the budget. The two
 * counts of open orders (before and after the order is written) and the cart's second read are
 * the race checks: of two checkouts at once, one sees the other.
 */
import mongoose from "mongoose";
import { afterEach, describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser } from "../setup/factories";

type Seen = { collection: string; method: string };

afterEach(() => {
  mongoose.set("debug", false);
});

/** Round trips by collection and method while `work` runs. */
async function roundTrips(work: () => Promise<unknown>) {
  const seen: Seen[] = [];
  mongoose.set("debug", (collection: string, method: string) => {
    seen.push({ collection, method });
  });
  await work();
  mongoose.set("debug", false);
  const counts: Record<string, number> = {};
  for (const { collection, method } of seen)
    counts[`${collection}.${method}`] = (counts[`${collection}.${method}`] ?? 0) + 1;
  return { total: seen.length, counts };
}

const reads = (counts: Record<string, number>, collection: string) =>
  Object.entries(counts)
    .filter(([key]) => key.startsWith(`${collection}.`) && /\.(find|findOne|aggregate|countDocuments)$/.test(key))
    .reduce((sum, [, count]) => sum + count, 0);

async function cartOfThree(payment: "card" | "account") {
  const owner = await createUser({ name: "Rita Reads" });
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName: `Reads ${owner.id.slice(-5)}`, account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
  );
  const parts = await Promise.all([0, 1, 2].map(() => createPart({ availableQuantity: 500 })));
  const lines = parts.map((part) => ({ partId: part.id, quantity: 120 }));
  await Cart.updateOne(
    { userId: owner.id },
    { $set: { lines, notices: [], version: 1 }, $unset: { checkout: "" } },
    { upsert: true },
  );
  return () =>
    placeCustomerOrder({
      lines,
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: owner.id },
      payment,
      fromCart: true,
    });
}

describe("a checkout's round trips", () => {
  for (const payment of ["card", "account"] as const) {
    test(`${payment}: the user, the company and each part read once, the order never read back`, async () => {
      const checkOut = await cartOfThree(payment);
      let placed: Awaited<ReturnType<typeof checkOut>> | undefined;
      const { total, counts } = await roundTrips(async () => {
        placed = await checkOut();
      });
      expect(placed).toMatchObject({ ok: true });
      console.info(`checkout by ${payment}: ${total} round trips`, JSON.stringify(counts));
      expect(reads(counts, "users")).toBeLessThanOrEqual(1);
      expect(reads(counts, "companies")).toBeLessThanOrEqual(1);
      expect(reads(counts, "parts")).toBeLessThanOrEqual(1);
      // The order is not read back: on account the invoice number reads its dates once.
      expect(counts["orders.findOne"] ?? 0).toBe(payment === "account" ? 1 : 0);
      // Measured 28 (card) and 33 (account) before checkout read each thing once; 20 and 27 after;
      // on account, 29 with the invoice posted to the ledger (its entries read, the invoice written);
      // one more each for the account's credit (none here: one read of its credit notes).
      expect(total).toBeLessThanOrEqual(payment === "card" ? 21 : 30);
    });
  }
});
