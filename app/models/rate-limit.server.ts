import mongoose, { Schema } from "mongoose";

/**
 * One counter per key and fixed time window. The id names both (`<key>:<window start>`), so a hit
 * is a single atomic upsert with $inc, and every app instance shares the same counters.
 */
type RateLimitDoc = { _id: string; count: number; expiresAt: Date };

const rateLimitSchema = new Schema<RateLimitDoc>(
  {
    _id: { type: String, required: true },
    count: { type: Number, required: true, default: 0 },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);

// MongoDB removes finished windows by itself (a TTL index).
rateLimitSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const RateLimit: mongoose.Model<RateLimitDoc> =
  (mongoose.models.RateLimit as mongoose.Model<RateLimitDoc>) ??
  mongoose.model<RateLimitDoc>("RateLimit", rateLimitSchema);

/** Counts one hit on `key` in the window that ends at `expiresAt`; returns the new count. */
export async function incrementCounter(key: string, expiresAt: Date): Promise<number> {
  const update = { $inc: { count: 1 }, $setOnInsert: { expiresAt } };
  try {
    const doc = await RateLimit.findOneAndUpdate({ _id: key }, update, {
      upsert: true,
      returnDocument: "after",
      lean: true,
    });
    return doc?.count ?? 1;
  } catch (error) {
    // Two first hits at once: one insert wins, the other retries as an update.
    if ((error as { code?: number }).code !== 11000) throw error;
    const doc = await RateLimit.findOneAndUpdate({ _id: key }, update, { returnDocument: "after", lean: true });
    return doc?.count ?? 1;
  }
}
