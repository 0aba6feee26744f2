import mongoose, { Schema } from "mongoose";
import { Counter } from "./counter.server";

/**
 * A gap-free number sequence (credit notes), made as the invoice sequence is
 * (orders/model/invoice.server.ts): each number is claimed by inserting it as the _id of a registry
 * collection (the primary key refuses a second claim, whatever the counter answered); a number that
 * could not be given to its document goes back to the counter's `free` list, and the next claim takes
 * the smallest of those first; else one past the highest claimed. So no number is given twice or skipped.
 */
export function gapFreeSequence(name: string, collection: string) {
  const registrySchema = new Schema(
    { _id: { type: Number, required: true }, owner: { type: String, required: true } },
    { collection, versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
  );
  type Doc = { _id: number; owner: string };
  const modelName = `GapFree_${name}`;
  const Registry: mongoose.Model<Doc> =
    (mongoose.models[modelName] as mongoose.Model<Doc>) ?? mongoose.model<Doc>(modelName, registrySchema);

  async function claim(number: number, owner: string) {
    try {
      await Registry.create({ _id: number, owner });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async function candidate(): Promise<number> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const counter = await Counter.findById(name, { free: 1 }).lean();
      if (!counter?.free?.length) break;
      const number = Math.min(...counter.free);
      const pulled = await Counter.updateOne({ _id: name, free: number }, { $pull: { free: number } });
      if (pulled.modifiedCount === 1) return number;
    }
    const highest = await Registry.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean();
    const number = (highest?._id ?? 0) + 1;
    await Counter.updateOne({ _id: name }, { $max: { seq: number } }, { upsert: true }).catch(() => undefined);
    return number;
  }

  return {
    Registry,
    /** The next number, claimed for `owner` (a number someone else claimed first is skipped). */
    async take(owner: string): Promise<number> {
      for (;;) {
        const number = await candidate();
        if (await claim(number, owner)) return number;
      }
    },
    /** A number taken and not used: the next claim takes it first. */
    async giveBack(number: number) {
      await Registry.deleteOne({ _id: number });
      await Counter.updateOne({ _id: name }, { $addToSet: { free: number } }, { upsert: true });
    },
    /** Every number claimed, ascending, with its owner (checks and tests). */
    async claimed() {
      return Registry.find({}, { _id: 1, owner: 1 }).sort({ _id: 1 }).lean();
    },
  };
}
