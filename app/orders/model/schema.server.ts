/**
 * The order's schema: its statuses, its fields, its indexes and its number. Its sub-documents (lines,
 * payments, parcels, returns, credit notes) are in subdocs/, each with how the views read it. The model floor of the order module: Mongoose, other models and app/domain only.
 */
import { CURRENCY_CODES, HOME_CURRENCY } from "~/domain/money";
import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { MAX_ORDER_LINES } from "~/domain/order-lines";
import { ORDER_NUMBER_BASE } from "~/domain/order-number";
import { ORDER_PAYMENT_METHODS } from "~/domain/order-payments";
import { nextInSequence } from "~/models/counter.server";
import { postalAddressSchema } from "~/models/postal-address.server";
import { modelSettings } from "~/models/settings.server";
import { companyIdOfUser } from "~/models/user.server";
import { creditNoteSchema } from "./subdocs/credit-notes.server";
import { creditUseSchema } from "./subdocs/credit-uses.server";
import { orderLineSchema, taxLineSchema } from "./subdocs/lines.server";
import { recordedPaymentSchema } from "./subdocs/payments.server";
import { returnSchema } from "./subdocs/returns.server";
import { partShipmentSchema, shipmentSchema } from "./subdocs/shipments.server";

/**
 * A card order: unpaid -> paid -> shipped. An order on account: account (confirmed, invoiced, due
 * on its due date) -> shipped, paid whenever its money is recorded (paidAt). An unpaid order can
 * also end as cancelled (by its customer), removed (by an admin) or expired (its hold ran out
 * unpaid), which gives its stock back. Before any of these an order is "reserving", the short
 * moment while its lines take their stock: no list shows it, and the stock sweep finishes or undoes
 * one a crash left (orders/model/holds.server.ts); "failed" is one that could not take its stock, on its
 * way out (abandonOrder). An order over its buyer's spending limit waits as "approval", holding its
 * stock like an unpaid one (without expiry) until an owner approves it (it goes on as unpaid or on
 * account) or declines it (cancelled, stock back). What people read is the order's state (domain/order-states.ts).
 */
export const ORDER_STATUSES = [
  "reserving",
  "unpaid",
  "approval",
  "account",
  "paid",
  "shipped",
  "cancelled",
  "removed",
  "expired",
  "failed",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses an order ends in before it was paid: its stock goes back. */
export const ENDED_UNPAID_STATUSES = ["cancelled", "removed", "expired"] as const;
/** Statuses of an order that is invoiced: paid, or confirmed on account (shipped is one or the other). */
export const INVOICED_STATUSES = ["account", "paid", "shipped"] as const;

/** The changes that mail someone: placing an order, each later status, and the hold's reminder. */
export const ORDER_EVENT_KINDS = [
  "placed",
  "paid",
  "shipped",
  "cancelled",
  "removed",
  "expired",
  "reminder",
  "shipment",
  "allocated",
  "return",
  "credit",
  "refund",
  /** Account credit taken off the order (webhooks), and a credit note's credit paid out by bank. */
  "credit-applied",
  "payout",
  /** The owners' mail that an order waits for their approval. */
  "approval",
  /** The buyer's mail that an owner approved or declined their order. */
  "decided",
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

const orderSchema = new Schema(
  {
    /** The order's number, as people read it (SO-100042): given when the order is placed. */
    number: { type: Number },
    lines: {
      type: [orderLineSchema],
      required: true,
      validate: {
        validator: (lines: unknown[]) => lines.length >= 1 && lines.length <= MAX_ORDER_LINES,
        message: `An order has 1 to ${MAX_ORDER_LINES} lines`,
      },
    },
    /** The currency of the sale: every amount of the order is in its minor unit (decision record 11). */
    currency: { type: String, enum: CURRENCY_CODES, default: HOME_CURRENCY },
    /** What the customer pays: the lines' net plus tax (orders placed before tax: the lines alone). */
    totalCents: { type: Number, required: true, min: 1 },
    /** The sum of the lines' totals, and the tax on it, frozen when placed (absent on older orders). */
    netCents: { type: Number, min: 0 },
    taxCents: { type: Number, min: 0 },
    taxLines: { type: [taxLineSchema], default: undefined },
    /** The buyer's VAT number as placed (printed with a reverse charge). */
    buyerVatNumber: { type: String, maxlength: 30 },
    phone: { type: String, required: true, maxlength: 40 },
    /** The delivery address as printed (formatAddress of deliveryAddress; the typed text on older orders). */
    address: { type: String, required: true, maxlength: 800 },
    /** The delivery address field by field (absent on orders placed before addresses had fields). */
    deliveryAddress: { type: postalAddressSchema, default: undefined },
    /** The buyer's purchase-order number (optional), for their paperwork: invoices, packing slips, emails, CSV. */
    poNumber: { type: String, trim: true, maxlength: 35 },
    /** The person who placed the order (a member of the company). */
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The customer: the company the order belongs to (it stays there when its placer leaves). */
    companyId: { type: Schema.Types.ObjectId },
    /** Who placed it (the same as userId; kept by name so documents and lists can say so). */
    placedBy: { type: Schema.Types.ObjectId },
    /** The customer's email (the spec's user) and display name. */
    userEmail: { type: String, required: true },
    userName: { type: String, required: true },
    /** The buyer's company, as it was when the order was placed (documents, search). */
    companyName: { type: String, trim: true, maxlength: 120 },
    /** PO number, company name and the placer's name, lower case: Manage Orders' search (search-keys.server.ts). */
    searchKeys: { type: [String], default: undefined },
    /**
     * Card (through Stripe), on account (invoiced at once, due `dueAt`), or bank transfer against the
     * pro-forma (unpaid, holding its stock like a card order, until staff record the money).
     */
    paymentMethod: { type: String, enum: ORDER_PAYMENT_METHODS, default: "card" },
    /** Net days of an order on account, and the day its invoice is due. */
    termsDays: { type: Number },
    dueAt: { type: Date },
    /** Money received so far: a card payment, or the recorded payments not reversed. */
    paidCents: { type: Number, default: 0, min: 0 },
    payments: { type: [recordedPaymentSchema], default: undefined },
    shipment: { type: shipmentSchema },
    /** The parcels it left in (the last one also sets `shipment`, `shippedAt` and status shipped). */
    shipments: { type: [partShipmentSchema], default: undefined },
    /** How many parcels were recorded: each shipment is one update conditional on it (two tabs: one wins). */
    shipmentCount: { type: Number },
    /** The returns asked for, and how many: each request is one update conditional on the count (one wins). */
    returns: { type: [returnSchema], default: undefined },
    returnCount: { type: Number },
    /** Credit notes issued, how many (each is one update conditional on it), and their sum. */
    creditNotes: { type: [creditNoteSchema], default: undefined },
    creditNoteCount: { type: Number },
    creditedCents: { type: Number, min: 0 },
    /**
     * Account credit taken off this order (credit notes of the same account), and its sum: what is
     * left to pay is the total less these and the money received. An unpaid order that ends gives
     * its credit back to the notes it came from (orders/credit-apply.server.ts).
     */
    creditUses: { type: [creditUseSchema], default: undefined },
    creditAppliedCents: { type: Number, min: 0 },
    /** What a card payment must bring once credit came off an unpaid card order (Stripe is asked for this). */
    chargeCents: { type: Number, min: 0 },
    /** Set in the update that cancels a paid order, until its full credit note is issued. */
    creditPending: { type: Boolean },
    /** Set while a line waits on backorder (the allocation sweep and Shop Today find these). */
    backordered: { type: Boolean },
    status: { type: String, enum: ORDER_STATUSES, required: true, default: "unpaid" },
    /** Stripe PaymentIntent id, once paid. */
    transactionId: { type: String },
    // The order's timeline: placed (createdAt), then each change of status.
    paidAt: { type: Date },
    shippedAt: { type: Date },
    cancelledAt: { type: Date },
    /** Why staff cancelled or removed it (the customer reads it on the order page and in the mail). */
    cancelReason: { type: String, trim: true, maxlength: 300 },
    removedAt: { type: Date },
    expiredAt: { type: Date },
    /** While reserving: when the stock sweep takes over an order a crash left behind. */
    reserveBy: { type: Date },
    /** An unpaid card order holds its stock until then; the expiry job ends it after (orders/stock-jobs.server.ts). */
    holdUntil: { type: Date },
    /** When the reminder that the hold ends soon was noted (once per hold; an extension clears it). */
    holdReminderAt: { type: Date },
    /**
     * What is still to be done with the order's stock holds after a change of status, set in the
     * same update: "release" (ended unpaid) or "ship" (shipped). The step settles them at once and
     * unsets it; what a crash leaves, the stock sweep settles.
     */
    stockPending: { type: String, enum: ["release", "ship"] },
    /** Given once, when the order is paid (orders/model/invoice.server.ts); never on an unpaid order. */
    invoiceNumber: { type: Number },
    /**
     * Set in the same update that makes the order invoiceable (paid, or confirmed on account), unset with
     * the number: what a crash between the two leaves, the stock sweep numbers.
     */
    invoicePending: { type: Boolean },
    /** The invoice date, stored once with the number (orders/model/invoice.server.ts, invoiceDate). */
    invoicedAt: { type: Date },
    /** Over the buyer's limit per order: it waits for an owner's approval (status "approval"). */
    approvalRequired: { type: Boolean },
    /** The owner's decision on an order that needed approval. */
    approval: {
      type: new Schema(
        {
          limitCents: { type: Number },
          outcome: { type: String, enum: ["approved", "declined"] },
          decidedBy: { type: Schema.Types.ObjectId },
          decidedByName: { type: String, maxlength: 100 },
          decidedAt: { type: Date },
          note: { type: String, trim: true, maxlength: 300 },
        },
        { _id: false },
      ),
    },
    /** The customer's past order this one was reordered from (My Orders' "Order again"). */
    reorderedFrom: { type: Schema.Types.ObjectId },
    reorderedFromNumber: { type: Number },
    /** The quote whose acceptance placed this order, its number and the version accepted. */
    quoteId: { type: Schema.Types.ObjectId },
    quoteNumber: { type: Number },
    quoteVersion: { type: Number },
    /**
     * The events not yet handed to their subscribers (mail, webhooks). Each change adds its event in
     * the same atomic update that makes it; the service raises it and takes it off once every
     * outbox entry is written (orders/events.server.ts); what a crash or a failed write leaves
     * here, the order event sweep raises again (orders/event-sweep.server.ts).
     */
    eventsPending: { type: [{ type: String, enum: ORDER_EVENT_KINDS }], default: undefined },
    /** The parts whose stock this order took below their minimum order (the admins' low-stock notice). */
    lowStockPartIds: { type: [Schema.Types.ObjectId], default: undefined },
  },
  { timestamps: true },
);

// Each list's filter, then its whole sort (_id included), so the index returns the rows in order
// and no page sorts in memory: My Orders, Manage Orders, Manage Orders by status.
orderSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// The company's orders (shared ordering, the admin's company page), its open ones and its statement.
orderSchema.index({ companyId: 1, createdAt: -1, _id: -1 });
orderSchema.index({ companyId: 1, status: 1 });
orderSchema.index({ companyId: 1, dueAt: 1 }, { partialFilterExpression: { dueAt: { $exists: true } } });
orderSchema.index({ createdAt: -1, _id: -1 });
orderSchema.index({ status: 1, createdAt: -1, _id: -1 });
// Manage Orders' search by the customer's email (a prefix), newest first.
orderSchema.index({ userEmail: 1, createdAt: -1, _id: -1 });
// The admin home's sales of the last 30 days (paid orders by the day they were paid).
orderSchema.index({ paidAt: 1 }, { sparse: true });
// The ledger sweep: invoiced orders changed since it last read them.
orderSchema.index({ updatedAt: 1, _id: 1 }, { partialFilterExpression: { invoiceNumber: { $exists: true } } });
// The order mail sweep: the few orders with an event whose mail is not written yet.
orderSchema.index({ eventsPending: 1 }, { sparse: true });
// The stock sweep and the hold jobs: orders left reserving, holds running out, holds to settle.
orderSchema.index({ reserveBy: 1 }, { sparse: true });
orderSchema.index({ holdUntil: 1 }, { sparse: true });
orderSchema.index({ stockPending: 1 }, { sparse: true });
// Orders waiting on backorder, and shipments whose units are still to come off the parts' holds.
orderSchema.index({ backordered: 1, createdAt: 1 }, { sparse: true });
orderSchema.index({ "shipments.stockPending": 1 }, { sparse: true });
// Shop Today's returns to decide and to receive; returns whose restocked units are still to reach the part.
orderSchema.index({ "returns.status": 1 }, { sparse: true });
orderSchema.index({ "returns.stockPending": 1 }, { sparse: true });
// Credit notes still to issue after a crash; a refund by its Stripe id (the refund webhooks).
orderSchema.index({ creditPending: 1 }, { sparse: true });
// Invoiceable orders not yet numbered (a crash between the payment and the number): the stock sweep.
orderSchema.index({ invoicePending: 1 }, { sparse: true });
orderSchema.index({ "returns.creditPending": 1 }, { sparse: true });
orderSchema.index({ "creditNotes.refund.id": 1 }, { sparse: true });
// The credit sweep: claims on a credit note's credit that a crash may have left untaken.
orderSchema.index({ "creditNotes.uses.pending": 1 }, { sparse: true });
// Shop Today's card refunds that failed.
orderSchema.index({ "creditNotes.refund.status": 1 }, { sparse: true });
// The caps on what a customer holds unpaid: their open orders by status.
orderSchema.index({ userId: 1, status: 1 });
// An order by its number (search, links people type); unique, so a number is never given twice.
// Sparse (not partial): the local database treats a partial index's missing numbers as duplicates.
orderSchema.index({ number: 1 }, { unique: true, sparse: true });
// Manage Orders' search by PO number or company name (a prefix of the lower-case keys), newest first.
orderSchema.index({ searchKeys: 1, createdAt: -1, _id: -1 }, { sparse: true });
// Overdue invoices and a customer's statement: open invoices on account by due date.
orderSchema.index({ dueAt: 1 }, { sparse: true });
orderSchema.index({ userId: 1, dueAt: 1 }, { partialFilterExpression: { dueAt: { $exists: true } } });

/** The next order number: a counter shared by every instance, moved on atomically. */
export async function nextOrderNumber() {
  return ORDER_NUMBER_BASE + (await nextInSequence("order"));
}

// Every order created gets its number (orders placed, and those written straight by demo data and
// tests), and records its company and placer.
orderSchema.pre("validate", async function () {
  if (this.isNew && this.number == null) this.number = await nextOrderNumber();
  if (this.isNew && !this.placedBy) this.placedBy = this.userId;
  if (this.isNew && !this.companyId && this.userId) {
    const companyId = await companyIdOfUser(String(this.userId));
    if (companyId) this.companyId = new mongoose.Types.ObjectId(companyId);
  }
});

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };

export const Order: mongoose.Model<OrderDoc> =
  (mongoose.models.Order as mongoose.Model<OrderDoc>) ?? mongoose.model<OrderDoc>("Order", orderSchema);

/** The settings of holding stock (models/settings.server.ts). */
export function stockSettings() {
  const settings = modelSettings();
  return { reserveMs: settings.stockReserveMs, holdMs: settings.orderHoldMs };
}

export const DAY_MS = 24 * 60 * 60 * 1000;
