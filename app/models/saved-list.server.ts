import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { isObjectId } from "./part.server";
import { isDuplicateKeyError, User } from "./user.server";

/**
 * A customer's saved list: a name, its lines (part and quantity, with the part number and name as
 * they were when saved, for display) and whether the owner's company sees it. The rules a list
 * keeps (names, quantities, who may change it) are the service's (services/saved-lists.server.ts).
 */
const savedListLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    partNumber: { type: String, required: true },
    name: { type: String, required: true },
    quantity: { type: Number, required: true, min: 1 },
  },
  { _id: false },
);

const savedListSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true },
    companyId: { type: Schema.Types.ObjectId, required: true },
    name: { type: String, required: true, maxlength: 80 },
    /** The name in lower case, trimmed: one list of a name per owner, whatever its case. */
    nameKey: { type: String, required: true },
    shared: { type: Boolean, required: true, default: false },
    lines: { type: [savedListLineSchema], default: [] },
    version: { type: Number, required: true, default: 0 },
  },
  { timestamps: true },
);

savedListSchema.index({ ownerId: 1, nameKey: 1 }, { unique: true });
savedListSchema.index({ companyId: 1, shared: 1, updatedAt: -1 });

export type SavedListDoc = InferSchemaType<typeof savedListSchema> & {
  _id: Types.ObjectId;
  createdAt: Date;
  updatedAt: Date;
};

export const SavedList: mongoose.Model<SavedListDoc> =
  (mongoose.models.SavedList as mongoose.Model<SavedListDoc>) ??
  mongoose.model<SavedListDoc>("SavedList", savedListSchema, "saved_lists");

export type SavedListLine = { partId: string; partNumber: string; name: string; quantity: number };

export type SavedListView = {
  id: string;
  ownerId: string;
  companyId: string;
  name: string;
  shared: boolean;
  lines: SavedListLine[];
  version: number;
  updatedAt: string;
};

export const listNameKey = (name: string) => name.trim().toLowerCase();

function toView(doc: SavedListDoc): SavedListView {
  return {
    id: doc._id.toString(),
    ownerId: doc.ownerId.toString(),
    companyId: doc.companyId.toString(),
    name: doc.name,
    shared: doc.shared,
    lines: doc.lines.map((line) => ({
      partId: line.partId.toString(),
      partNumber: line.partNumber,
      name: line.name,
      quantity: line.quantity,
    })),
    version: doc.version,
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export async function getSavedList(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await SavedList.findById(id).lean();
  return doc ? toView(doc) : null;
}

/** The owner's own lists and the company's shared ones, last changed first. */
export async function listSavedLists({ ownerId, companyId }: { ownerId: string; companyId: string }) {
  const [own, shared] = await Promise.all([
    SavedList.find({ ownerId }).sort({ updatedAt: -1 }).limit(500).lean(),
    isObjectId(companyId)
      ? SavedList.find({ companyId, shared: true }).sort({ updatedAt: -1 }).limit(500).lean()
      : Promise.resolve([]),
  ]);
  const seen = new Set<string>();
  return [...own, ...shared]
    .filter((doc) => !seen.has(doc._id.toString()) && seen.add(doc._id.toString()))
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
    .map(toView);
}

/** The names of these people, by id (for "who owns it"). */
export async function ownerNames(ids: string[]) {
  const valid = [...new Set(ids.filter(isObjectId))];
  const docs = valid.length ? await User.find({ _id: { $in: valid } }, { name: 1 }).lean() : [];
  return new Map(docs.map((doc) => [doc._id.toString(), doc.name]));
}

/** A new list; `taken` when the owner has one of that name already (any case). */
export async function insertSavedList(list: {
  ownerId: string;
  companyId: string;
  name: string;
  shared: boolean;
  lines: SavedListLine[];
}): Promise<{ ok: true; list: SavedListView } | { ok: false; taken: true }> {
  try {
    const doc = await SavedList.create({ ...list, name: list.name.trim(), nameKey: listNameKey(list.name) });
    return { ok: true, list: toView(doc.toObject() as SavedListDoc) };
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, taken: true };
    throw error;
  }
}

export type ListChange = { name?: string; shared?: boolean; lines?: SavedListLine[] };

/**
 * Writes `change` only while the list is still at `version` (what was read and checked): two
 * people editing one shared list never lose a change silently. `stale` when it changed meanwhile,
 * `taken` when the new name is another of the owner's lists.
 */
export async function updateSavedList(
  id: string,
  version: number,
  change: ListChange,
): Promise<"ok" | "stale" | "taken"> {
  const set: Record<string, unknown> = { version: version + 1 };
  if (change.name !== undefined) Object.assign(set, { name: change.name.trim(), nameKey: listNameKey(change.name) });
  if (change.shared !== undefined) set.shared = change.shared;
  if (change.lines !== undefined) set.lines = change.lines;
  try {
    const written = await SavedList.updateOne({ _id: id, version }, { $set: set });
    return written.modifiedCount === 1 ? "ok" : "stale";
  } catch (error) {
    if (isDuplicateKeyError(error)) return "taken";
    throw error;
  }
}

export async function deleteSavedList(id: string, version: number) {
  const deleted = await SavedList.deleteOne({ _id: id, version });
  return deleted.deletedCount === 1;
}
