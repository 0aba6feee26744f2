/**
 * Manage Orders' search and filters (a state, a number, an email, a PO or company prefix, dates), the
 * CSV export's walk over them, and the API's cursor pages.
 */
import mongoose from "mongoose";
import { parseOrderNumber } from "~/domain/order-number";
import type { OrderState } from "~/domain/order-states";
import { isObjectId } from "~/models/part.server";
import { type OrderDoc, Order } from "./schema.server";
import { type OrderView, toOrderView } from "./view.server";
import { type CustomerScope, scopeFilter, pageOf, PLACED } from "./reads.server";
import { orderSearchBranches } from "./search-keys.server";

export type AdminOrderFilter = {
  /** One company's orders. */
  companyId?: string | null;
  state?: OrderState | null;
  /** What was typed: an order number, a PO number, an email, a company or the placer's name (or its start). */
  q?: string | null;
  /** Placed at or after `from` and before `to`. */
  from?: Date | null;
  to?: Date | null;
};

/** The orders in a state at `now`, as a MongoDB filter (the words of domain/order-states.ts). */
export function stateQuery(state: OrderState, now = new Date()): Record<string, unknown> {
  switch (state) {
    case "unpaid":
      return { status: "unpaid", paidCents: { $in: [0, null] } };
    case "part-paid":
      return {
        status: { $in: ["unpaid", "account", "shipped"] },
        paidAt: null,
        paidCents: { $gt: 0 },
        dueAt: { $not: { $lt: now } },
      };
    case "on-account":
      return {
        status: { $in: ["account", "shipped"] },
        paidAt: null,
        paidCents: { $in: [0, null] },
        dueAt: { $gte: now },
      };
    case "overdue":
      return { status: { $in: ["account", "shipped"] }, paidAt: null, dueAt: { $lt: now } };
    case "pending":
      return { status: "paid", shipmentCount: { $in: [0, null] } };
    case "part-shipped":
      return { status: "paid", shipmentCount: { $gt: 0 } };
    case "shipped":
      return { status: "shipped", paidAt: { $ne: null } };
    default:
      return { status: state };
  }
}

/**
 * Manage Orders' (and its CSV export's) query: every filter given, as one MongoDB filter. The
 * search matches the order number (with or without SO-, any case), an order id, the start of the
 * customer's email, or the start of the PO number or company name; each branch has its index.
 */
export function adminOrderQuery({ state, q, from, to, companyId }: AdminOrderFilter = {}, now = new Date()) {
  const query: Record<string, unknown> = state ? stateQuery(state, now) : { status: PLACED };
  if (companyId && isObjectId(companyId)) query.companyId = new mongoose.Types.ObjectId(companyId);
  const typed = q?.trim().toLowerCase();
  if (typed) {
    const number = parseOrderNumber(typed);
    query.$or = [
      ...(number ? [{ number }] : []),
      ...(isObjectId(typed) ? [{ _id: new mongoose.Types.ObjectId(typed) }] : []),
      ...orderSearchBranches(typed),
    ];
  }
  if (from || to) query.createdAt = { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) };
  return query;
}

/** All orders for the admin, newest first, filtered by status, order number, email and dates. */
export function listAllOrders({
  page = 1,
  perPage = 20,
  ...filter
}: AdminOrderFilter & { page?: number; perPage?: number } = {}) {
  return pageOf(adminOrderQuery(filter), page, perPage);
}

/** Every order the filter matches, newest first, one at a time (the CSV export: no page limit). */
export async function* eachOrder(filter: AdminOrderFilter = {}): AsyncGenerator<OrderView> {
  const cursor = Order.find(adminOrderQuery(filter)).sort({ createdAt: -1, _id: -1 }).lean().cursor({ batchSize: 500 });
  for await (const doc of cursor) yield toOrderView(doc as OrderDoc);
}

/** A position in a list of orders, newest first: "<createdAt in ms>_<id>". */
export const ORDER_CURSOR_PATTERN = /^(\d{1,15})_([a-f0-9]{24})$/;

/**
 * A page of orders newest first, after a cursor (the API's lists): a customer's own orders, or the
 * orders waiting to ship (paid, or on account). A range on the list's index, however deep.
 */
export async function listOrdersAfter(
  scope: { customer: CustomerScope } | { toShip: true },
  { after, limit }: { after: string | null; limit: number },
) {
  const own = "customer" in scope ? scopeFilter(scope.customer) : null;
  if ("customer" in scope && !own) return { orders: [], next: null };
  const filter: Record<string, unknown> =
    "customer" in scope ? { ...own, status: PLACED } : { status: { $in: ["paid", "account"] } };
  const match = after ? ORDER_CURSOR_PATTERN.exec(after) : null;
  if (match) {
    const at = new Date(Number(match[1]));
    const id = new mongoose.Types.ObjectId(match[2]);
    filter.$or = [{ createdAt: { $lt: at } }, { createdAt: at, _id: { $lt: id } }];
  }
  const docs = await Order.find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit + 1)
    .lean();
  const orders = docs.slice(0, limit).map(toOrderView);
  const last = docs.length > limit ? docs[limit - 1] : null;
  const next = last ? `${(last.createdAt ?? new Date(0)).getTime()}_${last._id.toString()}` : null;
  return { orders, next };
}
