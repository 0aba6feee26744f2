import { createHash, randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";
import { API_SCOPES, type ApiScope } from "~/domain/api-scopes";

/**
 * API keys: a random 32-byte token shown once, stored as its SHA-256 (a high-entropy token needs
 * no slow hash). `ownerId` is the one field that says whose key it is: the key acts as that owner.
 */
const apiKeySchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true },
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

type ApiKeyDoc = mongoose.InferSchemaType<typeof apiKeySchema> & { _id: Types.ObjectId };
export const ApiKey: mongoose.Model<ApiKeyDoc> =
  (mongoose.models.ApiKey as mongoose.Model<ApiKeyDoc>) ?? mongoose.model<ApiKeyDoc>("ApiKey", apiKeySchema);

export const API_KEY_PREFIX = "pw_live_";
/** Keys one owner may hold at once (revoked keys do not count). */
export const MAX_KEYS_PER_OWNER = 20;

export type ApiKeyView = {
  id: string;
  ownerId: string;
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

export async function createApiKey({ ownerId, name, scopes }: { ownerId: string; name: string; scopes: ApiScope[] }) {
  const token = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const doc = await ApiKey.create({
    ownerId,
    name,
    scopes,
    hash: hashApiToken(token),
    prefix: token.slice(0, API_KEY_PREFIX.length + 4),
    createdAt: new Date(),
  });
  return { token, key: toView(doc.toObject() as ApiKeyDoc) };
}

export async function countLiveKeys(ownerId: string) {
  return ApiKey.countDocuments({ ownerId, revokedAt: null });
}

/** The owner's keys, newest first, revoked ones included (they show as revoked). */
export async function listApiKeys(ownerId: string) {
  const docs = await ApiKey.find({ ownerId }).sort({ createdAt: -1 }).limit(100).lean();
  return docs.map((doc) => toView(doc as ApiKeyDoc));
}

/** Revokes one of the owner's live keys; null when it is not theirs or already revoked. */
export async function revokeApiKey(keyId: string, ownerId: string) {
  if (!/^[a-f0-9]{24}$/i.test(keyId)) return null;
  const doc = await ApiKey.findOneAndUpdate(
    { _id: keyId, ownerId, revokedAt: null },
    { $set: { revokedAt: new Date() } },
    { returnDocument: "after" },
  ).lean();
  return doc ? toView(doc as ApiKeyDoc) : null;
}

/** The live key with this token, or null. Notes its use at most once a minute (one write, not per call). */
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
