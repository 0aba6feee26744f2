/**
 * Every read behind /parts, for every combination of search text, vehicle, category, brand, stock
 * and sort, names an index that answers it: its first field is an equality of the request (or it
 * has none), the sort follows, and every other field the filter tests is a key of the same index,
 * so the database fetches only the documents a page shows and counts on the keys alone. The reads
 * are the shop's own (captured from the driver), so a new filter without its index fails here.
 * Where the database has explain(), the same reads are replayed and what they examined is checked.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { catalogueFacets } from "~/models/part-catalogue.server";
import { listPartCards } from "~/models/part-listing.server";
import { Part } from "~/models/part.server";
import { type CatalogueFilters } from "~/models/part-query-plan.server";
import type { PartSort } from "~/domain/search";

type Read = { method: string; filter: Record<string, unknown>; options: Record<string, unknown>; pipeline?: object[] };
let reads: Read[] = [];

function capture() {
  reads = [];
  mongoose.set("debug", (collection: string, method: string, ...args: unknown[]) => {
    if (collection !== "parts") return;
    if (method === "aggregate") {
      const [pipeline, options] = args as [object[], Record<string, unknown>];
      const match = (pipeline[0] as { $match?: Record<string, unknown> }).$match ?? {};
      reads.push({ method, filter: match, options: options ?? {}, pipeline });
    } else if (method === "find" || method === "countDocuments") {
      const [filter, options] = args as [Record<string, unknown>, Record<string, unknown>];
      reads.push({ method, filter: filter ?? {}, options: options ?? {} });
    }
  });
}
afterEach(() => {
  mongoose.set("debug", false);
});

/** The fields a filter tests (through $and and $or), operators aside. */
function fieldsOf(filter: unknown): string[] {
  if (Array.isArray(filter)) return filter.flatMap(fieldsOf);
  if (!filter || typeof filter !== "object") return [];
  return Object.entries(filter).flatMap(([key, value]) =>
    key === "$and" || key === "$or" ? fieldsOf(value) : key.startsWith("$") ? [] : [key],
  );
}

/** The equalities at the top of a filter (itself or the members of its $and): what bounds an index's first field. */
function equalities(filter: Record<string, unknown>): Set<string> {
  const members = Array.isArray(filter.$and) ? (filter.$and as Record<string, unknown>[]) : [filter];
  const found = new Set<string>();
  for (const member of members) {
    if (Array.isArray(member.$and)) for (const field of equalities(member)) found.add(field);
    for (const [key, value] of Object.entries(member)) {
      const isEquality =
        typeof value === "string" || (value && typeof value === "object" && ("$all" in value || "$in" in value));
      if (!key.startsWith("$") && isEquality) found.add(key);
    }
  }
  return found;
}

/** Fields that hold arrays: an index has one entry per element, so only its first field can test them on the keys. */
const ARRAY_FIELDS = new Set(["terms", "vehicleKeys", "oeKeys", "words"]);

const declared = () => Part.schema.indexes().map(([fields]) => JSON.stringify(fields));

function checkRead(read: Read, request: Request) {
  const label = `${read.method} for ${JSON.stringify(request)}`;
  const hint = read.options.hint as Record<string, number> | undefined;
  expect(hint, `${label}: names its index`).toBeDefined();
  expect(declared(), `${label}: the index is declared`).toContain(JSON.stringify(hint));
  const keys = Object.keys(hint!);
  const lead = ["createdAt", "priceCents"].includes(keys[0]) ? null : keys[0];
  if (lead) expect(equalities(read.filter), `${label}: ${lead} is an equality`).toContain(lead);

  const tested = new Set(fieldsOf(read.filter));
  // Text and a vehicle at once: the text leads, the vehicle is tested on the documents the text
  // finds (both are arrays, and an index holds one). The one case documented as reading more.
  // The words beside the terms repeat them (true of every part the terms find): no document more,
  // where the read fetches just the cards it returns. Never in a count or a skip, which MongoDB
  // answers from the keys and would otherwise fetch every match to test.
  if (tested.has("words")) {
    expect(lead, `${label}: words only beside the terms`).toBe("terms");
    expect(read.method, `${label}: words only where the cards are fetched`).toBe("find");
    expect(read.options.skip ?? 0, `${label}: words never with a skip`).toBe(0);
  }
  tested.delete("words");
  const fromDocuments = [...tested].filter((field) => ARRAY_FIELDS.has(field) && field !== lead);
  if (fromDocuments.length) {
    expect(fromDocuments, label).toEqual(["vehicleKeys"]);
    expect(request.query && request.filters.vehicle, label).toBeTruthy();
  }
  for (const field of tested) {
    if (!fromDocuments.includes(field)) expect(keys, `${label}: ${field} is a key of the index`).toContain(field);
  }
  if (read.method === "find") {
    const sort = read.options.sort as Record<string, number>;
    const after = keys.slice(lead ? 1 : 0, lead ? 3 : 2);
    expect(Object.keys(sort), `${label}: sorted along the index`).toEqual(after);
    const sameWay = after.every((key) => sort[key] === hint![key]);
    const backwards = after.every((key) => sort[key] === -hint![key]);
    expect(sameWay || backwards, `${label}: one direction`).toBe(true);
  }
  if (read.pipeline) {
    // The counts need only what the index keys carry: what the pipeline's stages test and group by.
    const facet = (read.pipeline[1] as { $facet: Record<string, { $match?: object; $group?: { _id: unknown } }[]> })
      .$facet;
    for (const stages of Object.values(facet)) {
      for (const field of fieldsOf(stages.map((stage) => stage.$match ?? {}))) expect(keys, label).toContain(field);
      const group = stages.find((stage) => stage.$group)?.$group?._id;
      if (typeof group === "string") expect(keys, label).toContain(group.slice(1));
    }
  }
}

type Request = { query: string | null; filters: CatalogueFilters; sort: PartSort };

let word = "";
beforeAll(async () => {
  word = `Pln${randomUUID().replace(/-/g, "").slice(0, 10)}`;
  await Part.insertMany(
    Array.from({ length: 6 }, (_, index) => ({
      name: `${word} Brake Pad ${index}`,
      partNumber: `PL-${randomUUID().slice(0, 8).toUpperCase()}`,
      description: "A pad.",
      img: "/images/parts/pw-1010.svg",
      priceCents: 100 + index,
      availableQuantity: index % 2 ? 0 : 500,
      category: "brakes",
      brand: "Nordwerk",
      fitment: [{ make: "Volkswagen", model: "Golf", yearFrom: 2012, yearTo: 2020 }],
    })),
  );
});

function requests(): Request[] {
  const all: Request[] = [];
  for (const query of [null, "__word__", "__word__ pad"])
    for (const vehicle of [null, { make: "Volkswagen" }, { make: "Volkswagen", model: "Golf", year: 2016 }])
      for (const category of [null, "brakes" as const])
        for (const brand of [null, "Nordwerk"])
          for (const inStock of [false, true])
            for (const sort of ["newest", "price-asc", "price-desc"] as const)
              all.push({
                query: query?.replace("__word__", word) ?? null,
                filters: { vehicle, category, brand, inStock },
                sort,
              });
  // The forgiving second read: a word with a typing error, alone and with a vehicle and a category.
  for (const vehicle of [null, { make: "Volkswagen", model: "Golf", year: 2016 }])
    for (const sort of ["newest", "price-asc", "price-desc"] as const)
      all.push({
        query: `${word} brakr`,
        filters: { vehicle, category: "brakes", corrections: { brakr: ["brake"] } },
        sort,
      });
  return all;
}

describe("every /parts read names the index that answers it", () => {
  test("pages, cursors, totals and filter counts, for every combination of filters and sorts", async () => {
    let checked = 0;
    for (const request of requests()) {
      capture();
      const page = await listPartCards({
        query: request.query,
        filters: request.filters,
        sort: request.sort,
        perPage: 2,
      });
      if (page.cursors.last) {
        await listPartCards({ ...request, perPage: 2, page: 2, after: page.cursors.last });
        await listPartCards({ ...request, perPage: 2, page: 1, before: page.cursors.last });
        // A page typed in by hand: a skip from the nearer end.
        await listPartCards({ ...request, perPage: 2, page: 2 });
      }
      await catalogueFacets(request.query, request.filters);
      const seen = reads;
      mongoose.set("debug", false);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const read of seen) checkRead(read, request);
      checked += seen.length;
    }
    expect(checked).toBeGreaterThan(requests().length * 3);
  });

  test("the shop's own search still finds the parts (the combinations above are not empty)", async () => {
    const found = await listPartCards({
      query: `${word} pad`,
      filters: { inStock: true, vehicle: { make: "Volkswagen", model: "Golf", year: 2016 } },
    });
    expect(found.total).toBe(3);
    const facets = await catalogueFacets(word, {});
    expect(facets.categories).toEqual([{ value: "brakes", count: 6 }]);
    expect(facets.inStock).toBe(3);
    const forgiven = await listPartCards({
      query: `${word} brakr pad`,
      filters: { corrections: { brakr: ["brake", "brace"] } },
    });
    expect(forgiven.total).toBe(6);
  });
});

describe("what those reads examine (explain, where the database has it)", () => {
  test("a page fetches no more documents than it shows, and counts fetch none", async (ctx) => {
    const sample = requests().filter((_, index) => index % 7 === 0);
    for (const request of sample) {
      capture();
      await listPartCards({ query: request.query, filters: request.filters, sort: request.sort, perPage: 2 });
      const seen = reads;
      mongoose.set("debug", false);
      for (const read of seen) {
        let stats: { totalDocsExamined?: number } | undefined;
        try {
          const explained =
            read.method === "find"
              ? await Part.collection.find(read.filter, read.options as object).explain("executionStats")
              : await Part.collection.db!.command({
                  explain: { count: "parts", query: read.filter, hint: read.options.hint },
                  verbosity: "executionStats",
                });
          stats = (explained as { executionStats?: { totalDocsExamined?: number } }).executionStats;
        } catch (error) {
          console.info(`Skipped: explain() is not supported by this database (${(error as Error).message})`);
          ctx.skip();
          return;
        }
        if (typeof stats?.totalDocsExamined !== "number") {
          console.info("Skipped: explain() answered without execution stats");
          ctx.skip();
          return;
        }
        const readsDocuments = Boolean(request.query && request.filters.vehicle) || /\s/.test(request.query ?? "");
        if (readsDocuments) continue;
        expect(stats.totalDocsExamined, JSON.stringify(read)).toBeLessThanOrEqual(read.method === "find" ? 2 : 0);
      }
    }
  });
});
