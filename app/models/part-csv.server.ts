import { formatBreaks, type VolumeBreak } from "~/domain/pricing";
import type { PartView } from "~/domain/catalogue";
import { DEFAULT_MIN_ORDER_QUANTITY, getPart, isObjectId, Part, toPartView } from "./part.server";

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
