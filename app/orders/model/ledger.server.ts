/**
 * The ledger's entries as stored: one document per money event, its `_id` the event's key
 * (domain/ledger.ts), written once with an insert that a second post of the same key cannot repeat
 * (the primary key refuses it). Entries are never updated or deleted; a correction is an entry of
 * its own whose `source` is the key it corrects. Its cursor is how far the ledger sweep has read the
 * orders (their `updatedAt`).
 */
import mongoose, { Schema } from "mongoose";
import { LEDGER_CURRENCIES, LEDGER_KINDS, type LedgerEntryInput } from "~/domain/ledger";

const ledgerEntrySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The event this entry is part of: its own key, or the key a correction corrects. */
    source: { type: String, required: true },
    accountId: { type: String, required: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    amountCents: { type: Number, required: true },
    currency: { type: String, enum: LEDGER_CURRENCIES, required: true },
    at: { type: Date, required: true },
    orderId: { type: String, required: true },
    document: { type: String, default: "" },
    by: { type: String, default: null },
    settles: { type: String, default: null },
  },
  { collection: "ledger_entries", versionKey: false, timestamps: { createdAt: "postedAt", updatedAt: false } },
);
// An account's statement, in date order; an order's entries (posting, the check).
ledgerEntrySchema.index({ accountId: 1, at: 1, _id: 1 });
ledgerEntrySchema.index({ orderId: 1 });
// The accounts given a credit note (Shop Today's credit to pay out).
ledgerEntrySchema.index({ kind: 1, accountId: 1 });

type LedgerEntryDoc = Omit<LedgerEntryInput, "key" | "at"> & { _id: string; source: string; at: Date; postedAt: Date };

export const LedgerEntry: mongoose.Model<LedgerEntryDoc> =
  (mongoose.models.LedgerEntry as mongoose.Model<LedgerEntryDoc>) ??
  mongoose.model<LedgerEntryDoc>("LedgerEntry", ledgerEntrySchema);

const cursorSchema = new Schema(
  { _id: { type: String, required: true }, updatedAt: { type: Date, required: true }, orderId: String },
  { collection: "ledger_cursor", versionKey: false },
);
type CursorDoc = { _id: string; updatedAt: Date; orderId?: string };
const LedgerCursor: mongoose.Model<CursorDoc> =
  (mongoose.models.LedgerCursor as mongoose.Model<CursorDoc>) ??
  mongoose.model<CursorDoc>("LedgerCursor", cursorSchema);

export type PostedEntry = LedgerEntryInput & { source: string; postedAt: string };

const toPosted = (doc: LedgerEntryDoc): PostedEntry => ({
  key: doc._id,
  source: doc.source,
  accountId: doc.accountId,
  kind: doc.kind,
  amountCents: doc.amountCents,
  currency: doc.currency,
  at: doc.at.toISOString(),
  orderId: doc.orderId,
  document: doc.document,
  by: doc.by,
  settles: doc.settles,
  postedAt: doc.postedAt.toISOString(),
});

/** Writes an entry once; false when its key was posted before (nothing written). */
export async function insertEntry(entry: LedgerEntryInput, source = entry.key) {
  const { key, at, ...fields } = entry;
  const result = await LedgerEntry.updateOne(
    { _id: key },
    { $setOnInsert: { ...fields, source, at: new Date(at), postedAt: new Date() } },
    { upsert: true },
  );
  return result.upsertedCount === 1;
}

export async function entriesOfOrderPosted(orderId: string) {
  const docs = await LedgerEntry.find({ orderId }).sort({ at: 1, _id: 1 }).lean();
  return docs.map(toPosted);
}

/** An account's entries in date order (the statement). */
export async function accountEntries(accountId: string, { limit = 5000 } = {}) {
  const docs = await LedgerEntry.find({ accountId }).sort({ at: 1, _id: 1 }).limit(limit).lean();
  return docs.map(toPosted);
}

/** Every account's balance by currency, from the entries (the check). */
export async function accountBalances() {
  const rows = await LedgerEntry.aggregate<{ _id: { accountId: string; currency: string }; cents: number }>([
    { $group: { _id: { accountId: "$accountId", currency: "$currency" }, cents: { $sum: "$amountCents" } } },
  ]);
  return rows.map((row) => ({ accountId: row._id.accountId, currency: row._id.currency, cents: row.cents }));
}

const CURSOR = "orders";

/** How far the sweep has read the orders: the last `updatedAt` (and id) it posted. */
export async function readCursor() {
  const doc = await LedgerCursor.findById(CURSOR).lean();
  return doc ? { updatedAt: doc.updatedAt, orderId: doc.orderId ?? "" } : null;
}

export async function saveCursor(updatedAt: Date, orderId: string) {
  await LedgerCursor.updateOne({ _id: CURSOR }, { $set: { updatedAt, orderId } }, { upsert: true });
}
