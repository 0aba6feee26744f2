import mongoose, { Schema } from "mongoose";

/**
 * A gap-free number sequence (invoices, credit notes): each number is claimed by inserting it as the _id
 * of a registry collection, one past the highest claimed (the primary key refuses a second claim of a
 * number, so of two claims at once one gets it and the other takes the next; the unique owner index
 * refuses a second number for one owner). A number is claimed only for a document already written (its
 * owner), and a claim is never given back: a crash between the claim and writing the number on the
 * document is healed by claiming again, which finds the owner's claim. So the numbers run 1, 2, 3… in
 * the order they were claimed, with no gap and no duplicate.
 */
export function gapFreeSequence(name: string, collection: string) {
  const registrySchema = new Schema(
    { _id: { type: Number, required: true }, owner: { type: String, required: true } },
    { collection, versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
  );
  // Sparse: a registry's claims written before they named their owner (invoice numbers) are renamed by
  // their migration, which runs after the indexes are built (scripts/migrations/20261127210000-*).
  registrySchema.index({ owner: 1 }, { unique: true, sparse: true });
  type Doc = { _id: number; owner: string };
  const modelName = `GapFree_${name}`;
  const Registry: mongoose.Model<Doc> =
    (mongoose.models[modelName] as mongoose.Model<Doc>) ?? mongoose.model<Doc>(modelName, registrySchema);

  return {
    Registry,
    /** The owner's number: the one it claimed before, or the next one, claimed now. */
    async take(owner: string): Promise<number> {
      for (;;) {
        const mine = await Registry.findOne({ owner }, { _id: 1 }).lean();
        if (mine) return mine._id;
        const highest = await Registry.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean();
        try {
          await Registry.create({ _id: (highest?._id ?? 0) + 1, owner });
          return (highest?._id ?? 0) + 1;
        } catch (error) {
          // Someone claimed that number first, or this owner's claim landed meanwhile: look again.
          if ((error as { code?: number }).code !== 11000) throw error;
        }
      }
    },
    /** Every number claimed, ascending, with its owner (checks and tests). */
    async claimed() {
      return Registry.find({}, { _id: 1, owner: 1 }).sort({ _id: 1 }).lean();
    },
  };
}
