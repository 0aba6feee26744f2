/**
 * Every kind of catalogue search at the benchmark's size: `npx tsx scripts/bench/search.ts
 * [--parts 100000] [--each 20] [--kinds "typing errors,…"]`. Seeds the synthetic catalogue (scripts/bench/seed-catalogue.ts)
 * into a throwaway local database, then asks `--each` different searches of every kind, one at a
 * time, through the same reads /parts makes (several numbers, a vehicle in the text, the counts,
 * the forgiving second read when nothing matches as typed, the page of cards, "did you mean"),
 * and prints p50/p95/max per kind, the reads each search sent, what the database read of the parts
 * for it (documents and full scans, as the local database counts them), and the keys a part stores
 * for search.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import mongoose from "mongoose";
import { catalogueFacets, facetsTotal } from "../../app/models/part-catalogue.server";
import { listPartCards } from "../../app/models/part-listing.server";
import { Part } from "../../app/models/part.server";
import {
  didYouMean,
  forgivingFilters,
  partNumberListSearch,
  withTypedVehicle,
} from "../../app/services/catalogue-search.server";
import { findPartByNumber } from "../../app/services/part-number.server";
import { connectDb, disconnectDb, syncIndexes } from "../../app/services/db.server";
import { searchKinds } from "./search-kinds";
import { seedCatalogue } from "./seed-catalogue";
import { startDb } from "./shop";
import { percentile } from "./stats";

const { values: args } = parseArgs({
  options: {
    parts: { type: "string", default: "100000" },
    each: { type: "string", default: "20" },
    /** Only these kinds (comma-separated names from the table), e.g. "typing errors". */
    kinds: { type: "string" },
  },
});
const parts = Number(args.parts);
const each = Number(args.each);

const KINDS = searchKinds(each);

/**
 * The reads a search sends, by what answers them: the parts by an equality on `_id` or a unique key,
 * the parts by anything else (an index range), and the vocabulary (by `_id`).
 */
const reads = { unique: 0, secondary: 0, vocabulary: 0 };
const UNIQUE_KEYS = new Set(["_id", "partNumberKey", "partNumber"]);
mongoose.set("debug", (collection: string, method: string, ...args: unknown[]) => {
  if (!["find", "findOne", "countDocuments", "aggregate"].includes(method)) return;
  if (collection === "searchvocabulary") reads.vocabulary++;
  if (collection !== "parts") return;
  const filter = (method === "aggregate" ? (args[0] as { $match?: object }[])[0]?.$match : args[0]) ?? {};
  const [key, ...more] = Object.keys(filter);
  const value = (filter as Record<string, unknown>)[key];
  // An equality or an $in on a unique key: the stand-in answers a range ($lt, $gt) by a scan too.
  const equality =
    typeof value !== "object" || value === null || "$in" in value || value instanceof mongoose.Types.ObjectId;
  if (more.length === 0 && UNIQUE_KEYS.has(key) && equality) reads.unique++;
  else reads.secondary++;
});

/**
 * What the database itself read of the parts: documents and full scans (the local stand-in counts
 * both, `localDbReads` in scripts/local-db/SecondaryIndexes.java); null on a database without it.
 */
async function partsRead() {
  try {
    const answer = await mongoose.connection.db!.command({ localDbReads: "parts" });
    return { documents: Number(answer.documents), scans: Number(answer.scans) };
  } catch {
    return null;
  }
}

/** The reads /parts makes for a search (app/services/catalogue-page.server.ts), in the same order. */
async function search(q: string) {
  const started = performance.now();
  if (await findPartByNumber(q)) return performance.now() - started;
  const list = await partNumberListSearch(q);
  if (list) return performance.now() - started;
  const typed = withTypedVehicle(q, { category: null, brand: null, inStock: false, vehicle: null });
  let facets = { categories: [], brands: [], inStock: 0 } as Awaited<ReturnType<typeof catalogueFacets>>;
  const { filters } = await forgivingFilters(typed.text, typed.filters, async (tried) => {
    facets = await catalogueFacets(typed.text, tried);
    return facetsTotal(facets, tried);
  });
  const total = facetsTotal(facets, filters);
  await listPartCards({ query: typed.text, filters, perPage: 12, total });
  if (total === 0) await didYouMean(typed.text);
  return performance.now() - started;
}

const work = mkdtempSync(path.join(os.tmpdir(), "shop-search-bench-"));
try {
  const db = await startDb(work);
  try {
    await connectDb(db.uri);
    await syncIndexes();
    console.log(`Seeding ${parts} parts…`);
    const seeded = await seedCatalogue({ parts, customers: 10, orders: 0, reviews: 0 }, { log: () => {} });
    console.log(`  seeded in ${seeded.seconds.total.toFixed(1)} s`);
    const [keys] = await Part.aggregate<{ terms: number; fuzzy: number; words: number }>([
      { $limit: 1000 },
      {
        $project: {
          terms: { $size: "$terms" },
          words: { $size: "$words" },
          fuzzy: { $size: { $filter: { input: "$terms", cond: { $eq: [{ $substrCP: ["$$this", 0, 1] }, "~"] } } } },
        },
      },
      { $group: { _id: null, terms: { $avg: "$terms" }, fuzzy: { $avg: "$fuzzy" }, words: { $avg: "$words" } } },
    ]);
    console.log(
      `Keys a part stores (first 1,000): ${keys.terms.toFixed(1)} terms, of which ${keys.fuzzy.toFixed(1)} deletion keys; ${keys.words.toFixed(1)} words`,
    );
    console.log(
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      "| kind | searches | p50 ms | p95 ms | max ms | reads per search: parts by a unique key / parts otherwise, vocabulary | parts documents read per search (max) | full scans |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |");
    const only = args.kinds?.split(",").map((kind) => kind.trim());
    for (const [kind, texts] of Object.entries(KINDS).filter(([kind]) => !only || only.includes(kind))) {
      const times: number[] = [];
      Object.assign(reads, { unique: 0, secondary: 0, vocabulary: 0 });
      let documents = 0;
      let most = 0;
      let scans: number | null = 0;
      for (const text of texts) {
        const before = await partsRead();
        times.push(await search(text));
        const after = await partsRead();
        if (!before || !after) scans = null;
        else {
          documents += after.documents - before.documents;
          most = Math.max(most, after.documents - before.documents);
          scans = (scans ?? 0) + after.scans - before.scans;
        }
      }
      const sorted = [...times].sort((a, b) => a - b);
      const per = (count: number) => (count / texts.length).toFixed(1);
      console.log(
        `| ${kind} | ${texts.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 95).toFixed(0)} | ${sorted[sorted.length - 1].toFixed(0)} | ${per(reads.unique)} / ${per(reads.secondary)}, ${per(reads.vocabulary)} | ${scans === null ? "–" : `${per(documents)} (${most})`} | ${scans ?? "–"} |`,
      );
    }
  } finally {
    await disconnectDb();
    await db.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
