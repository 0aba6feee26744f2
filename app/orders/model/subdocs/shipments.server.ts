/** How an order left: its parcels (part shipments) as stored, and as the screens read them. */
import { Schema, type Types } from "mongoose";
import type { OrderDoc } from "../schema.server";
import type { OrderLineView } from "../view.server";

/** How the order left: a carrier and its tracking number, or collected by the customer. */
export const shipmentSchema = new Schema(
  {
    /** A carrier id from app/content/carriers.ts, or "collected". */
    carrier: { type: String, required: true, maxlength: 40 },
    trackingNumber: { type: String, trim: true, maxlength: 60 },
  },
  { _id: false },
);

/**
 * One parcel of a partial (or the last) shipment: which lines and how many units, how it left and
 * when. `stockPending` is set until its units are taken off the parts' holds (shipments.server.ts).
 */
export const partShipmentSchema = new Schema({
  lines: {
    type: [
      new Schema(
        {
          lineIndex: { type: Number, required: true, min: 0 },
          partId: { type: Schema.Types.ObjectId, required: true },
          quantity: { type: Number, required: true, min: 1 },
        },
        { _id: false },
      ),
    ],
    required: true,
  },
  carrier: { type: String, required: true, maxlength: 40 },
  trackingNumber: { type: String, trim: true, maxlength: 60 },
  shippedAt: { type: Date, required: true },
  shippedBy: { type: String, maxlength: 200 },
  /** Staff's note on the parcel (printed on its packing slip). */
  note: { type: String, trim: true, maxlength: 500 },
  stockPending: { type: Boolean },
});

export type ShipmentView = { carrier: string; trackingNumber: string | null };

/** One parcel: its lines and units, how it left and when (numbered 1, 2, … in the order they left). */
export type PartShipmentView = ShipmentView & {
  id: string;
  number: number;
  shippedAt: string;
  note: string | null;
  lines: { lineIndex: number; partNumber: string; productName: string; quantity: number }[];
};

type ShipmentDoc = {
  _id: Types.ObjectId;
  lines: { lineIndex: number; quantity: number }[];
  carrier: string;
  trackingNumber?: string | null;
  shippedAt: Date;
  note?: string | null;
};

export function toShipmentViews(doc: Partial<OrderDoc>, lines: OrderLineView[]): PartShipmentView[] {
  const stored = (doc.shipments ?? []) as unknown as ShipmentDoc[];
  if (!stored.length && doc.status === "shipped" && doc.shipment?.carrier) {
    return [
      {
        id: "whole",
        number: 1,
        carrier: doc.shipment.carrier,
        trackingNumber: doc.shipment.trackingNumber || null,
        shippedAt: (doc.shippedAt ?? doc.updatedAt ?? new Date(0)).toISOString(),
        note: null,
        lines: lines.map((line, lineIndex) => ({
          lineIndex,
          partNumber: line.partNumber,
          productName: line.productName,
          quantity: line.quantity,
        })),
      },
    ];
  }
  return stored.map((shipment, index) => ({
    id: shipment._id.toString(),
    number: index + 1,
    carrier: shipment.carrier,
    trackingNumber: shipment.trackingNumber || null,
    shippedAt: shipment.shippedAt.toISOString(),
    note: shipment.note || null,
    lines: shipment.lines.map((line) => ({
      lineIndex: line.lineIndex,
      partNumber: lines[line.lineIndex]?.partNumber ?? "",
      productName: lines[line.lineIndex]?.productName ?? "",
      quantity: line.quantity,
    })),
  }));
}
