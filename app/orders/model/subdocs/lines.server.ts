/** An order's lines and tax lines as stored: each line a snapshot of its part as ordered. */
import { Schema } from "mongoose";
import { TAX_KINDS } from "~/domain/tax";

/** One part of an order, with a snapshot of the part as it was ordered. */
export const orderLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    partNumber: { type: String, default: "", maxlength: 32 },
    productName: { type: String, required: true, maxlength: 120 },
    unitPriceCents: { type: Number, required: true, min: 1 },
    quantity: { type: Number, required: true, min: 1 },
    /** unit price x quantity, computed on the server. */
    lineTotalCents: { type: Number, required: true, min: 1 },
    /** The list price of a unit when ordered, and what gave the unit price (domain/pricing.ts). */
    listUnitPriceCents: { type: Number, min: 1 },
    priceSource: { type: String, enum: ["list", "break", "group", "group+break", "quote"] },
    /**
     * Units still waiting for stock (only ever goes down: stock allocated to the part's hold is
     * copied here with $min), the day they were expected when ordered, and the units shipped.
     */
    backorderedQuantity: { type: Number, min: 0 },
    backorderExpectedOn: { type: Date },
    shippedQuantity: { type: Number, min: 0 },
    /** Units in returns asked for, approved or received (a declined return gives its units back). */
    returnedQuantity: { type: Number, min: 0 },
  },
  { _id: false },
);

/** One tax line of an order as placed (domain/tax.ts): a rate on a base, or none and why. */
export const taxLineSchema = new Schema(
  {
    kind: { type: String, enum: TAX_KINDS, required: true },
    label: { type: String, required: true, maxlength: 80 },
    rate: { type: Number, required: true, min: 0, max: 100 },
    baseCents: { type: Number, required: true, min: 0 },
    amountCents: { type: Number, required: true, min: 0 },
    note: { type: String, maxlength: 300 },
  },
  { _id: false },
);
