import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { coalesce } from "./coalesce.server";
import {
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_BRAND,
  fitmentKeys,
  partNumberKey,
  partSearchWords,
  queryTerms,
  searchTerms,
  vehicleKey,
  type Category,
  type FitmentRow,
} from "~/domain/catalogue";
import { truncate } from "~/domain/format";
import { formatBreaks, type VolumeBreak } from "~/domain/pricing";
import { escapeRegExp, normalizeSearch, type PartSort } from "~/domain/search";

export const DEFAULT_MIN_ORDER_QUANTITY = 100;

/** A vehicle the part fits: make and model as in app/content/vehicles.ts, a year range, maybe an engine. */
const fitmentSchema = new Schema(
  {
    make: { type: String, required: true, trim: true, maxlength: 40 },
    model: { type: String, required: true, trim: true, maxlength: 40 },
    yearFrom: { type: Number, required: true, min: 1900, max: 2100, validate: Number.isInteger },
    yearTo: { type: Number, required: true, min: 1900, max: 2100, validate: Number.isInteger },
    engine: { type: String, trim: true, maxlength: 40, default: null },
  },
  { _id: false },
);

const volumeBreakSchema = new Schema(
  {
    minQuantity: { type: Number, required: true, min: 1, validate: Number.isInteger },
    percentOff: { type: Number, min: 0, max: 99.99, default: null },
    unitPriceCents: {
      type: Number,
      min: 1,
      default: null,
      validate: (v: number | null) => v === null || Number.isInteger(v),
    },
  },
  { _id: false },
);

const holdSchema = new Schema(
  {
    orderId: { type: Schema.Types.ObjectId, required: true },
    quantity: { type: Number, required: true, min: 1 },
  },
  { _id: false },
);

const partSchema = new Schema(
  {
    name: { type: String, required: true, trim: true, maxlength: 120 },
    /** A short catalogue number such as "PW-1001", searchable on /parts. */
    partNumber: { type: String, required: true, trim: true, uppercase: true, maxlength: 32 },
    description: { type: String, required: true, trim: true, maxlength: 2000 },
    img: { type: String, required: true, trim: true, maxlength: 2048 },
    /** Unit price in cents. */
    priceCents: { type: Number, required: true, min: 1, validate: Number.isInteger },
    minOrderQuantity: {
      type: Number,
      required: true,
      min: 1,
      default: DEFAULT_MIN_ORDER_QUANTITY,
      validate: Number.isInteger,
    },
    availableQuantity: { type: Number, required: true, min: 0, validate: Number.isInteger },
    /** Volume breaks, sorted by quantity (utils/pricing.ts): from minQuantity, a % off list or a unit price. */
    volumeBreaks: { type: [volumeBreakSchema], default: undefined },
    /**
     * The units the shop has and has not shipped: available plus every hold below. Only a restock
     * (an admin's edit, an import) and shipping change it, each in the same update that changes the
     * rest; `npm run stock:check` checks available + holds = onHand (docs/behaviour.md, "Stock").
     */
    onHand: {
      type: Number,
      min: 0,
      validate: Number.isInteger,
      default(this: { availableQuantity?: number }) {
        return this.availableQuantity ?? 0;
      },
    },
    /**
     * The orders holding stock of this part: order id and units. A hold is pushed in the same
     * atomic update that takes the units out of availableQuantity and pulled in the one that gives
     * them back (or ships them), so whether an order holds stock is never in doubt after a crash,
     * and no hold is given back twice (order-stock.server.ts).
     */
    holds: { type: [holdSchema], default: undefined },
    // --- Catalogue data (edited by admins) ---
    category: { type: String, required: true, enum: CATEGORIES, default: "other" },
    brand: { type: String, required: true, trim: true, maxlength: 40, default: DEFAULT_BRAND },
    /** Original-equipment numbers this part replaces, as printed (cross-references). */
    oeNumbers: { type: [{ type: String, trim: true, maxlength: 40 }], default: [] },
    fitment: { type: [fitmentSchema], default: [] },
    // --- Search keys, derived from the fields above on every save (catalogueKeys) ---
    /** The part number upper case, letters and digits only: "pw 1012" finds PW-1012. */
    partNumberKey: { type: String },
    oeKeys: { type: [String], default: undefined },
    /** "make", "make|model" and "make|model|year" for every vehicle in the fitment list. */
    vehicleKeys: { type: [String], default: undefined },
    /**
     * Every prefix of the words of the name, brand and category, and of the part and OE numbers
     * (catalogue.ts, searchTerms): a search for "brak" is an equality on this array.
     */
    terms: { type: [String], default: undefined },
    /** The words whose prefixes the terms are (about a fifth as many): see textFilter. */
    words: { type: [String], default: undefined },
    /** Stock below this shows on the admin home (unset: the part's minimum order). */
    lowStockThreshold: {
      type: Number,
      min: 0,
      default: null,
      validate: (value: number | null) => value === null || Number.isInteger(value),
    },
  },
  { timestamps: true },
);

function searchKeys(text: string, numbers: string[]) {
  const words = partSearchWords(text, numbers);
  return { words, terms: searchTerms(words) };
}

/** The search keys of a part, from its catalogue fields: stored with it, never edited by hand. */
export function catalogueKeys(fields: {
  partNumber: string;
  name: string;
  brand?: string | null;
  category?: string | null;
  oeNumbers?: readonly string[] | null;
  fitment?: readonly FitmentRow[] | null;
}) {
  const category = (fields.category ?? "other") as Category;
  return {
    partNumberKey: partNumberKey(fields.partNumber),
    oeKeys: [...new Set((fields.oeNumbers ?? []).map(partNumberKey).filter(Boolean))],
    vehicleKeys: fitmentKeys(fields.fitment ?? []),
    ...searchKeys(`${fields.name} ${fields.brand ?? DEFAULT_BRAND} ${CATEGORY_LABELS[category] ?? ""}`, [
      fields.partNumber,
      ...(fields.oeNumbers ?? []),
    ]),
  };
}

partSchema.pre("validate", function () {
  Object.assign(
    this,
    catalogueKeys({
      partNumber: this.partNumber,
      name: this.name,
      brand: this.brand,
      category: this.category,
      oeNumbers: this.oeNumbers,
      fitment: this.fitment as unknown as FitmentRow[],
    }),
  );
});

/**
 * Which equality leads a listing index: the search terms, the vehicle, the category or the brand
 * (the first of them a request has), or none. After it come the sort and then every other filter
 * of /parts, so the database walks the index in page order, tests the other filters on the index
 * keys, and fetches only the documents the page shows.
 */
export const LISTING_LEADS = ["terms", "vehicleKeys", "category", "brand", "none"] as const;
export type ListingLead = (typeof LISTING_LEADS)[number];
const INDEX_SORTS = { newest: { createdAt: -1, _id: -1 }, price: { priceCents: 1, _id: 1 } } as const;

export function listingIndex(lead: ListingLead, sort: PartSort): Record<string, 1 | -1> {
  const others: string[] =
    lead === "brand"
      ? ["availableQuantity"]
      : lead === "category"
        ? ["brand", "availableQuantity"]
        : ["category", "brand", "availableQuantity"];
  return {
    ...(lead === "none" ? {} : { [lead]: 1 }),
    ...INDEX_SORTS[sort === "newest" ? "newest" : "price"],
    ...Object.fromEntries(others.map((field) => [field, 1])),
  };
}

// See the README's index table for the query behind each.
for (const lead of LISTING_LEADS) {
  partSchema.index(listingIndex(lead, "newest"));
  partSchema.index(listingIndex(lead, "price-asc"));
}
partSchema.index({ partNumber: 1 }, { unique: true });
partSchema.index({ partNumberKey: 1 }, { unique: true, sparse: true });
partSchema.index({ oeKeys: 1 });
// The stock check and the sweep: the parts an order holds stock on.
partSchema.index({ "holds.orderId": 1 }, { sparse: true });

export type PartDoc = InferSchemaType<typeof partSchema> & { _id: Types.ObjectId };

export const Part: mongoose.Model<PartDoc> =
  (mongoose.models.Part as mongoose.Model<PartDoc>) ?? mongoose.model<PartDoc>("Part", partSchema);

/** Screens never need the holds (a busy part has one per open order): reads leave them out. */
const NO_HOLDS = { holds: 0 } as const;

/** A part as screens use it: plain, with a string id. */
export type PartView = {
  id: string;
  name: string;
  partNumber: string;
  description: string;
  img: string;
  priceCents: number;
  minOrderQuantity: number;
  availableQuantity: number;
  createdAt: string;
  category: string;
  brand: string;
  volumeBreaks: VolumeBreak[];
};

export function toPartView(doc: Partial<PartDoc> & { _id: Types.ObjectId }): PartView {
  return {
    id: doc._id.toString(),
    name: doc.name ?? "",
    partNumber: doc.partNumber ?? "",
    description: doc.description ?? "",
    img: doc.img ?? "",
    priceCents: doc.priceCents ?? 0,
    minOrderQuantity: doc.minOrderQuantity ?? DEFAULT_MIN_ORDER_QUANTITY,
    availableQuantity: doc.availableQuantity ?? 0,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
    category: doc.category ?? "other",
    brand: doc.brand ?? DEFAULT_BRAND,
    volumeBreaks: (doc.volumeBreaks ?? []).map((item) => ({
      minQuantity: item.minQuantity,
      percentOff: item.percentOff ?? null,
      unitPriceCents: item.unitPriceCents ?? null,
    })),
  };
}

export function isObjectId(value: string) {
  return /^[a-f0-9]{24}$/i.test(value);
}

export async function getPart(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Part.findById(id, NO_HOLDS).lean();
  return doc ? toPartView(doc) : null;
}

export async function getNewestParts(limit: number) {
  const docs = await Part.find({}, NO_HOLDS).sort({ createdAt: -1, _id: -1 }).limit(limit).lean();
  return docs.map(toPartView);
}

/**
 * Takes `quantity` units out of stock for an order, and notes the order's hold on the part, in one
 * conditional atomic update: it applies only while enough stock is left, the quantity still meets
 * the part's minimum, and the order holds none of this part yet (so a retry never takes twice).
 * Returns the part as it was after the update (its price is the one the order pays), or null.
 */
export async function holdStock(partId: string, orderId: string, quantity: number) {
  if (!isObjectId(partId)) return null;
  const doc = await Part.findOneAndUpdate(
    {
      _id: partId,
      availableQuantity: { $gte: quantity },
      minOrderQuantity: { $lte: quantity },
      "holds.orderId": { $ne: orderId },
    },
    { $inc: { availableQuantity: -quantity }, $push: { holds: { orderId, quantity } } },
    { returnDocument: "after", projection: { holds: 0 } },
  ).lean();
  return doc ? toPartView(doc) : null;
}

/** The ids of the parts among `partIds` on which the order holds stock. */
export async function partsHeldBy(orderId: string, partIds: string[]) {
  const docs = await Part.find(
    { _id: { $in: partIds.filter(isObjectId) }, "holds.orderId": orderId },
    { _id: 1 },
  ).lean();
  return new Set(docs.map((doc) => doc._id.toString()));
}

/**
 * Gives back the stock the order holds on these parts: per part, one conditional update that
 * pulls the hold and adds its units back, so it applies once however many callers race (cancel,
 * removal, expiry, the sweep) and never for a hold that was not taken. `ship` instead lets the
 * held units leave the shop (onHand goes down, available stays). A deleted part gets nothing back.
 * Returns how many holds it settled.
 */
export async function releaseHolds(
  orderId: string,
  lines: { partId: string; quantity: number }[],
  { ship = false } = {},
) {
  const valid = lines.filter((line) => isObjectId(line.partId));
  if (valid.length === 0) return 0;
  const result = await Part.bulkWrite(
    valid.map((line) => ({
      updateOne: {
        // The hold names its units; the line's quantity is the one it was taken with.
        filter: { _id: line.partId, holds: { $elemMatch: { orderId, quantity: line.quantity } } },
        update: {
          $inc: ship ? { onHand: -line.quantity } : { availableQuantity: line.quantity },
          $pull: { holds: { orderId } },
        },
      },
    })),
    { ordered: false },
  );
  return result.modifiedCount;
}

/** The parts with these ids that still exist, by id (malformed ids are skipped). */
export async function getPartsByIds(ids: string[]) {
  const valid = [...new Set(ids.filter(isObjectId))];
  const docs = valid.length ? await Part.find({ _id: { $in: valid } }, NO_HOLDS).lean() : [];
  return new Map(docs.map((doc) => [doc._id.toString(), toPartView(doc)]));
}

/**
 * The parts whose number key, or one of whose OE keys, is one of these keys (catalogue.ts,
 * partNumberKey), with their keys: one read on two indexed arrays, for the part-number resolver.
 */
export async function getPartsByNumberKeys(keys: string[]) {
  const wanted = [...new Set(keys.filter(Boolean))];
  if (!wanted.length) return [];
  const docs = await Part.find(
    { $or: [{ partNumberKey: { $in: wanted } }, { oeKeys: { $in: wanted } }] },
    { ...NO_HOLDS, terms: 0, words: 0 },
  ).lean();
  return docs.map((doc) => ({ part: toPartView(doc), key: doc.partNumberKey ?? "", oeKeys: doc.oeKeys ?? [] }));
}

// --- Storefront listing -------------------------------------------------------------------------

/**
 * Each sort follows an index exactly ({createdAt: -1, _id: -1} and {priceCents: 1, _id: 1}, the
 * latter read backwards for price-desc), with _id breaking ties so pages never overlap.
 */
const PART_SORT_SPECS: Record<PartSort, Record<string, 1 | -1>> = {
  newest: { createdAt: -1, _id: -1 },
  "price-asc": { priceCents: 1, _id: 1 },
  "price-desc": { priceCents: -1, _id: -1 },
};

/** What a part card shows, and nothing else. */
const CARD_FIELDS = {
  name: 1,
  partNumber: 1,
  brand: 1,
  category: 1,
  description: 1,
  img: 1,
  priceCents: 1,
  minOrderQuantity: 1,
  availableQuantity: 1,
  volumeBreaks: 1,
} as const;

export const CARD_DESCRIPTION_LENGTH = 110;

export type PartCardView = Omit<PartView, "createdAt"> & { brand: string; category: Category };

/** The narrowing filters of /parts besides the search text; each is optional. */
export type CatalogueFilters = {
  category?: Category | null;
  brand?: string | null;
  /** Only parts with stock left. */
  inStock?: boolean;
  /** A make, a make and model, or a whole vehicle with its year. */
  vehicle?: { make: string; model?: string | null; year?: number | null } | null;
};

/**
 * The search text as a filter: every word typed starts a word of the name, brand or category, or
 * a piece of the part number or an OE number (so "PW 1012", "pw-1012" and "PW1012" all find
 * PW-1012). Each is an equality on `terms`; input is reduced to letters and digits first, so
 * nothing typed has a meaning to the database.
 */
function textFilter(terms: string[]) {
  // Only punctuation was typed: it matches nothing (rather than everything).
  if (terms.length === 0) return { _id: { $exists: false } };
  return terms.length === 1 ? { terms: terms[0] } : { terms: { $all: terms } };
}

/** The terms of what was typed (queryTerms): null when nothing was, empty when only punctuation was. */
function typedTerms(query: string | null | undefined) {
  const text = normalizeSearch(query);
  return text ? queryTerms(text) : null;
}

/**
 * A search's filter with the same test on the words in front: true of every part the terms find.
 * Only for reads that fetch just the cards they return (a first page, a page after a cursor): there
 * it costs MongoDB nothing, and the local database, which has no index on the terms, tests a part's
 * few words before its many terms. Never in a count or a skip, which MongoDB answers from the
 * index keys and would otherwise fetch every part to test.
 */
function withWordsTest(filter: object, query: string | null | undefined) {
  const terms = typedTerms(query) ?? [];
  if (terms.length === 0) return filter;
  return { $and: [...terms.map((term) => ({ words: { $regex: `^${escapeRegExp(term)}` } })), filter] };
}

/** The index a /parts request is read along (listingIndex): the first equality it has, or none. */
export function listingLead(query: string | null | undefined, filters: CatalogueFilters = {}): ListingLead {
  if (typedTerms(query)?.length) return "terms";
  if (filters.vehicle) return "vehicleKeys";
  if (filters.category) return "category";
  if (filters.brand) return "brand";
  return "none";
}

/** Text was typed, but nothing in it can be searched for ("--"): nothing matches, no query needed. */
export function searchesNothing(query: string | null | undefined) {
  return typedTerms(query)?.length === 0;
}

/** The filter for a storefront search: the text and every chosen filter, all of them at once. */
export function partSearchFilter(query: string | null | undefined, filters: CatalogueFilters = {}) {
  const clauses: object[] = [];
  const terms = typedTerms(query);
  if (terms) clauses.push(textFilter(terms));
  if (filters.vehicle) clauses.push({ vehicleKeys: vehicleKey(filters.vehicle) });
  if (filters.category) clauses.push({ category: filters.category });
  if (filters.brand) clauses.push({ brand: filters.brand });
  if (filters.inStock) clauses.push({ availableQuantity: { $gt: 0 } });
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

/** A position in a sorted list: the sort key and the id of a card, as "<key>_<id>". */
export const PART_CURSOR_PATTERN = /^(\d{1,15})_([a-f0-9]{24})$/;

type SortKey = { field: "createdAt" | "priceCents"; direction: 1 | -1 };
const SORT_KEYS: Record<PartSort, SortKey> = {
  newest: { field: "createdAt", direction: -1 },
  "price-asc": { field: "priceCents", direction: 1 },
  "price-desc": { field: "priceCents", direction: -1 },
};

function cursorOf(doc: { _id: Types.ObjectId; createdAt?: Date | null; priceCents?: number | null }, sort: PartSort) {
  const key = SORT_KEYS[sort].field === "createdAt" ? (doc.createdAt?.getTime() ?? 0) : (doc.priceCents ?? 0);
  return `${key}_${doc._id.toString()}`;
}

/**
 * The cards after (or before) a cursor, in sort order: a range on the sort index, so a page deep
 * in the list costs the same as the first. The $or is the usual keyset form (ties broken by _id);
 * the inclusive bound beside it is what the index scan starts from.
 */
function keysetFilter(cursor: string, sort: PartSort, side: "after" | "before") {
  const match = PART_CURSOR_PATTERN.exec(cursor);
  if (!match) return null;
  const { field, direction } = SORT_KEYS[sort];
  const value = field === "createdAt" ? new Date(Number(match[1])) : Number(match[1]);
  const id = new mongoose.Types.ObjectId(match[2]);
  const forward = (side === "after") === (direction === 1);
  const op = forward ? "$gt" : "$lt";
  return {
    $and: [
      { [field]: { [forward ? "$gte" : "$lte"]: value } },
      { $or: [{ [field]: { [op]: value } }, { [field]: value, _id: { [op]: id } }] },
    ],
  };
}

const reversed = (spec: Record<string, 1 | -1>) =>
  Object.fromEntries(Object.entries(spec).map(([key, value]) => [key, -value as 1 | -1]));

type ListOptions = {
  query?: string | null;
  filters?: CatalogueFilters;
  sort?: PartSort;
  page?: number;
  perPage?: number;
  withTotal?: boolean;
  /** The total when the caller knows it already (from the filter counts): not counted again. */
  total?: number | null;
  /** Cursors from a neighbouring page (its last or first card): the page after or before it. */
  after?: string | null;
  before?: string | null;
};

/**
 * One page of the catalogue as cards: the one query behind / and /parts, so it can be tuned in one
 * place. Fetches only the card's fields (and the sort key, for the cursors), along an index.
 * `total` is counted only when asked for (the home page does not need it).
 *
 * Every read names its index (listingIndex): an equality, the sort, then the other filters, so
 * the database fetches the page's documents and no others, and counts on the index keys alone.
 *
 * Paging: with a cursor (the links next to a deep page carry one), a range on the index; without
 * one, a skip from whichever end of the list is nearer, so the last pages are as cheap as the
 * first and a page typed in by hand skips at most half the list. Identical reads in flight at
 * the same time share one query (coalesce.server.ts).
 */
export async function listPartCards(options: ListOptions) {
  return coalesce(`part-cards:${JSON.stringify(options)}`, () => readPartCards(options));
}

async function readPartCards({
  query,
  filters,
  sort = "newest",
  page = 1,
  perPage = 12,
  withTotal = true,
  total: known = null,
  after,
  before,
}: ListOptions) {
  if (searchesNothing(query)) return { parts: [], total: withTotal ? 0 : null, cursors: { first: null, last: null } };
  const filter = partSearchFilter(query, filters);
  const cardsFilter = withWordsTest(filter, query);
  const filtered = Object.keys(filter).length > 0;
  const spec = PART_SORT_SPECS[sort];
  const index = listingIndex(listingLead(query, filters), sort);
  const fields = { ...CARD_FIELDS, createdAt: 1 };
  const count = () =>
    known !== null
      ? Promise.resolve(known)
      : withTotal
        ? filtered
          ? Part.countDocuments(filter).hint(index)
          : Part.estimatedDocumentCount()
        : Promise.resolve(null);
  const and = (range: object) => (filtered ? { $and: [cardsFilter, range] } : range);

  let docs: PartDoc[];
  let total: number | null;
  const range = after ? keysetFilter(after, sort, "after") : before ? keysetFilter(before, sort, "before") : null;
  const skip = (Math.max(1, Math.floor(page)) - 1) * perPage;
  if (range && after) {
    [docs, total] = await Promise.all([
      Part.find(and(range)).select(fields).sort(spec).hint(index).limit(perPage).lean(),
      count(),
    ]);
  } else if (range) {
    const [back, counted] = await Promise.all([
      Part.find(and(range)).select(fields).sort(reversed(spec)).hint(index).limit(perPage).lean(),
      count(),
    ]);
    [docs, total] = [back.reverse(), counted];
  } else if (skip > 0 && withTotal) {
    // Deep pages: count first, then skip from the nearer end.
    total = await count();
    const fromEnd = (total ?? 0) - skip - perPage;
    if (total !== null && skip >= total / 2 && skip < total) {
      const back = await Part.find(filter)
        .select(fields)
        .sort(reversed(spec))
        .hint(index)
        .skip(Math.max(0, fromEnd))
        .limit(Math.min(perPage, total - skip))
        .lean();
      docs = back.reverse();
    } else {
      docs = await Part.find(filter).select(fields).sort(spec).hint(index).skip(skip).limit(perPage).lean();
    }
  } else {
    [docs, total] = await Promise.all([
      Part.find(skip > 0 ? filter : cardsFilter)
        .select(fields)
        .sort(spec)
        .hint(index)
        .skip(skip)
        .limit(perPage)
        .lean(),
      count(),
    ]);
  }

  const parts: PartCardView[] = docs.map((doc) => {
    const { createdAt: _createdAt, ...view } = toPartView(doc);
    return {
      ...view,
      brand: doc.brand ?? DEFAULT_BRAND,
      category: (doc.category ?? "other") as Category,
      description: truncate(view.description, CARD_DESCRIPTION_LENGTH),
    };
  });
  const cursors = {
    first: docs.length ? cursorOf(docs[0], sort) : null,
    last: docs.length ? cursorOf(docs[docs.length - 1], sort) : null,
  };
  return { parts, total, cursors };
}

// --- Back office: add, edit, delete ---------------------------------------------------------------

export type NewPart = {
  name: string;
  description: string;
  img: string;
  priceCents: number;
  minOrderQuantity: number;
  availableQuantity: number;
  /** Generated ("PW-" and six characters) when not given. */
  partNumber?: string;
  /** Catalogue data; the model's defaults (category "other", brand PartsWorks, no lists) otherwise. */
  category?: Category;
  brand?: string;
  oeNumbers?: string[];
  fitment?: FitmentRow[];
  volumeBreaks?: VolumeBreak[];
};

function generatePartNumber() {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  let code = "";
  for (let i = 0; i < 6; i++) code += alphabet[Math.floor(Math.random() * alphabet.length)];
  return `PW-${code}`;
}

function isDuplicateKey(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

/**
 * Stores a new part. A part number chosen by the admin that is already taken gives
 * { ok: false, reason: "duplicate" }; a generated one is simply drawn again.
 */
export async function addPart(
  fields: NewPart,
): Promise<{ ok: true; part: PartView } | { ok: false; reason: "duplicate" }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const partNumber = fields.partNumber?.toUpperCase() ?? generatePartNumber();
    try {
      const doc = await Part.create({ ...fields, partNumber });
      return { ok: true, part: toPartView(doc.toObject()) };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      if (fields.partNumber) return { ok: false, reason: "duplicate" };
    }
  }
  throw new Error("Could not draw a free part number");
}

/**
 * Sets the unit price and the stock (restocking). The stock is set only while it is still what
 * the admin saw (`expectedStock`): an order placed in between is never overwritten.
 */
export async function updatePartPriceAndStock({
  partId,
  priceCents,
  availableQuantity,
  expectedStock,
}: {
  partId: string;
  priceCents: number;
  availableQuantity: number;
  expectedStock: number;
}): Promise<{ ok: true; part: PartView } | { ok: false; reason: "missing" | "stock-changed"; part: PartView | null }> {
  if (!isObjectId(partId)) return { ok: false, reason: "missing", part: null };
  const doc = await Part.findOneAndUpdate(
    { _id: partId, availableQuantity: expectedStock },
    // A restock changes what the shop has by as much as it changes what is available.
    { $set: { priceCents, availableQuantity }, $inc: { onHand: availableQuantity - expectedStock } },
    { returnDocument: "after", runValidators: true, projection: { holds: 0 } },
  ).lean();
  if (doc) return { ok: true, part: toPartView(doc) };
  const current = await getPart(partId);
  return { ok: false, reason: current ? "stock-changed" : "missing", part: current };
}

/** Deletes a part; orders keep their own copy of its name and price. Returns what was deleted. */
export async function deletePart(partId: string) {
  if (!isObjectId(partId)) return null;
  const doc = await Part.findOneAndDelete({ _id: partId }).lean();
  return doc ? toPartView(doc) : null;
}

/** The Manage Products table: newest first, one page at a time. */
export async function listPartsForAdmin({ page = 1, perPage = 20 }: { page?: number; perPage?: number } = {}) {
  const total = await Part.countDocuments();
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), pageCount);
  const docs = await Part.find({}, NO_HOLDS)
    .sort({ createdAt: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  return { parts: docs.map(toPartView), page: current, pageCount, total };
}

/** A part as the CSV export lists it. */
export type PartExportRow = {
  partNumber: string;
  name: string;
  category: string;
  brand: string;
  priceCents: number;
  availableQuantity: number;
  minOrderQuantity: number;
  volumeBreaks: VolumeBreak[];
};

/** Every part, by part number, one at a time (the CSV export: no page limit). */
export async function* eachPartForExport(): AsyncGenerator<PartExportRow> {
  const cursor = Part.find(
    {},
    {
      partNumber: 1,
      name: 1,
      category: 1,
      brand: 1,
      priceCents: 1,
      availableQuantity: 1,
      minOrderQuantity: 1,
      volumeBreaks: 1,
    },
  )
    .sort({ partNumber: 1 })
    .lean()
    .cursor({ batchSize: 500 });
  for await (const doc of cursor) {
    yield {
      partNumber: doc.partNumber ?? "",
      name: doc.name ?? "",
      category: doc.category ?? "other",
      brand: doc.brand ?? "",
      priceCents: doc.priceCents ?? 0,
      availableQuantity: doc.availableQuantity ?? 0,
      minOrderQuantity: doc.minOrderQuantity ?? DEFAULT_MIN_ORDER_QUANTITY,
      volumeBreaks: toPartView(doc).volumeBreaks,
    };
  }
}

/**
 * One line of a stock-and-price import: sets the fields given, only while each is still what the
 * dry run saw (a change made meanwhile is reported, never overwritten). Returns the part before and
 * after, or why nothing changed.
 */
export async function applyImportedChange({
  partId,
  stock,
  priceCents,
  breaks = null,
}: {
  partId: string;
  stock: { before: number; after: number } | null;
  priceCents: { before: number; after: number } | null;
  /** Volume breaks as the dry run saw them and as the file sets them (already checked). */
  breaks?: { before: string; after: VolumeBreak[] } | null;
}): Promise<
  { ok: true; before: PartView; after: PartView } | { ok: false; reason: "missing" | "changed"; part: PartView | null }
> {
  if (!isObjectId(partId)) return { ok: false, reason: "missing", part: null };
  if (breaks) {
    // The breaks are compared as read here (an array has no simple conditional match); price and stock below are atomic.
    const current = await getPart(partId);
    if (!current) return { ok: false, reason: "missing", part: null };
    if (formatBreaks(current.volumeBreaks) !== breaks.before) return { ok: false, reason: "changed", part: current };
  }
  const set = {
    ...(stock ? { availableQuantity: stock.after } : {}),
    ...(priceCents ? { priceCents: priceCents.after } : {}),
    ...(breaks ? { volumeBreaks: breaks.after } : {}),
  };
  const doc = await Part.findOneAndUpdate(
    {
      _id: partId,
      ...(stock ? { availableQuantity: stock.before } : {}),
      ...(priceCents ? { priceCents: priceCents.before } : {}),
    },
    { $set: set, ...(stock ? { $inc: { onHand: stock.after - stock.before } } : {}) },
    { returnDocument: "before", runValidators: true, projection: { holds: 0 } },
  ).lean();
  if (doc) {
    const before = toPartView(doc);
    return { ok: true, before, after: { ...before, ...set } };
  }
  const current = await getPart(partId);
  return { ok: false, reason: current ? "changed" : "missing", part: current };
}
