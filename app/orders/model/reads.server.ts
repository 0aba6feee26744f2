/**
 * Reading orders: one order in the customer's scope or by id, and a customer's orders a page at a time.
 */
import type { Types } from "mongoose";
import { isObjectId } from "~/models/part.server";
import { Order, type OrderDoc } from "./schema.server";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { type OrderView, toOrderView } from "./view.server";

/** Orders in `currency` (orders kept before currencies were data are in the home currency). */
export function inCurrencyFilter(currency: Currency) {
  return { currency: currency === HOME_CURRENCY ? { $in: [currency, null] } : currency };
}

/** Whose orders a customer sees: their company's (every order records it), else their own. */
export type CustomerScope = { id: string; companyId?: string | null };

export function scopeFilter(scope: CustomerScope): Record<string, unknown> | null {
  if (scope.companyId) return isObjectId(scope.companyId) ? { companyId: scope.companyId } : null;
  return isObjectId(scope.id) ? { userId: scope.id } : null;
}

/** One of the customer's (company's) orders; another company's id (or a malformed one) gives null. */
export async function getOwnOrder(orderId: string, scope: CustomerScope) {
  const filter = scopeFilter(scope);
  if (!isObjectId(orderId) || !filter) return null;
  const doc = await Order.findOne({ _id: orderId, ...filter }).lean();
  return doc ? toOrderView(doc) : null;
}

export async function getOrderById(orderId: string) {
  if (!isObjectId(orderId)) return null;
  const doc = await Order.findById(orderId).lean();
  return doc ? toOrderView(doc) : null;
}

export type OrderPage = { orders: OrderView[]; page: number; pageCount: number; total: number };

export async function pageOf(filter: Record<string, unknown>, page: number, perPage: number): Promise<OrderPage> {
  const total = await Order.countDocuments(filter);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const current = Math.min(Math.max(1, page), pageCount);
  const docs = await Order.find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .skip((current - 1) * perPage)
    .limit(perPage)
    .lean();
  return { orders: docs.map(toOrderView), page: current, pageCount, total };
}

/** An order being placed (or failing to be) is no one's order yet: no list shows it. */
export const PLACED = { $nin: ["reserving", "failed"] };

/** One customer's (company's) orders, newest first. */
export function listOrdersOfUser(scope: CustomerScope, { page = 1, perPage = 20 } = {}) {
  return pageOf({ ...(scopeFilter(scope) ?? { _id: null }), status: PLACED }, page, perPage);
}

/** True when the user has an order that was paid (paid or already shipped). */
export async function hasPaidOrder(userId: string) {
  if (!isObjectId(userId)) return false;
  return Boolean(await Order.exists({ userId, paidAt: { $ne: null } }));
}

const INVOICED = { invoiceNumber: { $exists: true, $ne: null } };

/** Invoiced orders changed since `since`, oldest change first (the ledger sweep). */
export async function listInvoicedOrdersSince(since: Date, limit: number) {
  const docs = await Order.find({ ...INVOICED, updatedAt: { $gte: since } })
    .sort({ updatedAt: 1, _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc) => ({ order: toOrderView(doc), updatedAt: doc.updatedAt as Date }));
}

/** Every invoiced order, a batch at a time (the ledger check). */
export async function* listInvoicedOrders(batch = 500) {
  let after: Types.ObjectId | null = null;
  for (;;) {
    const docs: OrderDoc[] = await Order.find({ ...INVOICED, ...(after ? { _id: { $gt: after } } : {}) })
      .sort({ _id: 1 })
      .limit(batch)
      .lean();
    for (const doc of docs) yield { order: toOrderView(doc), updatedAt: doc.updatedAt as Date };
    if (docs.length < batch) return;
    after = docs[docs.length - 1]._id;
  }
}
