/**
 * Shipping an order: how it left, and its held units leaving the shop.
 */
import { isObjectId } from "~/models/part.server";
import { Order } from "./schema.server";
import { toOrderView } from "./view.server";
import { settleOrderStock } from "./holds.server";

/**
 * A paid order, or one on account, becomes shipped with how it left (stock stays out); null if it
 * is not waiting to ship (any more). The shipping mail is the service's (orders/service.server.ts).
 */
export async function markShipped(orderId: string, shipment: { carrier: string; trackingNumber?: string | null }) {
  if (!isObjectId(orderId)) return null;
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, status: { $in: ["paid", "account"] } },
    {
      $set: {
        status: "shipped",
        shippedAt: new Date(),
        shipment: {
          carrier: shipment.carrier,
          ...(shipment.trackingNumber ? { trackingNumber: shipment.trackingNumber } : {}),
        },
        stockPending: "ship",
      },
      $addToSet: { mailPending: "shipped" },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  // Its held units leave the shop (onHand goes down, available stays as it is).
  await settleOrderStock(view.id, view.lines, "ship");
  return view;
}
