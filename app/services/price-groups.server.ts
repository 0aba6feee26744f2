/**
 * The price group services of the admins' Price Groups screen: saving a group (new or changed) and
 * deleting one. Each goes through one function here, which calls the model and raises the audit entry.
 */
import { deletePriceGroup, getPriceGroup, savePriceGroup, type PriceGroupInput } from "~/models/price-group.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { formatRules } from "~/forms/pricing-forms";

type By = { actor: { id: string; email: string }; context?: AuditEvent["context"] };

/** Deletes `group` (the screen checked it has no customers), audited. */
export async function removePriceGroup(group: { id: string; name: string }, { actor, context }: By) {
  await deletePriceGroup(group.id);
  await audit({
    context,
    actor,
    action: "price-group.delete",
    target: { type: "price-group", id: group.id, label: group.name },
  });
}

/**
 * Saves a new price group, or the one `id` names, audited with its discount and rules before and
 * after; null when the group `id` names no longer exists.
 */
export async function writePriceGroup(input: PriceGroupInput, id: string | undefined, { actor, context }: By) {
  const before = id ? await getPriceGroup(id) : null;
  if (id && !before) return null;
  const saved = await savePriceGroup(input, id);
  if (!saved) return null;
  await audit({
    context,
    actor,
    action: "price-group.save",
    target: { type: "price-group", id: saved.id, label: saved.name },
    before: before
      ? { percentOff: before.percentOff, rules: formatRules(before.rules), stacksWithBreaks: before.stacksWithBreaks }
      : null,
    after: { percentOff: saved.percentOff, rules: formatRules(saved.rules), stacksWithBreaks: saved.stacksWithBreaks },
  });
  return saved;
}
