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
  backorderable: boolean;
  /** YYYY-MM-DD, or null. */
  restockOn: string | null;
  leadTimeDays: number | null;
};

/** Whether a part may be backordered and when its stock is expected (the import's backorder columns). */
type Policy = { allowed: boolean; restockOn: string | null; leadTimeDays: number | null };
const dayOf = (day: string | null) => (day ? new Date(`${day}T00:00:00Z`) : null);

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
      backorderable: 1,
      restockOn: 1,
      leadTimeDays: 1,
    },
  )
    .sort({ partNumber: 1 })
    .lean()
    .cursor({ batchSize: 500 });
  for await (const doc of cursor) {
    const view = toPartView(doc);
    yield {
      partNumber: doc.partNumber ?? "",
      name: doc.name ?? "",
      category: doc.category ?? "other",
      brand: doc.brand ?? "",
      priceCents: doc.priceCents ?? 0,
      availableQuantity: doc.availableQuantity ?? 0,
      minOrderQuantity: doc.minOrderQuantity ?? DEFAULT_MIN_ORDER_QUANTITY,
      volumeBreaks: view.volumeBreaks,
      backorderable: view.backorderable,
      restockOn: view.restockOn,
      leadTimeDays: view.leadTimeDays,
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
  backorder = null,
}: {
  partId: string;
  stock: { before: number; after: number } | null;
  priceCents: { before: number; after: number } | null;
  /** Volume breaks as the dry run saw them and as the file sets them (already checked). */
  breaks?: { before: string; after: VolumeBreak[] } | null;
  /** The backorder policy as the dry run saw it and as the file sets it. */
  backorder?: { before: Policy; after: Policy } | null;
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
    ...(backorder
      ? {
          backorderable: backorder.after.allowed,
          restockOn: dayOf(backorder.after.restockOn),
          leadTimeDays: backorder.after.leadTimeDays,
        }
      : {}),
  };
  const doc = await Part.findOneAndUpdate(
    {
      _id: partId,
      ...(stock ? { availableQuantity: stock.before } : {}),
      ...(priceCents ? { priceCents: priceCents.before } : {}),
      // Stored before backorders had fields, a part has none of them: false and null match a missing one.
      ...(backorder
        ? {
            backorderable: backorder.before.allowed ? true : { $ne: true },
            restockOn: dayOf(backorder.before.restockOn),
            leadTimeDays: backorder.before.leadTimeDays,
          }
        : {}),
    },
    { $set: set, ...(stock ? { $inc: { onHand: stock.after - stock.before } } : {}) },
    { returnDocument: "before", runValidators: true, projection: { holds: 0 } },
  ).lean();
  if (doc) {
    const before = toPartView(doc);
    const { restockOn: _stored, ...rest } = set;
    const after: PartView = { ...before, ...rest, ...(backorder ? { restockOn: backorder.after.restockOn } : {}) };
    return { ok: true, before, after };
  }
  const current = await getPart(partId);
  return { ok: false, reason: current ? "changed" : "missing", part: current };
}
