import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { CURRENCY_CODES, currencyOf } from "~/domain/money";
import type { GroupRule, PriceGroupRules } from "~/domain/pricing";

/**
 * A customer price group (docs/behaviour.md, "Prices"): a discount on every part, discounts by
 * category or brand, net prices for named part numbers. A customer's account names at most one.
 */
const ruleSchema = new Schema(
  {
    kind: { type: String, enum: ["category", "brand", "part"], required: true },
    /** The category id, the brand name or the part number the rule names. */
    value: { type: String, required: true, trim: true, maxlength: 40 },
    percentOff: { type: Number, min: 0, max: 99.99 },
    unitPriceCents: { type: Number, min: 1, validate: Number.isInteger },
    /** A net price's currency (unset: the home currency, as every net price kept before currencies). */
    currency: { type: String, enum: CURRENCY_CODES },
  },
  { _id: false },
);

const priceGroupSchema = new Schema(
  {
    name: { type: String, required: true, trim: true, maxlength: 60 },
    /** Lower-case name: one group per name. */
    nameKey: { type: String, required: true },
    percentOff: { type: Number, min: 0, max: 99.99, default: 0 },
    rules: { type: [ruleSchema], default: [] },
    stacksWithBreaks: { type: Boolean, default: false },
  },
  { timestamps: true },
);
priceGroupSchema.index({ nameKey: 1 }, { unique: true });

export type PriceGroupDoc = InferSchemaType<typeof priceGroupSchema> & { _id: Types.ObjectId };

export const PriceGroup: mongoose.Model<PriceGroupDoc> =
  (mongoose.models.PriceGroup as mongoose.Model<PriceGroupDoc>) ??
  mongoose.model<PriceGroupDoc>("PriceGroup", priceGroupSchema);

export type PriceGroupView = PriceGroupRules;

export type PriceGroupInput = Omit<PriceGroupRules, "id">;

export function toPriceGroupView(doc: Partial<PriceGroupDoc> & { _id: Types.ObjectId }): PriceGroupView {
  return {
    id: doc._id.toString(),
    name: doc.name ?? "",
    percentOff: doc.percentOff ?? 0,
    stacksWithBreaks: Boolean(doc.stacksWithBreaks),
    rules: (doc.rules ?? []).map((rule): GroupRule =>
      rule.kind === "part"
        ? {
            kind: "part",
            value: rule.value,
            unitPriceCents: rule.unitPriceCents ?? 1,
            currency: currencyOf(rule.currency),
          }
        : { kind: rule.kind as "category" | "brand", value: rule.value, percentOff: rule.percentOff ?? 0 },
    ),
  };
}

const isId = (id: string) => /^[a-f0-9]{24}$/i.test(id);

export async function listPriceGroups() {
  const docs = await PriceGroup.find().sort({ nameKey: 1 }).limit(200).lean();
  return docs.map(toPriceGroupView);
}

export async function getPriceGroup(id: string | null | undefined) {
  if (!id || !isId(id)) return null;
  const doc = await PriceGroup.findById(id).lean();
  return doc ? toPriceGroupView(doc) : null;
}

export async function priceGroupNameTaken(name: string, exceptId?: string) {
  const filter: Record<string, unknown> = { nameKey: name.trim().toLowerCase() };
  if (exceptId && isId(exceptId)) filter._id = { $ne: exceptId };
  return Boolean(await PriceGroup.exists(filter));
}

/** Creates a group, or saves an existing one; null when the id names none. */
export async function savePriceGroup(input: PriceGroupInput, id?: string) {
  const fields = { ...input, nameKey: input.name.trim().toLowerCase() };
  if (!id) {
    const doc = await PriceGroup.create(fields);
    return toPriceGroupView(doc.toObject());
  }
  if (!isId(id)) return null;
  const doc = await PriceGroup.findByIdAndUpdate(
    id,
    { $set: fields },
    { returnDocument: "after", runValidators: true },
  ).lean();
  return doc ? toPriceGroupView(doc) : null;
}

export async function deletePriceGroup(id: string) {
  if (!isId(id)) return false;
  return (await PriceGroup.deleteOne({ _id: id })).deletedCount === 1;
}
