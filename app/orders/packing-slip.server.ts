/**
 * What a packing slip lists: a parcel's slip exactly that parcel's units; the whole order's slip what
 * is left to ship (ordered less shipped, the units waiting on backorder counted apart), or every unit
 * once the order has shipped whole.
 */
import type { OrderDocumentData } from "~/domain/order-document";
import type { OrderView } from "~/orders/model/view.server";

type SlipOrder = Pick<OrderView, "lines" | "shipments" | "shipment" | "shippedAt">;

export type PackingSlip = Pick<OrderDocumentData["order"], "parcel" | "shipment" | "shippedAt" | "lines">;

/** The slip of parcel `parcelNumber`, or of the whole order (null); null when the order has no such parcel. */
export function packingSlipOf(order: SlipOrder, parcelNumber: number | null): PackingSlip | null {
  const line = (lineIndex: number, quantity: number) => ({
    partNumber: order.lines[lineIndex]?.partNumber ?? "",
    productName: order.lines[lineIndex]?.productName ?? "",
    quantity,
    unitPriceCents: order.lines[lineIndex]?.unitPriceCents ?? 0,
    lineTotalCents: (order.lines[lineIndex]?.unitPriceCents ?? 0) * quantity,
  });
  if (parcelNumber !== null) {
    const parcel = order.shipments.find((each) => each.number === parcelNumber);
    if (!parcel) return null;
    return {
      parcel: { number: parcel.number, note: parcel.note },
      shipment: { carrier: parcel.carrier, trackingNumber: parcel.trackingNumber },
      shippedAt: parcel.shippedAt,
      lines: parcel.lines.map(({ lineIndex, quantity }) => line(lineIndex, quantity)),
    };
  }
  const left = order.lines
    .map((each, lineIndex) => {
      const quantity = Math.max(0, each.quantity - each.shippedQuantity);
      return { ...line(lineIndex, quantity), backorderedQuantity: Math.min(each.backorderedQuantity, quantity) };
    })
    .filter((each) => each.quantity > 0);
  return {
    parcel: null,
    shipment: order.shipment,
    shippedAt: order.shippedAt,
    lines: left.length ? left : order.lines.map((each, lineIndex) => line(lineIndex, each.quantity)),
  };
}
