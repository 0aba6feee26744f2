import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

/**
 * The ECB's euro reference rates (docs/e-invoices.md, "VAT in euros"): one per day and currency,
 * "1 EUR = rateMicros / 1e6 of currency", from an ECB file or typed by staff.
 */
const exchangeRateSchema = new Schema(
  {
    /** The ECB day the rate is of (YYYY-MM-DD): text sorts as days do. */
    day: { type: String, required: true, match: /^\d{4}-\d{2}-\d{2}$/ },
    currency: { type: String, required: true, match: /^[A-Z]{3}$/ },
    /** The rate in millionths: an integer, never a float money is added with. */
    rateMicros: { type: Number, required: true, min: 1, validate: Number.isSafeInteger },
    source: { type: String, enum: ["ecb-file", "staff"], required: true },
    /** The staff member's email. */
    recordedBy: { type: String, required: true },
  },
  { timestamps: true, collection: "exchange_rates" },
);
// One rate per day and currency; currency first so the rate for a date is one step back from it.
exchangeRateSchema.index({ currency: 1, day: -1 }, { unique: true });
exchangeRateSchema.index({ day: -1, currency: 1 });

export type ExchangeRateDoc = InferSchemaType<typeof exchangeRateSchema> & { _id: Types.ObjectId };

export const ExchangeRate: mongoose.Model<ExchangeRateDoc> =
  (mongoose.models.ExchangeRate as mongoose.Model<ExchangeRateDoc>) ??
  mongoose.model<ExchangeRateDoc>("ExchangeRate", exchangeRateSchema);

export type RateSource = "ecb-file" | "staff";
export type ExchangeRateView = {
  day: string;
  currency: string;
  rateMicros: number;
  source: RateSource;
  recordedBy: string;
  recordedAt: string;
};
export type RateRow = { day: string; currency: string; rateMicros: number };

function toView(doc: Partial<ExchangeRateDoc> & { createdAt?: Date; updatedAt?: Date }): ExchangeRateView {
  return {
    day: doc.day ?? "",
    currency: doc.currency ?? "",
    rateMicros: doc.rateMicros ?? 0,
    source: doc.source === "staff" ? "staff" : "ecb-file",
    recordedBy: doc.recordedBy ?? "",
    recordedAt: (doc.updatedAt ?? doc.createdAt ?? new Date(0)).toISOString(),
  };
}

/** The rate for `day`: the newest recorded on or before it, or null. */
export async function rateOn(currency: string, day: string) {
  const doc = await ExchangeRate.findOne({ currency, day: { $lte: day } })
    .sort({ currency: 1, day: -1 })
    .lean();
  return doc ? toView(doc) : null;
}

/** The newest rates first, at most `limit`, from `page` (0 is the first). */
export async function listRates({ page = 0, limit = 50 }: { page?: number; limit?: number } = {}) {
  const docs = await ExchangeRate.find()
    .sort({ day: -1, currency: 1 })
    .skip(page * limit)
    .limit(limit + 1)
    .lean();
  return { rates: docs.slice(0, limit).map(toView), more: docs.length > limit };
}

/** The recorded rates of these day and currency pairs, keyed "day currency". */
export async function recordedRates(rows: Pick<RateRow, "day" | "currency">[]) {
  const found = new Map<string, ExchangeRateView>();
  const byCurrency = new Map<string, string[]>();
  for (const row of rows) byCurrency.set(row.currency, [...(byCurrency.get(row.currency) ?? []), row.day]);
  for (const [currency, days] of byCurrency) {
    const docs = await ExchangeRate.find({ currency, day: { $in: days } }).lean();
    for (const doc of docs) found.set(`${doc.day} ${doc.currency}`, toView(doc));
  }
  return found;
}

/** Writes these rates (new ones, or corrections of rates staff typed), one upsert by day and currency each. */
export async function writeRates(rows: RateRow[], source: RateSource, recordedBy: string) {
  if (!rows.length) return;
  await ExchangeRate.bulkWrite(
    rows.map((row) => ({
      updateOne: {
        filter: { currency: row.currency, day: row.day },
        update: { $set: { rateMicros: row.rateMicros, source, recordedBy } },
        upsert: true,
      },
    })),
    { ordered: true },
  );
}
