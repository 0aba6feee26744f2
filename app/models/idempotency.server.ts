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
    /** Null while the first call is still running. */
    status: { type: Number, default: null },
    body: { type: String, default: null },
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

export type IdempotencyRecord = { bodyHash: string; status: number | null; body: string | null };

/** Claims the key for this call; when another call claimed it first, returns that call's record. */
export async function claimIdempotencyKey(
  claim: { ownerId: string; operation: string; key: string; bodyHash: string },
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
    return { claimed: false, record: { bodyHash: doc.bodyHash, status: doc.status ?? null, body: doc.body ?? null } };
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
