import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { CATEGORIES, DEFAULT_BRAND, type Category, type FitmentRow, type PartView } from "~/domain/catalogue";
import { catalogueKeys } from "~/domain/part-search-keys";
import type { PriceList, VolumeBreak } from "~/domain/pricing";
import type { Currency } from "~/domain/money";
import {
  breaksOf,
  floorsIn,
  priceListSchema,
  priceListsOf,
  quoteFloorSchema,
  volumeBreakSchema,
} from "./part-prices.server";
import { LISTING_LEADS, listingIndex } from "./part-query-plan.server";
import { addOeKeys, addToVocabulary, partIdsWithOeKeys } from "./search-vocabulary.server";

export const DEFAULT_MIN_ORDER_QUANTITY = 100;

export { priceListsOf } from "./part-prices.server";

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

/**
 * An order's hold on the part: the line's units, of which `backordered` are still waiting for stock
 * and `shipped` have left (each shipment's id noted, so it is counted once). The units it holds on
 * the shelf are quantity - backordered - shipped. Holds stay in the order they were taken: the
 * oldest backorder is first in line (stock-holds.server.ts).
 */
const holdSchema = new Schema(
  {
    orderId: { type: Schema.Types.ObjectId, required: true },
    quantity: { type: Number, required: true, min: 1 },
    backordered: { type: Number, min: 0 },
    shipped: { type: Number, min: 0 },
    shipments: { type: [Schema.Types.ObjectId], default: undefined },
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
    /** Volume breaks, sorted by quantity (domain/pricing.ts): from minQuantity, a % off list or a unit price. */
    volumeBreaks: { type: [volumeBreakSchema], default: undefined },
    /**
     * The part's price lists in other currencies than the home one (priceCents and volumeBreaks
     * above), one a currency, in its minor unit: a part is sold in a currency only from its list there.
     */
    prices: { type: [priceListSchema], default: undefined },
    /** The lowest unit price staff may quote without an override, per currency: never shown to buyers. */
    quoteFloors: { type: [quoteFloorSchema], default: undefined },
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
     * and no hold is given back twice (orders/model/holds.server.ts).
     */
    holds: { type: [holdSchema], default: undefined },
    /** Returns whose units came back to this part's stock: each is counted once (stock-holds.server.ts). */
    restockedReturns: { type: [Schema.Types.ObjectId], default: undefined, select: false },
    /** Orders beyond the stock are taken, the rest waiting on backorder (else refused as ever). */
    backorderable: { type: Boolean, default: false },
    /** When the next stock is expected (a day), or else how many days a restock takes. */
    restockOn: { type: Date, default: null },
    leadTimeDays: {
      type: Number,
      min: 1,
      max: 365,
      default: null,
      validate: (v: number | null) => v === null || Number.isInteger(v),
    },
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
     * (catalogue.ts, searchTerms): a search for "brak" is an equality on this array. Also the
     * deletion keys of those words ("~filtr" for "filter", search-text.ts), which forgive typos.
     */
    terms: { type: [String], default: undefined },
    /** The words whose prefixes the terms are (about a fifth as many): see textFilter. */
    words: { type: [String], default: undefined },
    /** Which derivation wrote the keys above (SEARCH_KEYS_VERSION): older ones are rewritten at start. */
    searchKeysVersion: { type: Number },
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

// The catalogue's vocabulary ("did you mean", typing errors) gets a part's words before the part is
// written with them (search-vocabulary.server.ts); insertMany, which the shop uses only in scripts,
// after.
partSchema.pre("save", async function () {
  if (this.isNew || this.isModified("words")) await addToVocabulary(this.words ?? []);
  if (this.isNew || this.isModified("oeKeys")) await addOeKeys([{ id: this._id, oeKeys: this.oeKeys ?? [] }]);
});
partSchema.post("insertMany", async function (docs: unknown) {
  const parts = docs as { _id: Types.ObjectId; words?: string[]; oeKeys?: string[] }[];
  await addToVocabulary(parts.flatMap((doc) => doc.words ?? []));
  await addOeKeys(parts.map((doc) => ({ id: doc._id, oeKeys: doc.oeKeys ?? [] })));
});

// See the README's index table for the query behind each.
for (const lead of LISTING_LEADS) {
  partSchema.index(listingIndex(lead, "newest"));
  partSchema.index(listingIndex(lead, "price-asc"));
}
partSchema.index({ partNumber: 1 }, { unique: true });
partSchema.index({ partNumberKey: 1 }, { unique: true, sparse: true });
partSchema.index({ oeKeys: 1 });
// The start's backfill: the parts whose search keys an older version wrote.
partSchema.index({ searchKeysVersion: 1 });
// The stock check and the sweep: the parts an order holds stock on.
partSchema.index({ "holds.orderId": 1 }, { sparse: true });
// Shop Today and the allocation sweep: the parts with units on backorder.
partSchema.index({ "holds.backordered": 1 }, { sparse: true });

export type PartDoc = InferSchemaType<typeof partSchema> & { _id: Types.ObjectId };

export const Part: mongoose.Model<PartDoc> =
  (mongoose.models.Part as mongoose.Model<PartDoc>) ?? mongoose.model<PartDoc>("Part", partSchema);

/** Screens never need the holds (a busy part has one per open order): reads leave them out. */
const NO_HOLDS = { holds: 0 } as const;

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
    volumeBreaks: breaksOf(doc.volumeBreaks),
    prices: priceListsOf(doc.prices),
    backorderable: Boolean(doc.backorderable),
    restockOn: doc.restockOn ? doc.restockOn.toISOString().slice(0, 10) : null,
    leadTimeDays: doc.leadTimeDays ?? null,
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

/** The quote floors staff set for these parts in `currency`, by part id (staff screens only). */
export async function getQuoteFloors(ids: string[], currency: Currency) {
  const valid = [...new Set(ids.filter(isObjectId))];
  const docs = valid.length ? await Part.find({ _id: { $in: valid } }, { quoteFloors: 1 }).lean() : [];
  return floorsIn(docs, currency);
}

/** The parts with these ids that still exist, by id (malformed ids are skipped). */
export async function getPartsByIds(ids: string[]) {
  const valid = [...new Set(ids.filter(isObjectId))];
  const docs = valid.length ? await Part.find({ _id: { $in: valid } }, NO_HOLDS).lean() : [];
  return new Map(docs.map((doc) => [doc._id.toString(), toPartView(doc)]));
}

/**
 * The parts whose number key, or one of whose OE keys, is one of these keys (catalogue.ts,
 * partNumberKey), with their keys, for the part-number resolver. Read by keys only, so the local
 * stand-in (which keeps unique indexes alone) never scans the catalogue either: the unique number
 * key, then, for the keys that are no part's number, the parts the vocabulary says listed them as
 * OE numbers (by `_id`, tested here: a part may have dropped the number since).
 */
export async function getPartsByNumberKeys(keys: string[]) {
  const wanted = [...new Set(keys.filter(Boolean))];
  if (!wanted.length) return [];
  const own = await Part.find({ partNumberKey: { $in: wanted } }, { ...NO_HOLDS, terms: 0, words: 0 }).lean();
  const ownIds = new Set(own.map((doc) => doc._id.toString()));
  const others = wanted.filter((key) => !own.some((doc) => doc.partNumberKey === key));
  const listed = others.length ? await partIdsWithOeKeys(others) : [];
  const toRead = listed.filter((id) => !ownIds.has(id.toString()));
  const replacing = toRead.length
    ? (await Part.find({ _id: { $in: toRead } }, { ...NO_HOLDS, terms: 0, words: 0 }).lean()).filter((doc) =>
        (doc.oeKeys ?? []).some((key) => others.includes(key)),
      )
    : [];
  return [...own, ...replacing].map((doc) => ({
    part: toPartView(doc),
    key: doc.partNumberKey ?? "",
    oeKeys: doc.oeKeys ?? [],
  }));
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
  /** The lists in other currencies (none: sold in dollars only). */
  prices?: PriceList[];
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

/**
 * A part's stock in the four words Manage Products uses: `onShelf` (onHand: the units the shop has
 * and has not shipped), `held` (of those, the units orders hold), `available` (the rest, free to
 * order) and `backordered` (units ordered beyond the shelf, waiting for stock), with how many
 * orders wait.
 */
export function stockOf(doc: Pick<PartDoc, "availableQuantity" | "onHand" | "holds">) {
  let held = 0;
  let backordered = 0;
  let waiting = 0;
  for (const hold of doc.holds ?? []) {
    held += hold.quantity - (hold.backordered ?? 0) - (hold.shipped ?? 0);
    backordered += hold.backordered ?? 0;
    if ((hold.backordered ?? 0) > 0) waiting++;
  }
  const available = doc.availableQuantity ?? 0;
  return { onShelf: doc.onHand ?? available + held, held, available, backordered, waiting };
}

/** The Manage Products table: newest first, one page at a time, each part with its stock (stockOf). */
export async function listPartsForAdmin({ page = 1, perPage = 20 }: { page?: number; perPage?: number } = {}) {
  const total = await Part.countDocuments();
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), pageCount);
  // The holds' counts only (a hold's shipment ids can be many), and none of the search keys.
  const docs = await Part.find({}, { terms: 0, words: 0, "holds.shipments": 0 })
    .sort({ createdAt: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  return { parts: docs.map((doc) => ({ ...toPartView(doc), stock: stockOf(doc) })), page: current, pageCount, total };
}
