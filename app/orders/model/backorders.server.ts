/**
 * An order's backordered units, as the order shows them. The part's hold is where stock is
 * allocated (models/stock-holds.server.ts); the order copies what is still backordered with $min,
 * which only ever lowers it, so a copy made twice, late or out of turn never undoes an allocation.
 */
import type { Types } from "mongoose";
import { holdsOfOrder } from "~/models/stock-holds.server";
import { Order } from "./schema.server";
import { toOrderView } from "./view.server";

/**
 * Copies the order's holds' backorders onto its lines (with the day each was expected, noted once)
 * and flags the order while any line waits. Returns the order, or null when it is gone.
 * `allocated` adds the "allocated" event, mailed to the customer.
 */
export async function copyBackorders(
  orderId: string,
  { expectedOn = new Map<string, string | null>(), allocated = false } = {},
) {
  const doc = await Order.findById(orderId, { lines: 1, backordered: 1 }).lean();
  if (!doc) return null;
  const holds = await holdsOfOrder(
    orderId,
    doc.lines.map((line) => line.partId.toString()),
  );
  const min: Record<string, number> = {};
  const set: Record<string, unknown> = {};
  doc.lines.forEach((line, index) => {
    const hold = holds.get(line.partId.toString());
    if (!hold) return;
    if (hold.backordered > 0 || (line.backorderedQuantity ?? 0) > 0)
      min[`lines.${index}.backorderedQuantity`] = hold.backordered;
    const day = expectedOn.get(line.partId.toString());
    if (hold.backordered > 0 && day && !line.backorderExpectedOn)
      set[`lines.${index}.backorderExpectedOn`] = new Date(`${day}T00:00:00Z`);
  });
  const waiting = [...holds.values()].some((hold) => hold.backordered > 0);
  // Nothing waits any more (allocated, or the order ended or shipped and its holds went): the flag goes.
  if (!Object.keys(min).length && (waiting || !doc.backordered))
    return toOrderView((await Order.findById(orderId).lean())!);
  if (waiting) set.backordered = true;
  const updated = await Order.findOneAndUpdate(
    { _id: orderId },
    {
      ...(Object.keys(min).length ? { $min: min } : {}),
      ...(Object.keys(set).length ? { $set: set } : {}),
      ...(waiting ? {} : { $unset: { backordered: "" } }),
      ...(allocated ? { $addToSet: { eventsPending: "allocated" } } : {}),
    },
    { returnDocument: "after" },
  ).lean();
  return updated ? toOrderView(updated) : null;
}

/** Orders flagged as waiting on backorder, oldest first (the sweep copies their holds again). */
export async function listBackorderedOrderIds({ limit = 200 } = {}) {
  const docs = await Order.find({ backordered: true }, { _id: 1 }).sort({ createdAt: 1 }).limit(limit).lean();
  return docs.map((doc: { _id: Types.ObjectId }) => doc._id.toString());
}

/** Open orders with units waiting on backorder. */
const OPEN_BACKORDERED = { backordered: true, status: { $in: ["unpaid", "approval", "account", "paid"] } } as const;

/** Shop Today: the open orders with units waiting on backorder, oldest first. */
export async function listBackorderedOrders({ limit = 10 } = {}) {
  const docs = await Order.find(OPEN_BACKORDERED).sort({ createdAt: 1 }).limit(limit).lean();
  return docs.map(toOrderView);
}

/** The open orders with units waiting on backorder, and when the oldest of them was placed (/metrics). */
export async function backorderBacklog() {
  const [orders, oldest] = await Promise.all([
    Order.countDocuments(OPEN_BACKORDERED),
    Order.findOne(OPEN_BACKORDERED, { createdAt: 1 }).sort({ createdAt: 1 }).lean<{ createdAt?: Date }>(),
  ]);
  return { orders, oldestAt: oldest?.createdAt ?? null };
}
