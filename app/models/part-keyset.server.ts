import mongoose, { type Types } from "mongoose";
import type { PartSort } from "~/domain/search";

/** A position in a sorted list: the sort key and the id of a card, as "<key>_<id>". */
export const PART_CURSOR_PATTERN = /^(\d{1,15})_([a-f0-9]{24})$/;

type SortKey = { field: "createdAt" | "priceCents"; direction: 1 | -1 };
const SORT_KEYS: Record<PartSort, SortKey> = {
  newest: { field: "createdAt", direction: -1 },
  "price-asc": { field: "priceCents", direction: 1 },
  "price-desc": { field: "priceCents", direction: -1 },
};

export function cursorOf(
  doc: { _id: Types.ObjectId; createdAt?: Date | null; priceCents?: number | null },
  sort: PartSort,
) {
  const key = SORT_KEYS[sort].field === "createdAt" ? (doc.createdAt?.getTime() ?? 0) : (doc.priceCents ?? 0);
  return `${key}_${doc._id.toString()}`;
}

/**
 * The cards after (or before) a cursor, in sort order: a range on the sort index, so a page deep
 * in the list costs the same as the first. The $or is the usual keyset form (ties broken by _id);
 * the inclusive bound beside it is what the index scan starts from.
 */
export function keysetFilter(cursor: string, sort: PartSort, side: "after" | "before") {
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

export const reversed = (spec: Record<string, 1 | -1>) =>
  Object.fromEntries(Object.entries(spec).map(([key, value]) => [key, -value as 1 | -1]));
