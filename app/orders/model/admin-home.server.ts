import { Order } from "./schema.server";
import { toOrderView } from "./view.server";
import { accountsToPayOut } from "./ledger-reads.server";
import { Part } from "~/models/part.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Orders waiting for the shop, oldest first (the status index read backwards), and how many there
 * are: to pay (unpaid card orders), or to ship (paid, or confirmed on account).
 */
export async function oldestOrders(waiting: "unpaid" | "paid", limit = 10) {
  const filter: Record<string, unknown> = { status: waiting === "unpaid" ? "unpaid" : { $in: ["paid", "account"] } };
  const [docs, total] = await Promise.all([
    Order.find(filter).sort({ createdAt: 1, _id: 1 }).limit(limit).lean(),
    Order.countDocuments(filter),
  ]);
  return { orders: docs.map(toOrderView), total };
}

/** A part is low when its stock is below its own threshold, or below its minimum order when it has none. */
const LOW_STOCK = {
  $expr: { $lt: ["$availableQuantity", { $ifNull: ["$lowStockThreshold", "$minOrderQuantity"] }] },
};

/**
 * Parts whose stock is below their own low-stock threshold (unset: their minimum order), lowest
 * stock first. A comparison of two fields of the same part, so no index can answer it: the
 * database scans the parts and sends only the low ones.
 */
export async function lowStockParts(limit = 20) {
  const [docs, total] = await Promise.all([
    Part.find(LOW_STOCK, { name: 1, partNumber: 1, availableQuantity: 1, minOrderQuantity: 1, lowStockThreshold: 1 })
      .sort({ availableQuantity: 1, name: 1 })
      .limit(limit)
      .lean(),
    Part.countDocuments(LOW_STOCK),
  ]);
  const parts = docs.map((doc) => ({
    id: doc._id.toString(),
    name: doc.name,
    partNumber: doc.partNumber,
    availableQuantity: doc.availableQuantity,
    threshold: doc.lowStockThreshold ?? doc.minOrderQuantity,
  }));
  return { parts, total };
}

export type DaySales = { day: string; totalCents: number; orders: number };

/**
 * Sales of the last `days` UTC days, today included: paid and shipped orders by the day they were
 * paid. Grouped here over a bounded range read through the `paidAt` index.
 */
export async function salesByDay(days = 30, now = new Date()): Promise<DaySales[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const docs = await Order.find(
    { paidAt: { $gte: since }, status: { $in: ["paid", "shipped"] } },
    { paidAt: 1, totalCents: 1 },
  ).lean();
  const byDay = new Map<string, DaySales>();
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    byDay.set(day, { day, totalCents: 0, orders: 0 });
  }
  for (const doc of docs) {
    const entry = doc.paidAt && byDay.get(doc.paidAt.toISOString().slice(0, 10));
    if (!entry) continue;
    entry.totalCents += doc.totalCents;
    entry.orders += 1;
  }
  return [...byDay.values()];
}

/**
 * Credit to pay out: the accounts the shop owes, from the ledger, each with what it owes and is owed
 * and its credit notes holding credit, the one waiting longest first (the first `limit` accounts).
 */
export async function creditToPayOut(limit = 10) {
  return accountsToPayOut(limit);
}
