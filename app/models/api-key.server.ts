import { createHash, randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";
import { API_SCOPES, type ApiScope } from "~/domain/api-scopes";

/**
 * API keys: a random 32-byte token shown once, stored as its SHA-256 (a high-entropy token needs
 * no slow hash). A customer's key belongs to their company (`companyId`: its owners see and revoke
 * it) and acts as the member who made it (`ownerId`); a staff key (an admin's) has no company and
 * belongs to the admin who made it.
 */
const apiKeySchema = new Schema(
  {
    /** Who made the key: it acts as this person, within their role now. */
    ownerId: { type: Schema.Types.ObjectId, required: true },
    /** The company a customer's key belongs to (unset: a staff key). */
    companyId: { type: Schema.Types.ObjectId },
    name: { type: String, required: true, maxlength: 60 },
    scopes: { type: [{ type: String, enum: API_SCOPES }], required: true },
    /** sha256 of the whole token, hex. */
    hash: { type: String, required: true },
    /** The token's first characters, so people can tell keys apart ("pw_live_ab12…"). */
    prefix: { type: String, required: true },
    createdAt: { type: Date, required: true },
    lastUsedAt: { type: Date, default: null },
    revokedAt: { type: Date, default: null },
  },
  { collection: "api_keys", versionKey: false },
);
apiKeySchema.index({ hash: 1 }, { unique: true });
apiKeySchema.index({ ownerId: 1, createdAt: -1 });
// A company's keys, newest first (its owners' list).
apiKeySchema.index({ companyId: 1, createdAt: -1 }, { partialFilterExpression: { companyId: { $exists: true } } });

type ApiKeyDoc = mongoose.InferSchemaType<typeof apiKeySchema> & { _id: Types.ObjectId };
export const ApiKey: mongoose.Model<ApiKeyDoc> =
  (mongoose.models.ApiKey as mongoose.Model<ApiKeyDoc>) ?? mongoose.model<ApiKeyDoc>("ApiKey", apiKeySchema);

export const API_KEY_PREFIX = "pw_live_";
/** Keys one company (or one admin) may hold at once (revoked keys do not count). */
export const MAX_KEYS_PER_OWNER = 20;

/**
 * Whose keys a list, a count or a revocation covers: a company's (all of them, or one member's
 * within it), or an admin's staff keys.
 */
export type KeyHolder = { companyId: string; ownerId?: string } | { staffId: string };

function holderFilter(holder: KeyHolder): Record<string, unknown> | null {
  if ("staffId" in holder) return isObjectId(holder.staffId) ? { ownerId: holder.staffId, companyId: null } : null;
  if (!isObjectId(holder.companyId) || (holder.ownerId !== undefined && !isObjectId(holder.ownerId))) return null;
  return { companyId: holder.companyId, ...(holder.ownerId ? { ownerId: holder.ownerId } : {}) };
}

const isObjectId = (id: unknown): id is string => typeof id === "string" && /^[a-f0-9]{24}$/i.test(id);

export type ApiKeyView = {
  id: string;
  ownerId: string;
  companyId: string | null;
  name: string;
  scopes: ApiScope[];
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

function toView(doc: ApiKeyDoc): ApiKeyView {
  return {
    id: doc._id.toString(),
    ownerId: doc.ownerId.toString(),
    companyId: doc.companyId ? doc.companyId.toString() : null,
    name: doc.name,
    scopes: [...doc.scopes] as ApiScope[],
    prefix: doc.prefix,
    createdAt: doc.createdAt.toISOString(),
    lastUsedAt: doc.lastUsedAt ? doc.lastUsedAt.toISOString() : null,
    revokedAt: doc.revokedAt ? doc.revokedAt.toISOString() : null,
  };
}

export const hashApiToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A token looks like ours: the prefix and 43 base64url characters (32 bytes). */
export const API_TOKEN_PATTERN = /^pw_live_[A-Za-z0-9_-]{43}$/;

export async function createApiKey({
  ownerId,
  companyId,
  name,
  scopes,
}: {
  ownerId: string;
  /** The customer's company (absent: a staff key). */
  companyId?: string | null;
  name: string;
  scopes: ApiScope[];
}) {
  const token = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const doc = await ApiKey.create({
    ownerId,
    ...(companyId ? { companyId } : {}),
    name,
    scopes,
    hash: hashApiToken(token),
    prefix: token.slice(0, API_KEY_PREFIX.length + 4),
    createdAt: new Date(),
  });
  return { token, key: toView(doc.toObject() as ApiKeyDoc) };
}

export async function countLiveKeys(holder: KeyHolder) {
  const filter = holderFilter(holder);
  return filter ? ApiKey.countDocuments({ ...filter, revokedAt: null }) : 0;
}

/** The holder's keys, newest first, revoked ones included (they show as revoked). */
export async function listApiKeys(holder: KeyHolder) {
  const filter = holderFilter(holder);
  if (!filter) return [];
  const docs = await ApiKey.find(filter).sort({ createdAt: -1 }).limit(100).lean();
  return docs.map((doc) => toView(doc as ApiKeyDoc));
}

/** Revokes one of the holder's live keys; null when it is not theirs or already revoked. */
export async function revokeApiKey(keyId: string, holder: KeyHolder) {
  const filter = holderFilter(holder);
  if (!isObjectId(keyId) || !filter) return null;
  const doc = await ApiKey.findOneAndUpdate(
    { _id: keyId, ...filter, revokedAt: null },
    { $set: { revokedAt: new Date() } },
    { returnDocument: "after" },
  ).lean();
  return doc ? toView(doc as ApiKeyDoc) : null;
}

/** A member's live keys in a company stop (they were removed from it). */
export async function revokeMemberKeys(companyId: string, ownerId: string) {
  if (!isObjectId(companyId) || !isObjectId(ownerId)) return 0;
  const result = await ApiKey.updateMany({ companyId, ownerId, revokedAt: null }, { $set: { revokedAt: new Date() } });
  return result.modifiedCount;
}

/** The live key with this token, or null. Notes its use at most once a minute (one write, not per call). */
/** Revokes every live key this person made (in their company, or as staff); the keys revoked. */
export async function revokeKeysMadeBy(ownerId: string) {
  if (!isObjectId(ownerId)) return [];
  const live = await ApiKey.find({ ownerId, revokedAt: null }).lean();
  if (!live.length) return [];
  const revokedAt = new Date();
  await ApiKey.updateMany({ _id: { $in: live.map((doc) => doc._id) }, revokedAt: null }, { $set: { revokedAt } });
  return live.map((doc) => toView({ ...doc, revokedAt }));
}

/** How many live keys this person made. */
export async function countKeysMadeBy(ownerId: string) {
  return isObjectId(ownerId) ? ApiKey.countDocuments({ ownerId, revokedAt: null }) : 0;
}

export async function findLiveKey(token: string) {
  if (!API_TOKEN_PATTERN.test(token)) return null;
  const doc = await ApiKey.findOne({ hash: hashApiToken(token), revokedAt: null }).lean();
  if (!doc) return null;
  const now = new Date();
  if (!doc.lastUsedAt || now.getTime() - doc.lastUsedAt.getTime() > 60_000) {
    await ApiKey.updateOne({ _id: doc._id }, { $set: { lastUsedAt: now } });
  }
  return toView(doc as ApiKeyDoc);
}
