import { Order } from "./schema.server";
import { toOrderView } from "./view.server";
import { accountsToPayOut } from "./ledger-reads.server";
import { Part } from "~/models/part.server";
import {
  CURRENCY_CODES,
  HOME_CURRENCY,
  currencyOf,
  money,
  totalsByCurrency,
  type Currency,
  type Money,
} from "~/domain/money";

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

/** One currency's sales: its figure for each day, and the period's total in it. */
export type CurrencySales = { currency: Currency; days: DaySales[]; totalCents: number; orders: number };

/**
 * Sales of the last `days` UTC days, today included: paid and shipped orders by the day they were
 * paid, a series a currency they were sold in (never one sum across currencies), the home currency
 * always, first. Grouped here over a bounded range read through the `paidAt` index.
 */
export async function salesByDay(days = 30, now = new Date()): Promise<CurrencySales[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const docs = await Order.find(
    { paidAt: { $gte: since }, status: { $in: ["paid", "shipped"] } },
    { paidAt: 1, totalCents: 1, currency: 1 },
  ).lean();
  const dayKeys = Array.from({ length: days }, (_, i) =>
    new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  const series = new Map<Currency, Map<string, DaySales>>();
  const seriesOf = (currency: Currency) => {
    const found = series.get(currency);
    if (found) return found;
    const made = new Map(dayKeys.map((day) => [day, { day, totalCents: 0, orders: 0 }]));
    series.set(currency, made);
    return made;
  };
  seriesOf(HOME_CURRENCY);
  const counted: Money[] = [];
  for (const doc of docs) {
    const currency = currencyOf(doc.currency);
    const entry = doc.paidAt && seriesOf(currency).get(doc.paidAt.toISOString().slice(0, 10));
    if (!entry) continue;
    entry.totalCents += doc.totalCents;
    entry.orders += 1;
    counted.push(money(doc.totalCents, currency));
  }
  const totals = new Map(totalsByCurrency(counted).map((total) => [total.currency, total.amount]));
  return CURRENCY_CODES.filter((currency) => series.has(currency))
    .sort((a, b) => Number(b === HOME_CURRENCY) - Number(a === HOME_CURRENCY))
    .map((currency) => {
      const list = [...series.get(currency)!.values()];
      return {
        currency,
        days: list,
        totalCents: totals.get(currency) ?? 0,
        orders: list.reduce((sum, day) => sum + day.orders, 0),
      };
    });
}

/**
 * Credit to pay out: the accounts the shop owes, from the ledger, each with what it owes and is owed
 * and its credit notes holding credit, the one waiting longest first (the first `limit` accounts).
 */
export async function creditToPayOut(limit = 10) {
  return accountsToPayOut(limit);
}
