import mongoose, { Schema } from "mongoose";

/**
 * Named sequences (order numbers, returns' numbers): one document per name in `counters`, moved on
 * by an atomic $inc so every instance of the shop draws from the same sequence. (Invoice and credit
 * note numbers, which may have no gap, are gap-free sequences: gap-free-numbers.server.ts.)
 */
const counterSchema = new Schema(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true, default: 0 },
  },
  { collection: "counters", versionKey: false },
);

type CounterDoc = { _id: string; seq: number };

export const Counter: mongoose.Model<CounterDoc> =
  (mongoose.models.Counter as mongoose.Model<CounterDoc>) ?? mongoose.model<CounterDoc>("Counter", counterSchema);

/** The next value of the named sequence (1 for a new one): one findOneAndUpdate with $inc, upserted. */
export async function nextInSequence(name: string): Promise<number> {
  const doc = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: "after", projection: { seq: 1 } },
  ).lean();
  return doc!.seq;
}
