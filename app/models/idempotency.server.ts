import mongoose, { Schema, type Types } from "mongoose";

/**
 * Answers kept for an Idempotency-Key: one record per owner, operation and key, claimed before the
 * change runs (the unique index lets one of two racing calls through) and holding the first answer.
 */
const idempotencySchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, required: true },
    operation: { type: String, required: true },
    key: { type: String, required: true },
    bodyHash: { type: String, required: true },
    /** What a form's one-time key was claimed for (the form's operation and its target); null for the API's keys. */
    scope: { type: String, default: null },
    /** Null while the first call is still running. */
    status: { type: Number, default: null },
    body: { type: String, default: null },
    /** When the first call began: a record still without an answer long after it ended uncertainly. */
    claimedAt: { type: Date, default: () => new Date() },
    expiresAt: { type: Date, required: true },
  },
  { collection: "api_idempotency", versionKey: false },
);
idempotencySchema.index({ ownerId: 1, operation: 1, key: 1 }, { unique: true });
idempotencySchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type IdempotencyDoc = mongoose.InferSchemaType<typeof idempotencySchema> & { _id: Types.ObjectId };
const Idempotency: mongoose.Model<IdempotencyDoc> =
  (mongoose.models.Idempotency as mongoose.Model<IdempotencyDoc>) ??
  mongoose.model<IdempotencyDoc>("Idempotency", idempotencySchema);

export type IdempotencyRecord = {
  bodyHash: string;
  scope: string | null;
  status: number | null;
  body: string | null;
  claimedAt: Date | null;
};

/** Claims the key for this call; when another call claimed it first, returns that call's record. */
export async function claimIdempotencyKey(
  claim: { ownerId: string; operation: string; key: string; bodyHash: string; scope?: string },
  expiresAt: Date,
): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord }> {
  const filter = { ownerId: claim.ownerId, operation: claim.operation, key: claim.key };
  try {
    await Idempotency.create({ ...claim, expiresAt });
    return { claimed: true };
  } catch (error) {
    if ((error as { code?: number }).code !== 11000) throw error;
    const doc = await Idempotency.findOne(filter).lean();
    // Expired and deleted in between: claim again.
    if (!doc) return claimIdempotencyKey(claim, expiresAt);
    return {
      claimed: false,
      record: {
        bodyHash: doc.bodyHash,
        scope: doc.scope ?? null,
        status: doc.status ?? null,
        body: doc.body ?? null,
        claimedAt: doc.claimedAt ?? null,
      },
    };
  }
}

export async function storeIdempotentAnswer(
  claim: { ownerId: string; operation: string; key: string },
  answer: { status: number; body: string },
) {
  await Idempotency.updateOne(claim, { $set: answer });
}

/** The call failed before it answered: the key is free for a retry. */
export async function releaseIdempotencyKey(claim: { ownerId: string; operation: string; key: string }) {
  await Idempotency.deleteOne({ ...claim, status: null });
}

/** The answer of a claimed key, or null while its first call has none (still running, or ended uncertainly). */
export async function findIdempotentAnswer(claim: { ownerId: string; operation: string; key: string }) {
  const doc = await Idempotency.findOne(claim).lean();
  return doc && doc.status !== null && doc.status !== undefined ? { status: doc.status, body: doc.body ?? "" } : null;
}

/**
 * Claims again a key whose first call was refused (status 400 and up), for a call with another body:
 * a refusal changed nothing, so the corrected form may run. One of two racing calls wins.
 */
export async function reclaimRefusedKey(claim: {
  ownerId: string;
  operation: string;
  key: string;
  bodyHash: string;
  scope?: string;
}) {
  const { bodyHash, scope, ...filter } = claim;
  const result = await Idempotency.updateOne(
    { ...filter, ...(scope === undefined ? {} : { scope }), status: { $gte: 400 } },
    { $set: { status: null, body: null, bodyHash, claimedAt: new Date() } },
  );
  return result.modifiedCount === 1;
}
