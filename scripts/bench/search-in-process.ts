/**
 * The in-process alternative, measured for the choice of search engine:
 * `NODE_OPTIONS=--expose-gc npx tsx scripts/bench/search-in-process.ts [--parts 100000] [--each 5]`.
 * Builds a MiniSearch index of the synthetic catalogue (scripts/bench/seed-catalogue.ts) in
 * memory, without a database, and asks the same searches as scripts/bench/search.ts: each word's
 * forms as search-text.ts makes them (an OR within a word, an AND across words), prefixes, typing
 * errors by MiniSearch's own edit distance, the vehicle named in the text, part numbers by a map,
 * the filter counts and a first page of twelve, and MiniSearch's suggestions when nothing is found.
 * Prints the build time and memory, and p50/p95 per kind. What it leaves out, and a shop would
 * add: the full read of the catalogue at every start of every instance, the change feed that keeps
 * each instance's copy current, and the read of the page's cards.
 */
import { parseArgs } from "node:util";
import MiniSearch, { type Query } from "minisearch";
import { partNumberKey, searchWords, vehicleKey } from "../../app/domain/catalogue";
import { partNumberList, queryClauses } from "../../app/domain/search-text";
import { withTypedVehicle } from "../../app/services/catalogue-search.server";
import { searchKinds } from "./search-kinds";
import { random, syntheticPart } from "./seed-catalogue";
import { percentile } from "./stats";

const { values: args } = parseArgs({
  options: { parts: { type: "string", default: "100000" }, each: { type: "string", default: "5" } },
});
const parts = Number(args.parts);
const each = Number(args.each);

type Meta = { category: string; brand: string; createdAt: number; inStock: boolean; vehicleKeys: Set<string> };
const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

const before = heap();
const started = performance.now();
// A part's search words (name, brand, category, part and OE numbers, neighbouring words joined),
// the words whose prefixes the database's `terms` are.
const index = new MiniSearch<{ id: number; words: string }>({
  fields: ["words"],
  tokenize: (text) => searchWords(text),
  searchOptions: { prefix: true, combineWith: "AND" },
});
const meta: Meta[] = [];
const numbers = new Map<string, number[]>();
const rand = random(20240611);
const now = Date.now();
for (let at = 0; at < parts; at++) {
  const part = syntheticPart(at, rand, now);
  meta.push({
    category: part.category,
    brand: part.brand,
    createdAt: part.createdAt.getTime(),
    inStock: part.availableQuantity > 0,
    vehicleKeys: new Set(part.vehicleKeys),
  });
  for (const key of [part.partNumberKey, ...part.oeKeys]) numbers.set(key, [...(numbers.get(key) ?? []), at]);
  index.add({ id: at, words: part.words.join(" ") });
}
const buildSeconds = (performance.now() - started) / 1000;
const megabytes = (heap() - before) / 1024 / 1024;

/** Typing errors forgiven as the shop forgives them: one from five letters, two from eight. */
const fuzzy = (term: string) => (term.length >= 8 ? 2 : term.length >= 5 ? 1 : 0);

/** Parts found by the last search (a check that the searches find what the database finds). */
let lastFound = 0;

function search(q: string) {
  const at = performance.now();
  const key = partNumberKey(q);
  lastFound = 1;
  if (numbers.has(key)) return performance.now() - at;
  const list = partNumberList(q);
  if (list?.some((entry) => numbers.has(partNumberKey(entry)))) {
    lastFound = list.filter((entry) => numbers.has(partNumberKey(entry))).length;
    return performance.now() - at;
  }
  const typed = withTypedVehicle(q, { category: null, brand: null, inStock: false, vehicle: null });
  const vehicle = typed.filters.vehicle ? vehicleKey(typed.filters.vehicle) : null;
  const clauses = typed.text ? queryClauses(typed.text) : [];
  const query: Query = {
    combineWith: "AND",
    queries: clauses.map((clause) => ({ combineWith: "OR", queries: clause.terms })),
  };
  const ask = (fuzzyToo: boolean) =>
    index.search(clauses.length ? query : MiniSearch.wildcard, {
      fuzzy: fuzzyToo ? fuzzy : false,
      filter: vehicle ? (result) => meta[result.id as number].vehicleKeys.has(vehicle) : undefined,
    });
  let found = ask(false);
  if (found.length === 0) found = ask(true);
  // The filter counts and the first page, newest first, as /parts shows them.
  const facets = { categories: new Map<string, number>(), brands: new Map<string, number>(), inStock: 0 };
  for (const result of found) {
    const part = meta[result.id as number];
    facets.categories.set(part.category, (facets.categories.get(part.category) ?? 0) + 1);
    facets.brands.set(part.brand, (facets.brands.get(part.brand) ?? 0) + 1);
    if (part.inStock) facets.inStock++;
  }
  lastFound = found.length;
  found.sort((a, b) => meta[b.id as number].createdAt - meta[a.id as number].createdAt).slice(0, 12);
  if (found.length === 0 && typed.text) index.autoSuggest(typed.text, { fuzzy: 0.3 });
  return performance.now() - at;
}

console.log(
  `MiniSearch over ${parts} parts: built in ${buildSeconds.toFixed(1)} s, ${megabytes.toFixed(0)} MB of heap (index, filter fields and number map)`,
);
console.log("| kind | searches | p50 ms | p95 ms | max ms | parts found (mean) |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const [kind, texts] of Object.entries(searchKinds(each))) {
  let found = 0;
  const times = texts
    .map((text) => {
      const ms = search(text);
      found += lastFound;
      return ms;
    })
    .sort((a, b) => a - b);
  console.log(
    `| ${kind} | ${texts.length} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${times[times.length - 1].toFixed(0)} | ${Math.round(found / texts.length)} |`,
  );
}
