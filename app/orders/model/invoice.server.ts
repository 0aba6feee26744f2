import { gapFreeSequence } from "~/models/gap-free-numbers.server";
import { DAY_MS, Order } from "./schema.server";

/**
 * Invoice numbers: 1, 2, 3… printed INV-000001, with no gap and no duplicate, in the order orders were
 * invoiced. A number is claimed for an order already paid (or confirmed on account) in the
 * `invoice_numbers` registry and never given back, so a later invoice never takes an earlier number;
 * a crash between the claim and the order's write is healed by claiming again, which finds it.
 */
export const invoiceNumbers = gapFreeSequence("invoice", "invoice_numbers");

// Invoiced: paid, or confirmed on account (numbered when placed, with its due date).
const PAID = { $in: ["paid", "shipped", "account"] as ("paid" | "shipped" | "account")[] };

/**
 * Gives a paid (or shipped, or on-account) order its invoice number once; returns the order's number (null when
 * the order is not paid). Called right after the order is marked paid, and again by the invoice
 * screen for a paid order that has none (a crash between the two writes), so it is idempotent:
 * the order's claim is found again, and the number is set only where there is none.
 */
export async function assignInvoiceNumber(orderId: string): Promise<number | null> {
  if (!/^[a-f0-9]{24}$/i.test(orderId)) return null;
  const current = await Order.findOne(
    { _id: orderId, status: PAID },
    { invoiceNumber: 1, invoicedAt: 1, paidAt: 1, dueAt: 1, termsDays: 1 },
  ).lean();
  if (!current) return null;
  if (current.invoiceNumber) return current.invoiceNumber;
  const number = await invoiceNumbers.take(orderId);
  await Order.updateOne(
    { _id: orderId, status: PAID, invoiceNumber: { $exists: false } },
    { $set: { invoiceNumber: number, invoicedAt: current.invoicedAt ?? invoiceDate(current) ?? new Date() } },
  );
  return number;
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

export function formatInvoiceNumber(number: number) {
  return `INV-${String(number).padStart(6, "0")}`;
}
