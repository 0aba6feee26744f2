import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

export const DEFAULT_MIN_ORDER_QUANTITY = 100;

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
  },
  { timestamps: true },
);

partSchema.index({ createdAt: -1, _id: -1 });
partSchema.index({ priceCents: 1, _id: 1 });
partSchema.index({ partNumber: 1 }, { unique: true });
partSchema.index({ name: 1 });

export type PartDoc = InferSchemaType<typeof partSchema> & { _id: Types.ObjectId };

export const Part: mongoose.Model<PartDoc> =
  (mongoose.models.Part as mongoose.Model<PartDoc>) ?? mongoose.model<PartDoc>("Part", partSchema);

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
  };
}

export function isObjectId(value: string) {
  return /^[a-f0-9]{24}$/i.test(value);
}

export async function getPart(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Part.findById(id).lean();
  return doc ? toPartView(doc) : null;
}

export async function getNewestParts(limit: number) {
  const docs = await Part.find().sort({ createdAt: -1, _id: -1 }).limit(limit).lean();
  return docs.map(toPartView);
}

/**
 * Takes `quantity` units out of stock in one conditional atomic update: it succeeds only while
 * enough stock is left, so concurrent orders can never push stock below zero.
 * Returns the part as it was after the update, or null when there was not enough stock.
 */
export async function reserveStock(partId: string, quantity: number) {
  const doc = await Part.findOneAndUpdate(
    { _id: partId, availableQuantity: { $gte: quantity } },
    { $inc: { availableQuantity: -quantity } },
    { returnDocument: "after" },
  ).lean();
  return doc ? toPartView(doc) : null;
}

/** Gives stock back (an unpaid order cancelled or removed). A deleted part gets nothing back. */
export async function releaseStock(partId: string, quantity: number) {
  await Part.updateOne({ _id: partId }, { $inc: { availableQuantity: quantity } });
}
