/**
 * The queries behind /parts, as the database sees them: deep pages read a range of the sort index
 * (no long skip), only a page's worth of cards is fetched, and a burst of identical reads costs
 * one query.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterEach, describe, expect, test } from "vitest";
import { listPartCards } from "~/models/part-listing.server";
import { Part } from "~/models/part.server";
import { getNewestReviews } from "~/models/review.server";

type Seen = { collection: string; method: string; args: unknown[] };
let seen: Seen[] = [];

function watchQueries() {
  seen = [];
  mongoose.set("debug", (collection: string, method: string, ...args: unknown[]) => {
    seen.push({ collection, method, args });
  });
}
afterEach(() => {
  mongoose.set("debug", false);
});

const finds = () =>
  seen
    .filter((query) => query.collection === "parts" && query.method === "find")
    .map(
      (query) =>
        query.args[1] as { skip?: number; limit?: number; projection?: Record<string, unknown>; sort?: unknown },
    );

async function addParts(count: number) {
  const word = `Pgn${randomUUID().replace(/-/g, "").slice(0, 10)}`;
  const start = Date.now() - count * 1000;
  await Part.insertMany(
    Array.from({ length: count }, (_, index) => ({
      name: `${word} Clamp ${index}`,
      partNumber: `PG-${randomUUID().slice(0, 8).toUpperCase()}`,
      description: "A hose clamp.",
      img: "/images/parts/pw-1010.svg",
      // Few distinct prices, so the price sorts have many ties for the cursor to break.
      priceCents: 100 * (1 + (index % 3)),
      availableQuantity: 500,
      createdAt: new Date(start + index * 1000),
    })),
  );
  return word;
}

describe("paging through /parts", () => {
  test.each(["newest", "price-asc", "price-desc"] as const)(
    "following cursors (%s) gives the same pages as counting from the start, without skipping",
    async (sort) => {
      const query = await addParts(23);
      const bySkip: string[][] = [];
      for (let page = 1; page <= 5; page++) {
        bySkip.push((await listPartCards({ query, sort, page, perPage: 5 })).parts.map((part) => part.id));
      }
      expect(bySkip.flat()).toHaveLength(23);
      expect(new Set(bySkip.flat()).size).toBe(23);

      watchQueries();
      let current = await listPartCards({ query, sort, page: 1, perPage: 5 });
      const forward = [current.parts.map((part) => part.id)];
      for (let page = 2; page <= 5; page++) {
        current = await listPartCards({ query, sort, page, perPage: 5, after: current.cursors.last });
        forward.push(current.parts.map((part) => part.id));
      }
      expect(forward).toEqual(bySkip);
      // Backwards from the last page with `before`.
      const backward = [forward[4]];
      for (let page = 4; page >= 1; page--) {
        current = await listPartCards({ query, sort, page, perPage: 5, before: current.cursors.first });
        backward.unshift(current.parts.map((part) => part.id));
      }
      expect(backward).toEqual(bySkip);
      for (const options of finds()) {
        expect(options.skip ?? 0).toBe(0);
        expect(options.limit).toBe(5);
      }
    },
  );

  test("the last page is read from the end of the index, not by skipping the whole list", async () => {
    const query = await addParts(40);
    const forward = await listPartCards({ query, page: 8, perPage: 5, withTotal: false });
    watchQueries();
    const last = await listPartCards({ query, page: 8, perPage: 5 });
    expect(last.parts.map((part) => part.id)).toEqual(forward.parts.map((part) => part.id));
    expect(last.total).toBe(40);
    const [options] = finds();
    expect(options.skip ?? 0).toBe(0);
    expect(options.limit).toBe(5);
    // A partial last page: 40 cards, 6 per page, the 7th page has 4.
    const partial = await listPartCards({ query, page: 7, perPage: 6 });
    expect(partial.parts).toHaveLength(4);
  });

  test("a malformed cursor is ignored, not passed to the database", async () => {
    const query = await addParts(3);
    for (const cursor of ["1_abc", '{"$gt":""}', "x".repeat(100), "1_" + "g".repeat(24)]) {
      const result = await listPartCards({ query, after: cursor, perPage: 5 });
      expect(result.parts).toHaveLength(3);
    }
  });

  test("each card read fetches only the card's fields, a page at a time", async () => {
    const query = await addParts(8);
    watchQueries();
    await listPartCards({ query, perPage: 5 });
    const [options] = finds();
    expect(options.limit).toBe(5);
    expect(Object.keys(options.projection ?? {}).sort()).toEqual(
      [
        "availableQuantity",
        "brand",
        "category",
        "createdAt",
        "description",
        "img",
        "minOrderQuantity",
        "name",
        "partNumber",
        "priceCents",
        // A card is priced from the list of the currency shown (a customer's, or the visitor's choice).
        "prices",
        // A signed-in customer's card price may be a volume break's at the minimum order.
        "volumeBreaks",
      ].sort(),
    );
  });
});

describe("identical reads at the same time", () => {
  test("share one query, and every caller gets the result", async () => {
    const query = await addParts(4);
    watchQueries();
    const results = await Promise.all(Array.from({ length: 6 }, () => listPartCards({ query, perPage: 5 })));
    expect(finds()).toHaveLength(1);
    for (const result of results) expect(result.parts).toHaveLength(4);
    // Once settled nothing is kept: the next read goes to the database again.
    await listPartCards({ query, perPage: 5 });
    expect(finds()).toHaveLength(2);
  });

  test("for the home page's reviews too", async () => {
    watchQueries();
    await Promise.all(Array.from({ length: 4 }, () => getNewestReviews(3)));
    expect(seen.filter((query) => query.collection === "reviews" && query.method === "find")).toHaveLength(1);
  });
});

describe("the indexes behind every filter and sort", () => {
  const declared = () =>
    Part.schema.indexes().map(([fields, options]) => ({ fields, unique: Boolean(options?.unique) }));

  test("are declared on the model (real MongoDB builds them; the stand-in keeps each by its first field)", () => {
    const indexes = declared();
    const has = (fields: Record<string, unknown>, unique = false) =>
      expect(indexes, JSON.stringify(fields)).toContainEqual({ fields, unique });
    has({ createdAt: -1, _id: -1, category: 1, brand: 1, availableQuantity: 1 });
    has({ priceCents: 1, _id: 1, category: 1, brand: 1, availableQuantity: 1 });
    has({ partNumber: 1 }, true);
    has({ partNumberKey: 1 }, true);
    has({ oeKeys: 1 });
    for (const lead of ["terms", "vehicleKeys"]) {
      has({ [lead]: 1, createdAt: -1, _id: -1, category: 1, brand: 1, availableQuantity: 1 });
      has({ [lead]: 1, priceCents: 1, _id: 1, category: 1, brand: 1, availableQuantity: 1 });
    }
    has({ category: 1, createdAt: -1, _id: -1, brand: 1, availableQuantity: 1 });
    has({ brand: 1, priceCents: 1, _id: 1, availableQuantity: 1 });
  });

  test("an exact part-number or OE lookup reads at most the parts it finds (explain, where the database has it)", async (ctx) => {
    for (const filter of [{ partNumberKey: "PW1012" }, { oeKeys: "N10460502" }]) {
      let explained: { executionStats?: { totalDocsExamined?: number; nReturned?: number } };
      try {
        explained = (await Part.find(filter).limit(2).explain("executionStats")) as typeof explained;
      } catch (error) {
        console.info(`Skipped: explain() is not supported by this database (${(error as Error).message})`);
        ctx.skip();
        return;
      }
      const stats = explained?.executionStats;
      if (!stats || typeof stats.totalDocsExamined !== "number") {
        ctx.skip();
        return;
      }
      expect(stats.totalDocsExamined).toBeLessThanOrEqual(stats.nReturned ?? 0);
    }
  });
});
