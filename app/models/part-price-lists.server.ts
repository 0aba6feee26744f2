/**
 * A part's price lists in every currency, as the price lists CSV reads and writes them: the home
 * list (the part's own price and volume breaks) and its lists in other currencies (`prices`).
 */
import { CURRENCY_CODES, HOME_CURRENCY, type Currency } from "~/domain/money";
import { formatBreaks, type PriceList, type VolumeBreak } from "~/domain/pricing";
import { isObjectId, Part, toPartView } from "./part.server";

/** A part's lists: the home price and breaks, and the lists in other currencies (one a currency at most). */
export type PartPriceLists = { priceCents: number; volumeBreaks: VolumeBreak[]; prices: PriceList[] };

/** One row of the export: a part's list in one currency (no price: not sold in it). */
export type PriceListRow = {
  partNumber: string;
  currency: Currency;
  priceCents: number | null;
  volumeBreaks: VolumeBreak[];
};

const LIST_FIELDS = { partNumber: 1, priceCents: 1, volumeBreaks: 1, prices: 1 } as const;

/** A part's lists in one currency: the home one from its own fields. */
export function listIn(
  lists: PartPriceLists,
  currency: Currency,
): { priceCents: number; volumeBreaks: VolumeBreak[] } | null {
  if (currency === HOME_CURRENCY) return { priceCents: lists.priceCents, volumeBreaks: lists.volumeBreaks };
  return lists.prices.find((list) => list.currency === currency) ?? null;
}

/** Two states of a part's lists compare equal exactly when this is equal (breaks as the CSV writes them). */
export function priceListsKey(lists: PartPriceLists) {
  return JSON.stringify([
    lists.priceCents,
    formatBreaks(lists.volumeBreaks),
    lists.prices.map((list) => [list.currency, list.priceCents, formatBreaks(list.volumeBreaks)]),
  ]);
}

/** Every part by part number, a row per currency in the currencies' order (the export: no page limit). */
export async function* eachPriceListForExport(): AsyncGenerator<PriceListRow> {
  const cursor = Part.find({}, LIST_FIELDS).sort({ partNumber: 1 }).lean().cursor({ batchSize: 500 });
  for await (const doc of cursor) {
    const view = toPartView(doc);
    for (const currency of CURRENCY_CODES) {
      const list = listIn(view, currency);
      yield {
        partNumber: view.partNumber,
        currency,
        priceCents: list?.priceCents ?? null,
        volumeBreaks: list?.volumeBreaks ?? [],
      };
    }
  }
}

/**
 * Sets a part's lists in every currency, only while they are still `expected` (what the import
 * read): the home price in the update's own condition, the breaks and the other lists compared as
 * read just before it (an array of lists has no simple conditional match), as the stock import does.
 */
export async function setPriceLists(
  partId: string,
  expected: PartPriceLists,
  lists: PartPriceLists,
): Promise<{ ok: true } | { ok: false; reason: "missing" | "changed" }> {
  if (!isObjectId(partId)) return { ok: false, reason: "missing" };
  const current = await Part.findById(partId, LIST_FIELDS).lean();
  if (!current) return { ok: false, reason: "missing" };
  if (priceListsKey(toPartView(current)) !== priceListsKey(expected)) return { ok: false, reason: "changed" };
  const doc = await Part.findOneAndUpdate(
    { _id: partId, priceCents: expected.priceCents },
    { $set: { priceCents: lists.priceCents, volumeBreaks: lists.volumeBreaks, prices: lists.prices } },
    { runValidators: true, projection: { _id: 1 } },
  ).lean();
  return doc ? { ok: true } : { ok: false, reason: "changed" };
}
