/**
 * The catalogue side of parts: filter counts for /parts, exact part-number lookup, which cards
 * fit the visitor's vehicle, the part page's catalogue data, the admin's catalogue edits and the
 * sitemap. The Part schema itself and the card listing are in part.server.ts and part-listing.server.ts.
 */
import type { PriceList, VolumeBreak } from "~/domain/pricing";
import { currencyOf, type Currency } from "~/domain/money";
import mongoose from "mongoose";
import { coalesce } from "./coalesce.server";
import {
  CATEGORIES,
  DEFAULT_BRAND,
  partNumberKey,
  vehicleKey,
  type Category,
  type FitmentRow,
} from "~/domain/catalogue";
import type { Vehicle } from "~/content/vehicles";
import { catalogueKeys, SEARCH_KEYS_VERSION } from "~/domain/part-search-keys";
import { isObjectId, Part, toPartView } from "./part.server";
import { addOeKeys, addToVocabulary, rebuildVocabulary, vocabularyIsCurrent } from "./search-vocabulary.server";
import {
  listingIndex,
  listingLead,
  partSearchFilter,
  searchesNothing,
  type CatalogueFilters,
} from "./part-query-plan.server";

export type FacetCount = { value: string; count: number };
export type CatalogueFacets = { categories: FacetCount[]; brands: FacetCount[]; inStock: number };

/**
 * How many parts each filter value would show, given everything else chosen: the category counts
 * ignore the chosen category (so the other categories stay reachable), the brand counts ignore
 * the brand, and "in stock" counts with both. One aggregation along a listing index: the text or
 * the vehicle is its equality, and the counts need only the category, brand and stock that the
 * index keys carry (MongoDB works out which fields a pipeline needs), so no document is read (on
 * the whole catalogue, the keys of its index).
 */
export async function catalogueFacets(
  query: string | null | undefined,
  filters: CatalogueFilters,
): Promise<CatalogueFacets> {
  return coalesce(`part-facets:${JSON.stringify([query, filters])}`, async () => {
    if (searchesNothing(query)) return { categories: [], brands: [], inStock: 0 };
    const common = partSearchFilter(query, { vehicle: filters.vehicle, corrections: filters.corrections });
    const only = (picked: CatalogueFilters) => partSearchFilter(null, picked);
    const [result] = await Part.aggregate<{
      categories: { _id: string; count: number }[];
      brands: { _id: string; count: number }[];
      inStock: { _id: null; count: number }[];
    }>([
      { $match: common },
      {
        $facet: {
          categories: [
            { $match: only({ brand: filters.brand, inStock: filters.inStock }) },
            { $group: { _id: "$category", count: { $sum: 1 } } },
          ],
          brands: [
            { $match: only({ category: filters.category, inStock: filters.inStock }) },
            { $group: { _id: "$brand", count: { $sum: 1 } } },
          ],
          inStock: [
            { $match: only({ category: filters.category, brand: filters.brand, inStock: true }) },
            { $group: { _id: null, count: { $sum: 1 } } },
          ],
        },
      },
    ]).hint(listingIndex(listingLead(query, { vehicle: filters.vehicle }), "newest"));
    const order = (value: string) => CATEGORIES.indexOf(value as Category);
    return {
      categories: (result?.categories ?? [])
        .map(({ _id, count }) => ({ value: _id ?? "other", count }))
        .sort((a, b) => order(a.value) - order(b.value)),
      brands: (result?.brands ?? [])
        .map(({ _id, count }) => ({ value: _id ?? DEFAULT_BRAND, count }))
        .sort((a, b) => a.value.localeCompare(b.value)),
      inStock: result?.inStock[0]?.count ?? 0,
    };
  });
}

/**
 * How many parts the list with these filters has, read off its counts: the chosen category's
 * count (the category counts apply every other choice), or all categories' together.
 */
export function facetsTotal(facets: CatalogueFacets, filters: CatalogueFilters) {
  const counted = filters.category
    ? facets.categories.filter((facet) => facet.value === filters.category)
    : facets.categories;
  return counted.reduce((sum, facet) => sum + facet.count, 0);
}

/** Which of these parts fit the vehicle: one read on _id, for the "Fits your …" line of the cards. */
export async function idsFittingVehicle(ids: string[], vehicle: Vehicle) {
  if (ids.length === 0) return [];
  const docs = await Part.find({ _id: { $in: ids.filter(isObjectId) }, vehicleKeys: vehicleKey(vehicle) })
    .select({ _id: 1 })
    .lean();
  return docs.map((doc) => doc._id.toString());
}

export type PartCatalogue = {
  category: Category;
  brand: string;
  oeNumbers: string[];
  fitment: FitmentRow[];
};

function toCatalogue(doc: {
  category?: string | null;
  brand?: string | null;
  oeNumbers?: string[] | null;
  fitment?: FitmentRow[] | null;
}): PartCatalogue {
  return {
    category: (doc.category ?? "other") as Category,
    brand: doc.brand ?? DEFAULT_BRAND,
    oeNumbers: [...(doc.oeNumbers ?? [])],
    fitment: (doc.fitment ?? []).map(({ make, model, yearFrom, yearTo, engine }) => ({
      make,
      model,
      yearFrom,
      yearTo,
      engine: engine ?? null,
    })),
  };
}

/** A part's catalogue data (category, brand, cross-references, fitment), or null if missing. */
export async function getPartCatalogue(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Part.findById(id).select({ category: 1, brand: 1, oeNumbers: 1, fitment: 1 }).lean();
  return doc ? toCatalogue(doc as Parameters<typeof toCatalogue>[0]) : null;
}

/** A part with everything the admin's edit screen shows. */
export async function getPartForEdit(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Part.findById(id).lean();
  if (!doc) return null;
  return {
    ...toPartView(doc),
    ...toCatalogue(doc as Parameters<typeof toCatalogue>[0]),
    lowStockThreshold: doc.lowStockThreshold ?? null,
    quoteFloors: floorsOf(doc),
  };
}

/** The floors staff set for quotes (Edit Product only: never in a PartView). */
function floorsOf(doc: { quoteFloors?: readonly { currency?: string | null; priceCents?: number | null }[] | null }) {
  return (doc.quoteFloors ?? []).flatMap((floor) =>
    floor.currency && floor.priceCents ? [{ currency: currencyOf(floor.currency), priceCents: floor.priceCents }] : [],
  );
}

export type PartEdit = {
  name: string;
  description: string;
  img: string;
  priceCents: number;
  minOrderQuantity: number;
  partNumber: string;
  category: Category;
  brand: string;
  oeNumbers: string[];
  fitment: FitmentRow[];
  /** Stock below this shows on the admin home; null: below the minimum order. */
  lowStockThreshold: number | null;
  /** Volume breaks, sorted by quantity (domain/pricing.ts). */
  volumeBreaks: VolumeBreak[];
  /** The lists in other currencies (a currency left out is not sold in); undefined leaves them as they are. */
  prices?: PriceList[];
  /** Orders beyond the stock wait on backorder; the restock day (YYYY-MM-DD) or lead time in days. */
  backorderable?: boolean;
  restockOn?: string | null;
  leadTimeDays?: number | null;
  /** The lowest prices quoted without an override, per currency; undefined leaves them as they are. */
  quoteFloors?: { currency: Currency; priceCents: number }[];
};

function isDuplicateKey(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

/**
 * Saves the admin's edit of a part (everything but the stock, which Manage Products sets with its
 * own guard against concurrent orders) in one update, with the search keys that go with it.
 */
export async function updatePartCatalogue(
  id: string,
  fields: PartEdit,
): Promise<{ ok: true; before: PartEdit; after: PartEdit } | { ok: false; reason: "missing" | "duplicate" }> {
  if (!isObjectId(id)) return { ok: false, reason: "missing" };
  const partNumber = fields.partNumber.trim().toUpperCase();
  try {
    // The part as it was comes back from the same single update (the audit log's "before").
    const keys = catalogueKeys({ ...fields, partNumber });
    await addToVocabulary(keys.words);
    await addOeKeys([{ id: new mongoose.Types.ObjectId(id), oeKeys: keys.oeKeys }]);
    const previous = await Part.findOneAndUpdate(
      { _id: id },
      {
        $set: {
          ...fields,
          partNumber,
          ...keys,
          ...(fields.restockOn !== undefined
            ? { restockOn: fields.restockOn ? new Date(`${fields.restockOn}T00:00:00Z`) : null }
            : {}),
        },
      },
      { runValidators: true, returnDocument: "before" },
    ).lean();
    if (!previous) return { ok: false, reason: "missing" };
    const view = toPartView(previous);
    const before: PartEdit = {
      name: view.name,
      description: view.description,
      img: view.img,
      priceCents: view.priceCents,
      minOrderQuantity: view.minOrderQuantity,
      partNumber: view.partNumber,
      ...toCatalogue(previous as Parameters<typeof toCatalogue>[0]),
      lowStockThreshold: previous.lowStockThreshold ?? null,
      volumeBreaks: view.volumeBreaks,
      prices: view.prices,
      backorderable: view.backorderable,
      restockOn: view.restockOn,
      leadTimeDays: view.leadTimeDays,
      quoteFloors: floorsOf(previous),
    };
    return { ok: true, before, after: { ...fields, partNumber } };
  } catch (error) {
    if (isDuplicateKey(error)) return { ok: false, reason: "duplicate" };
    throw error;
  }
}

/**
 * Sets whether a part may be backordered and when its stock is expected (the stock API); the part
 * as it was and as it is, or null when no part has that number.
 */
export async function setBackorderPolicy(
  partId: string,
  policy: { backorderable: boolean; restockOn: string | null; leadTimeDays: number | null },
) {
  if (!isObjectId(partId)) return null;
  const previous = await Part.findOneAndUpdate(
    { _id: partId },
    {
      $set: {
        backorderable: policy.backorderable,
        restockOn: policy.restockOn ? new Date(`${policy.restockOn}T00:00:00Z`) : null,
        leadTimeDays: policy.leadTimeDays,
      },
    },
    { runValidators: true, returnDocument: "before" },
  ).lean();
  if (!previous) return null;
  const view = toPartView(previous);
  return {
    id: view.id,
    name: view.name,
    before: { backorderable: view.backorderable, restockOn: view.restockOn, leadTimeDays: view.leadTimeDays },
    after: policy,
  };
}

/** Whether another part already has this part number (as a key: "PW 1012" is PW-1012). */
export async function partNumberTaken(partNumber: string, exceptId?: string) {
  const key = partNumberKey(partNumber);
  const filter: Record<string, unknown> = { partNumberKey: key };
  if (exceptId && isObjectId(exceptId)) filter._id = { $ne: new mongoose.Types.ObjectId(exceptId) };
  return Boolean(await Part.exists(filter));
}

/** Sitemap files list this many parts each (the protocol allows 50,000). */
export const SITEMAP_PARTS_PER_FILE = 10_000;

export async function countSitemapPartFiles() {
  return Math.ceil((await Part.estimatedDocumentCount()) / SITEMAP_PARTS_PER_FILE);
}

/** One sitemap file's parts, in _id order: ids and last changes only. */
export async function listSitemapParts(file: number) {
  const docs = await Part.find()
    .select({ _id: 1, updatedAt: 1 })
    .sort({ _id: 1 })
    .skip((file - 1) * SITEMAP_PARTS_PER_FILE)
    .limit(SITEMAP_PARTS_PER_FILE)
    .lean();
  return docs.map((doc) => ({ id: doc._id.toString(), updatedAt: (doc.updatedAt ?? null)?.toISOString() ?? null }));
}

/**
 * Parts stored before the catalogue fields existed get their search keys (and the default
 * category and brand), and parts whose keys an older version derived get today's: run by the shop
 * at every start, and by `npm run catalogue:backfill`. A part whose number is another's written
 * differently ("PW 1012" beside "PW-1012") is left without keys and reported, for an admin to renumber.
 */
export async function backfillCatalogueKeys() {
  // Every key is written with the others (catalogueKeys), so a part without terms lacks them all.
  const missing = Part.find({ terms: { $exists: false } }).cursor();
  let updated = 0;
  const conflicts: string[] = [];
  for await (const part of missing) {
    try {
      await part.save();
      updated++;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      conflicts.push(part.partNumber);
    }
  }
  const rewritten = await rewriteOldSearchKeys();
  // Parts stored before the vocabulary existed (or before its version) bring their words now.
  if (!(await vocabularyIsCurrent())) await rebuildCatalogueVocabulary();
  return { updated: updated + rewritten, conflicts };
}

/**
 * The vocabulary from every part's words (search-vocabulary.server.ts, rebuildVocabulary): one read
 * of the catalogue's `words`, at start when the vocabulary is missing or older, and by the backfill.
 */
export async function rebuildCatalogueVocabulary() {
  return rebuildVocabulary(() => Part.find({}).select({ words: 1, oeKeys: 1 }).lean().cursor());
}

/**
 * Today's keys for parts that have older ones, 500 per write. Each update is conditional on the
 * version it read, so two instances starting at once write the same keys at most twice.
 */
async function rewriteOldSearchKeys() {
  const old = { terms: { $exists: true }, searchKeysVersion: { $not: { $gte: SEARCH_KEYS_VERSION } } };
  const fields = { partNumber: 1, name: 1, brand: 1, category: 1, oeNumbers: 1, fitment: 1, searchKeysVersion: 1 };
  let updated = 0;
  let batch: Parameters<typeof Part.bulkWrite>[0] = [];
  let words: string[] = [];
  let oe: { id: mongoose.Types.ObjectId; oeKeys: string[] }[] = [];
  const flush = async () => {
    await addToVocabulary(words);
    await addOeKeys(oe);
    oe = [];
    if (batch.length) updated += (await Part.bulkWrite(batch, { ordered: false })).modifiedCount;
    batch = [];
    words = [];
  };
  for await (const doc of Part.find(old).select(fields).lean().cursor()) {
    const keys = catalogueKeys({
      partNumber: doc.partNumber,
      name: doc.name,
      brand: doc.brand,
      category: doc.category,
      oeNumbers: doc.oeNumbers,
      fitment: (doc.fitment ?? []) as FitmentRow[],
    });
    words.push(...keys.words);
    oe.push({ id: doc._id, oeKeys: keys.oeKeys });
    batch.push({
      updateOne: {
        filter: { _id: doc._id, searchKeysVersion: doc.searchKeysVersion ?? { $exists: false } },
        update: { $set: keys },
      },
    });
    if (batch.length >= 500) await flush();
  }
  await flush();
  return updated;
}
