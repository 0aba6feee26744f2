import mongoose, { Schema } from "mongoose";
import { Counter } from "~/models/counter.server";
import { DAY_MS, Order } from "./schema.server";

/**
 * Invoice numbers: 1, 2, 3… with no gap and no duplicate. One counter document takes the next
 * number with an atomic $inc; a number that could not be given to its order (the order got one
 * meanwhile, or the write failed) goes back to the counter's `free` list and the next invoice
 * takes the smallest of those first. Each number is claimed by inserting it as the _id of the
 * invoice_numbers registry (the primary key refuses a duplicate), and is set only on an order that
 * has none. (No unique index on orders.invoiceNumber: the local stand-in refuses free numbers
 * through one under load.)
 */
const INVOICE = "invoice";

/**
 * One document per number issued, its _id the number: the primary key refuses a second claim of a
 * number, whatever the counter answered (the local stand-in's $inc is not atomic under load).
 */
const invoiceNumberSchema = new Schema(
  { _id: { type: Number, required: true }, orderId: { type: String, required: true } },
  { collection: "invoice_numbers", versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
type InvoiceNumberDoc = { _id: number; orderId: string };
export const InvoiceNumber: mongoose.Model<InvoiceNumberDoc> =
  (mongoose.models.InvoiceNumber as mongoose.Model<InvoiceNumberDoc>) ??
  mongoose.model<InvoiceNumberDoc>("InvoiceNumber", invoiceNumberSchema);

/** Claims `number` for the order; false when another claim holds it. */
async function claim(number: number, orderId: string) {
  try {
    await InvoiceNumber.create({ _id: number, orderId });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}

async function nextCandidate(): Promise<number> {
  // A number given back first: the smallest, pulled with a conditional $pull.
  for (let attempt = 0; attempt < 5; attempt++) {
    const counter = await Counter.findById(INVOICE, { free: 1 }).lean();
    if (!counter?.free?.length) break;
    const number = Math.min(...counter.free);
    const pulled = await Counter.updateOne({ _id: INVOICE, free: number }, { $pull: { free: number } });
    if (pulled.modifiedCount === 1) return number;
  }
  // Else one past the highest number claimed (the registry's _id index read backwards); a racing
  // caller that claims it first makes this one look again, so no number is skipped.
  const highest = await InvoiceNumber.findOne({}, { _id: 1 }).sort({ _id: -1 }).lean();
  const number = (highest?._id ?? 0) + 1;
  await Counter.updateOne({ _id: INVOICE }, { $max: { seq: number } }, { upsert: true }).catch(() => undefined);
  return number;
}

/** The next number, claimed for this order in the registry (a number already claimed is skipped). */
async function takeInvoiceNumber(orderId: string): Promise<number> {
  for (;;) {
    const number = await nextCandidate();
    if (await claim(number, orderId)) return number;
  }
}

async function giveBack(number: number) {
  await InvoiceNumber.deleteOne({ _id: number });
  // Always to the free list, used first; an entry claimed meanwhile (as one past the highest) is
  // skipped when it comes up, since its claim fails.
  await Counter.updateOne({ _id: INVOICE }, { $addToSet: { free: number } }, { upsert: true });
}

// Invoiced: paid, or confirmed on account (numbered when placed, with its due date).
const PAID = { $in: ["paid", "shipped", "account"] as ("paid" | "shipped" | "account")[] };

/**
 * Gives a paid (or shipped, or on-account) order its invoice number once; returns the order's number (null when
 * the order is not paid). Called right after the order is marked paid, and again by the invoice
 * screen for a paid order that has none (a crash between the two writes), so it is idempotent:
 * the number is set only where there is none, and a number not set is given back.
 */
export async function assignInvoiceNumber(orderId: string): Promise<number | null> {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const current = await Order.findOne(
    { _id: orderId, status: PAID },
    { invoiceNumber: 1, invoicedAt: 1, paidAt: 1, dueAt: 1, termsDays: 1 },
  ).lean();
  if (!current) return null;
  if (current.invoiceNumber) return current.invoiceNumber;
  const number = await takeInvoiceNumber(orderId);
  let set;
  try {
    set = await Order.findOneAndUpdate(
      { _id: orderId, status: PAID, invoiceNumber: { $exists: false } },
      { $set: { invoiceNumber: number, invoicedAt: current.invoicedAt ?? invoiceDate(current) ?? new Date() } },
      { returnDocument: "after" },
    ).lean();
  } catch (error) {
    await giveBack(number);
    throw error;
  }
  if (set) return number;
  // Another call numbered this order first: our number goes back.
  await giveBack(number);
  const now = await Order.findById(orderId, { invoiceNumber: 1 }).lean();
  return now?.invoiceNumber ?? null;
}

/**
 * The day an invoice is issued, from what the order records (docs/behaviour.md, "Invoices"): an
 * order on account when it was confirmed (its due date less its terms), any other when it was paid.
 * Stored once with the invoice number (invoicedAt); every screen, document, CSV and the API read that.
 */
export function invoiceDate(order: {
  dueAt?: Date | null;
  termsDays?: number | null;
  paidAt?: Date | null;
}): Date | null {
  if (order.dueAt && order.termsDays != null) return new Date(order.dueAt.getTime() - order.termsDays * DAY_MS);
  return order.paidAt ?? null;
}

/** The last number issued and those given back (for checks and tests). */
export async function invoiceCounter() {
  const [doc, claimed] = await Promise.all([
    Counter.findById(INVOICE).lean(),
    InvoiceNumber.find({}, { _id: 1 }).lean(),
  ]);
  const highest = Math.max(0, ...claimed.map((entry) => entry._id));
  // The registry is the record: the highest number claimed, and the free numbers below it.
  const taken = new Set(claimed.map((entry) => entry._id));
  return { seq: highest, free: (doc?.free ?? []).filter((number) => number < highest && !taken.has(number)) };
}

export function formatInvoiceNumber(number: number) {
  return `INV-${String(number).padStart(6, "0")}`;
}
