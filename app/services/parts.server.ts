/**
 * The catalogue services: adding, editing, repricing, restocking and deleting a part. Each change
 * goes through one function here, which calls the part model and raises the audit entry (and, on a
 * restock, hands the arrived stock to the orders waiting on backorder). Models only store.
 */
import { addPart, deletePart, updatePartPriceAndStock, type NewPart } from "~/models/part.server";
import { updatePartCatalogue, type PartEdit } from "~/models/part-catalogue.server";
import type { PartView } from "~/domain/catalogue";
import { formatBreaks } from "~/domain/pricing";
import { priceListValues } from "~/forms/price-list-forms";
import { quoteFloorValues } from "~/forms/quote-floor-forms";
import { audit, type AuditEvent, type AuditValues } from "./audit-trail.server";
import { forgetCachedSearches } from "./search-guard.server";

type By = { actor: { id: string; email: string }; context?: AuditEvent["context"] };

/** A part as an audit target and the values the log keeps of it (one shape for add, edit, delete). */
export function partTarget(part: { id: string; name: string }) {
  return { type: "part" as const, id: part.id, label: part.name };
}

export function partValues(part: {
  partNumber: string;
  priceCents: number;
  availableQuantity: number;
  minOrderQuantity: number;
}): AuditValues {
  const { partNumber, priceCents, availableQuantity, minOrderQuantity } = part;
  return { partNumber, priceCents, availableQuantity, minOrderQuantity };
}

function editValues(part: PartEdit): AuditValues {
  return {
    name: part.name,
    description: part.description,
    img: part.img,
    priceCents: part.priceCents,
    minOrderQuantity: part.minOrderQuantity,
    partNumber: part.partNumber,
    category: part.category,
    brand: part.brand,
    oeNumbers: part.oeNumbers.join(", "),
    fitment: part.fitment
      .map((row) => `${row.make} ${row.model} ${row.yearFrom}-${row.yearTo}${row.engine ? ` ${row.engine}` : ""}`)
      .join("; "),
    lowStockThreshold: part.lowStockThreshold,
    volumeBreaks: formatBreaks(part.volumeBreaks),
    ...priceListValues(part.prices ?? []),
    backorderable: part.backorderable ?? false,
    restockOn: part.restockOn ?? null,
    leadTimeDays: part.leadTimeDays ?? null,
    ...quoteFloorValues(part.quoteFloors ?? []),
  };
}

/** An Edit Product save as the log keeps it: only the fields that changed, before and after. */
export function partEditChanges(before: PartEdit, after: PartEdit) {
  const was = editValues(before);
  // An edit that leaves the lists in other currencies alone keeps them.
  const now = editValues({
    ...after,
    prices: after.prices ?? before.prices,
    quoteFloors: after.quoteFloors ?? before.quoteFloors,
  });
  const changed = Object.keys(now).filter((key) => was[key] !== now[key]);
  return {
    before: Object.fromEntries(changed.map((key) => [key, was[key]])) as AuditValues,
    after: Object.fromEntries(changed.map((key) => [key, now[key]])) as AuditValues,
  };
}

/** Add Product: the new part, audited; a part number already in use is refused (nothing written). */
export async function createPart(fields: NewPart, { actor, context }: By) {
  const result = await addPart(fields);
  if (result.ok) {
    forgetCachedSearches();
    await audit({
      context,
      actor,
      action: "part.add",
      target: partTarget(result.part),
      after: { ...partValues(result.part), ...priceListValues(result.part.prices ?? []) },
    });
  }
  return result;
}

/** Edit Product: the catalogue fields, audited with only the fields that changed. */
export async function editPart(id: string, fields: PartEdit, { actor, context }: By) {
  const result = await updatePartCatalogue(id, fields);
  if (result.ok) {
    forgetCachedSearches();
    await audit({
      context,
      actor,
      action: "part.edit",
      target: partTarget({ id, name: fields.name }),
      ...partEditChanges(result.before, result.after),
    });
  }
  return result;
}

/** Deletes a part (orders keep their own copy of it), audited; what was deleted, or null. */
export async function removePart(partId: string, { actor, context }: By) {
  const deleted = await deletePart(partId);
  if (deleted) {
    forgetCachedSearches();
    await audit({ context, actor, action: "part.delete", target: partTarget(deleted), before: partValues(deleted) });
  }
  return deleted;
}

/**
 * Manage Products' price and stock save (only while the stock is still what the admin saw), audited
 * against `previous`, the part as the admin's form read it. `arrived`: the units by which the stock
 * rose (0 when it did not), which the order module gives to the orders waiting on backorder first
 * (orders/warehouse.server.ts, restockPart).
 */
export async function savePriceAndStock(
  change: { partId: string; priceCents: number; availableQuantity: number; expectedStock: number },
  previous: PartView | null,
  { actor, context }: By,
) {
  const updated = await updatePartPriceAndStock(change);
  if (!updated.ok) return updated;
  forgetCachedSearches();
  await audit({
    context,
    actor,
    action: "part.update",
    target: partTarget(updated.part),
    before: previous && { ...partValues(previous), availableQuantity: change.expectedStock },
    after: partValues(updated.part),
  });
  return { ...updated, arrived: Math.max(0, change.availableQuantity - change.expectedStock) };
}
