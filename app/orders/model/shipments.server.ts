/**
 * Shipping an order in one parcel or several: each parcel is recorded on the order with one update
 * conditional on the parcels counted so far, then its units leave the parts' holds.
 */
import mongoose from "mongoose";
import { formatQuantity } from "~/format";
import { isObjectId } from "~/models/part.server";
import { shipFromHold } from "~/models/stock-holds.server";
import { Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";
import { settleOrderStock } from "./holds.server";

export type ShipmentInput = {
  carrier: string;
  trackingNumber?: string | null;
  /** Units per line (by its place on the order); absent: every unit on the shelf not yet shipped. */
  lines?: { lineIndex: number; quantity: number }[];
  shippedBy?: string;
  note?: string | null;
};

export type ShipRefusal =
  | { outcome: "not_found" }
  | { outcome: "not_shippable"; order: OrderView }
  | { outcome: "too_many"; order: OrderView; lineIndex: number; message: string }
  | { outcome: "nothing"; order: OrderView; message: string }
  | { outcome: "changed"; order: OrderView };

/** What each line may still ship: its units less those backordered and those shipped. */
export const shippableUnits = (line: { quantity: number; backorderedQuantity: number; shippedQuantity: number }) =>
  Math.max(0, line.quantity - line.backorderedQuantity - line.shippedQuantity);

/**
 * Records a parcel of a paid order, or one on account: the order's lines count its units shipped,
 * and the order is shipped once every unit is. Refused (nothing written) for more than a line may
 * ship, or when another parcel was recorded since the order was read (two tabs: one wins).
 */
export async function recordShipment(
  orderId: string,
  input: ShipmentInput,
): Promise<{ outcome: "shipped"; order: OrderView; shipmentId: string; complete: boolean } | ShipRefusal> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  const doc = await Order.findById(orderId).lean();
  if (!doc) return { outcome: "not_found" };
  const order = toOrderView(doc);
  if (order.status !== "paid" && order.status !== "account") return { outcome: "not_shippable", order };
  const wanted =
    input.lines ??
    order.lines.map((line, lineIndex) => ({ lineIndex, quantity: shippableUnits(line) })).filter((l) => l.quantity > 0);
  // Each line once: a line given twice would be counted once on the order and twice on the parcel.
  if (new Set(wanted.map((entry) => entry.lineIndex)).size !== wanted.length) {
    return { outcome: "nothing", order, message: "A line is given twice in this parcel: give each line once" };
  }
  const lines: { lineIndex: number; partId: mongoose.Types.ObjectId; quantity: number }[] = [];
  for (const { lineIndex, quantity } of wanted) {
    const line = order.lines[lineIndex];
    if (!line) return { outcome: "nothing", order, message: "That line is not on this order." };
    if (quantity === 0) continue;
    const left = shippableUnits(line);
    if (quantity > left) {
      const waiting = line.backorderedQuantity ? `, ${formatQuantity(line.backorderedQuantity)} on backorder` : "";
      return {
        outcome: "too_many",
        order,
        lineIndex,
        message: `At most ${formatQuantity(left)} units of ${line.productName} can ship now (${formatQuantity(line.shippedQuantity)} of ${formatQuantity(line.quantity)} shipped${waiting})`,
      };
    }
    lines.push({ lineIndex, partId: new mongoose.Types.ObjectId(line.partId), quantity });
  }
  if (!lines.length) {
    const message = order.backorderedUnits
      ? "Nothing can ship yet: the units not shipped are on backorder"
      : "Choose how many units of at least one line ship in this parcel";
    return { outcome: "nothing", order, message };
  }
  const shipped = new Map(lines.map((line) => [line.lineIndex, line.quantity]));
  const complete = order.lines.every(
    (line, index) => line.shippedQuantity + (shipped.get(index) ?? 0) === line.quantity,
  );
  const shipmentId = new mongoose.Types.ObjectId();
  const now = new Date();
  const carried = { carrier: input.carrier, ...(input.trackingNumber ? { trackingNumber: input.trackingNumber } : {}) };
  const updated = await Order.findOneAndUpdate(
    {
      _id: orderId,
      status: order.status,
      shipmentCount: doc.shipmentCount ?? { $in: [0, null] },
    },
    {
      $inc: {
        shipmentCount: 1,
        ...Object.fromEntries(lines.map((line) => [`lines.${line.lineIndex}.shippedQuantity`, line.quantity])),
      },
      $push: {
        shipments: {
          _id: shipmentId,
          lines,
          ...carried,
          shippedAt: now,
          shippedBy: input.shippedBy,
          ...(input.note ? { note: input.note } : {}),
          stockPending: true,
        },
      },
      ...(complete
        ? {
            // An intra-community supply is invoiced now (warehouse.server.ts); marked so a crash is healed.
            $set: {
              status: "shipped",
              shippedAt: now,
              shipment: carried,
              stockPending: "ship",
              ...(doc.invoiceNumber ? {} : { invoicePending: true }),
            },
            $addToSet: { eventsPending: { $each: ["shipment", "shipped"] } },
          }
        : { $addToSet: { eventsPending: "shipment" } }),
    },
    { returnDocument: "after" },
  ).lean();
  if (!updated) return { outcome: "changed", order };
  await settleShipmentStock(orderId);
  const after = toOrderView((await Order.findById(orderId).lean()) ?? updated);
  return { outcome: "shipped", order: after, shipmentId: shipmentId.toString(), complete };
}

/**
 * Takes the units of every parcel still pending off the parts' holds (once per parcel), then, for an
 * order now shipped whole, lets its holds go. Safe to run again: the stock sweep does after a crash.
 */
export async function settleShipmentStock(orderId: string) {
  const doc = await Order.findById(orderId, { shipments: 1, status: 1, lines: 1, stockPending: 1 }).lean();
  if (!doc) return;
  for (const shipment of doc.shipments ?? []) {
    if (!shipment.stockPending) continue;
    for (const line of shipment.lines) await shipFromHold(line.partId.toString(), orderId, shipment._id, line.quantity);
    await Order.updateOne(
      { _id: orderId, "shipments._id": shipment._id },
      { $unset: { [`shipments.${doc.shipments!.indexOf(shipment)}.stockPending`]: "" } },
    );
  }
  if (doc.stockPending === "ship") await settleOrderStock(orderId, toOrderView(doc as never).lines, "ship");
}

/** Orders with a parcel whose units a crash left on the holds for `graceMs`: settled now. */
export async function settleLeftShipments({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  const docs = await Order.find(
    { "shipments.stockPending": true, updatedAt: { $lte: new Date(Date.now() - graceMs) } },
    { _id: 1 },
  )
    .limit(limit)
    .lean();
  for (const doc of docs) await settleShipmentStock(doc._id.toString());
  return docs.length;
}
