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
export async function addPart(fields: NewPart): Promise<{ ok: true; part: PartView } | { ok: false; reason: "duplicate" }> {
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
    { $set: { priceCents, availableQuantity } },
    { returnDocument: "after", runValidators: true },
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
  const docs = await Part.find()
    .sort({ createdAt: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  return { parts: docs.map(toPartView), page: current, pageCount, total };
}
