import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { lineProblem, MAX_ORDER_LINES, orderSummary, type LineProblem } from "~/domain/order-lines";
import { formatOrderNumber, ORDER_NUMBER_BASE, parseOrderNumber } from "~/domain/order-number";
import { orderState, PAYMENT_METHODS, type OrderState } from "~/domain/order-states";
import { priceWith, VISITOR_PRICING, type CustomerPricing, type PriceSource } from "~/domain/pricing";
import { TAX_KINDS, type TaxKind, type TaxLine } from "~/domain/tax";
import { nextInSequence } from "./counter.server";
import { capRefusal } from "~/domain/order-caps";
import { modelSettings } from "./settings.server";
import { unpaidCapsOf } from "./unpaid-caps.server";
import { cartClaimedFor, dropCheckoutClaim, emptyCheckedOutCart } from "./cart.server";
import { companyIdOfUser } from "./user.server";
import { getPartsByIds, holdStock, isObjectId, releaseHolds, type PartView } from "./part.server";
import { orderSearchBranches, orderSearchKeys } from "./order-search.server";

/**
 * A card order: unpaid -> paid -> shipped. An order on account: account (confirmed, invoiced, due
 * on its due date) -> shipped, paid whenever its money is recorded (paidAt). An unpaid order can
 * also end as cancelled (by its customer), removed (by an admin) or expired (its hold ran out
 * unpaid), which gives its stock back. Before any of these an order is "reserving", the short
 * moment while its lines take their stock: no list shows it, and the stock sweep finishes or undoes
 * one a crash left (order-stock.server.ts); "failed" is one that could not take its stock, on its
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
export const ORDER_MAIL_EVENTS = ["placed", "paid", "shipped", "cancelled", "removed", "expired", "reminder"] as const;
export type OrderMailEvent = (typeof ORDER_MAIL_EVENTS)[number];

/** Money received outside Stripe, as staff recorded it; a wrong entry is reversed, never deleted. */
const recordedPaymentSchema = new Schema({
  amountCents: { type: Number, required: true, min: 1 },
  method: { type: String, enum: PAYMENT_METHODS, required: true },
  /** The day the money arrived (UTC midnight). */
  receivedOn: { type: Date, required: true },
  reference: { type: String, trim: true, maxlength: 60, default: "" },
  recordedBy: { type: String, required: true },
  recordedAt: { type: Date, required: true },
  reversedAt: { type: Date },
  reversedBy: { type: String },
  reversalReason: { type: String, maxlength: 200 },
});

/** How the order left: a carrier and its tracking number, or collected by the customer. */
const shipmentSchema = new Schema(
  {
    /** A carrier id from app/content/carriers.ts, or "collected". */
    carrier: { type: String, required: true, maxlength: 40 },
    trackingNumber: { type: String, trim: true, maxlength: 60 },
  },
  { _id: false },
);

/** One part of an order, with a snapshot of the part as it was ordered. */
const orderLineSchema = new Schema(
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
    priceSource: { type: String, enum: ["list", "break", "group", "group+break"] },
  },
  { _id: false },
);

/** One tax line of an order as placed (domain/tax.ts): a rate on a base, or none and why. */
const taxLineSchema = new Schema(
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
    /** What the customer pays: the lines' net plus tax (orders placed before tax: the lines alone). */
    totalCents: { type: Number, required: true, min: 1 },
    /** The sum of the lines' totals, and the tax on it, frozen when placed (absent on older orders). */
    netCents: { type: Number, min: 0 },
    taxCents: { type: Number, min: 0 },
    taxLines: { type: [taxLineSchema], default: undefined },
    /** The buyer's VAT number as placed (printed with a reverse charge). */
    buyerVatNumber: { type: String, maxlength: 30 },
    phone: { type: String, required: true, maxlength: 40 },
    address: { type: String, required: true, maxlength: 300 },
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
    /** PO number, company name and the placer's name, lower case: Manage Orders' search (order-search.server.ts). */
    searchKeys: { type: [String], default: undefined },
    /** Card (through Stripe) or on account (invoiced at once, due `dueAt`). */
    paymentMethod: { type: String, enum: ["card", "account"], default: "card" },
    /** Net days of an order on account, and the day its invoice is due. */
    termsDays: { type: Number },
    dueAt: { type: Date },
    /** Money received so far: a card payment, or the recorded payments not reversed. */
    paidCents: { type: Number, default: 0, min: 0 },
    payments: { type: [recordedPaymentSchema], default: undefined },
    shipment: { type: shipmentSchema },
    status: { type: String, enum: ORDER_STATUSES, required: true, default: "unpaid" },
    /** Stripe PaymentIntent id, once paid. */
    transactionId: { type: String },
    // The order's timeline: placed (createdAt), then each change of status.
    paidAt: { type: Date },
    shippedAt: { type: Date },
    cancelledAt: { type: Date },
    removedAt: { type: Date },
    expiredAt: { type: Date },
    /** While reserving: when the stock sweep takes over an order a crash left behind. */
    reserveBy: { type: Date },
    /** An unpaid card order holds its stock until then; the expiry job ends it after (stock-jobs.server.ts). */
    holdUntil: { type: Date },
    /** When the reminder that the hold ends soon was noted (once per hold; an extension clears it). */
    holdReminderAt: { type: Date },
    /**
     * What is still to be done with the order's stock holds after a change of status, set in the
     * same update: "release" (ended unpaid) or "ship" (shipped). The step settles them at once and
     * unsets it; what a crash leaves, the stock sweep settles.
     */
    stockPending: { type: String, enum: ["release", "ship"] },
    /** Given once, when the order is paid (invoice.server.ts); never on an unpaid order. */
    invoiceNumber: { type: Number },
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
    /**
     * The events not yet handed to their subscribers (mail, webhooks). Each change adds its event in
     * the same atomic update that makes it; the service raises it and takes it off once every
     * outbox entry is written (utils/order-events.server.ts); what a crash or a failed write leaves
     * here, the order event sweep raises again (order-mail-sweep.server.ts).
     */
    mailPending: { type: [{ type: String, enum: ORDER_MAIL_EVENTS }], default: undefined },
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
// The order mail sweep: the few orders with an event whose mail is not written yet.
orderSchema.index({ mailPending: 1 }, { sparse: true });
// The stock sweep and the hold jobs: orders left reserving, holds running out, holds to settle.
orderSchema.index({ reserveBy: 1 }, { sparse: true });
orderSchema.index({ holdUntil: 1 }, { sparse: true });
orderSchema.index({ stockPending: 1 }, { sparse: true });
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

export type OrderLineView = {
  partId: string;
  partNumber: string;
  productName: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** The list price of a unit when ordered (null on orders placed before price groups). */
  listUnitPriceCents: number | null;
  priceSource: PriceSource | null;
};

export type RecordedPaymentView = {
  id: string;
  amountCents: number;
  method: (typeof PAYMENT_METHODS)[number];
  receivedOn: string;
  reference: string;
  recordedBy: string;
  recordedAt: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
};

export type ShipmentView = { carrier: string; trackingNumber: string | null };

export type OrderView = {
  id: string;
  /** The order's number as people read it: "SO-100042". */
  number: string;
  lines: OrderLineView[];
  /** The first line's part name, with "+ N more" when there are more lines. */
  summary: string;
  totalQuantity: number;
  totalCents: number;
  /** The lines' sum before tax (the total on orders placed before tax). */
  netCents: number;
  taxCents: number;
  /** Empty on orders placed before tax lines were kept: they show no tax line. */
  taxLines: TaxLine[];
  buyerVatNumber: string | null;
  phone: string;
  address: string;
  /** The buyer's purchase-order number, or null. */
  poNumber: string | null;
  userId: string;
  /** The company the order belongs to ("" for an order written before companies). */
  companyId: string;
  /** An order over its buyer's limit: the limit, and the owner's decision once made. */
  approval: {
    limitCents: number | null;
    outcome: "approved" | "declined" | null;
    decidedByName: string | null;
    note: string | null;
  } | null;
  userEmail: string;
  userName: string;
  companyName: string | null;
  status: OrderStatus;
  /** What people read: the state of the order's money and goods (domain/order-states.ts). */
  state: OrderState;
  paymentMethod: "card" | "account";
  termsDays: number | null;
  dueAt: string | null;
  paidCents: number;
  /** What is still to pay (0 once paid, or for an order that ended). */
  balanceCents: number;
  payments: RecordedPaymentView[];
  shipment: ShipmentView | null;
  paid: boolean;
  shipped: boolean;
  transactionId: string | null;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  cancelledAt: string | null;
  removedAt: string | null;
  expiredAt: string | null;
  /** Until when an unpaid card order holds its stock, or null. */
  holdUntil: string | null;
  invoiceNumber: number | null;
  invoicedAt: string | null;
  /** The id of the order this one was reordered from, or null. */
  reorderedFrom: string | null;
  /** The number of the order this one was reordered from, or null. */
  reorderedFromNumber: string | null;
};

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

type LineDoc = Partial<Omit<OrderLineView, "partId">> & { partId?: Types.ObjectId | string | null };

/** An order written without a number (a bulk insert of test data): the end of its id. */
const numberOf = (doc: { _id: Types.ObjectId; number?: number | null }) =>
  doc.number ? formatOrderNumber(doc.number) : doc._id.toString().slice(-8).toUpperCase();

type PaymentDoc = {
  _id?: Types.ObjectId;
  amountCents: number;
  method: string;
  receivedOn: Date;
  reference?: string | null;
  recordedBy: string;
  recordedAt: Date;
  reversedAt?: Date | null;
  reversedBy?: string | null;
  reversalReason?: string | null;
};

function toPaymentView(payment: PaymentDoc): RecordedPaymentView {
  return {
    id: payment._id?.toString() ?? "",
    amountCents: payment.amountCents,
    method: payment.method as RecordedPaymentView["method"],
    receivedOn: payment.receivedOn.toISOString(),
    reference: payment.reference ?? "",
    recordedBy: payment.recordedBy,
    recordedAt: payment.recordedAt.toISOString(),
    reversedAt: iso(payment.reversedAt),
    reversedBy: payment.reversedBy ?? null,
    reversalReason: payment.reversalReason ?? null,
  };
}

export function toOrderView(doc: Partial<OrderDoc> & { _id: Types.ObjectId }): OrderView {
  const status = (doc.status as OrderStatus) ?? "unpaid";
  const lines = ((doc.lines ?? []) as LineDoc[]).map((line) => ({
    partId: line.partId?.toString() ?? "",
    partNumber: line.partNumber ?? "",
    productName: line.productName ?? "",
    unitPriceCents: line.unitPriceCents ?? 0,
    quantity: line.quantity ?? 0,
    lineTotalCents: line.lineTotalCents ?? 0,
    listUnitPriceCents: line.listUnitPriceCents ?? null,
    priceSource: (line.priceSource as PriceSource | undefined) ?? null,
  }));
  const taxLines = ((doc.taxLines ?? []) as Partial<TaxLine>[]).map((line) => ({
    kind: (line.kind ?? "unknown") as TaxKind,
    label: line.label ?? "",
    rate: line.rate ?? 0,
    baseCents: line.baseCents ?? 0,
    amountCents: line.amountCents ?? 0,
    note: line.note ?? null,
  }));
  return {
    id: doc._id.toString(),
    number: numberOf(doc),
    lines,
    summary: orderSummary(lines[0]?.productName ?? "", lines.length),
    totalQuantity: lines.reduce((sum, line) => sum + line.quantity, 0),
    totalCents: doc.totalCents ?? 0,
    netCents: doc.netCents ?? doc.totalCents ?? 0,
    taxCents: doc.taxCents ?? 0,
    taxLines,
    buyerVatNumber: doc.buyerVatNumber ?? null,
    phone: doc.phone ?? "",
    address: doc.address ?? "",
    poNumber: doc.poNumber || null,
    userId: doc.userId?.toString() ?? "",
    companyId: doc.companyId?.toString() ?? "",
    approval: doc.approvalRequired
      ? {
          limitCents: doc.approval?.limitCents ?? null,
          outcome: (doc.approval?.outcome as "approved" | "declined" | undefined) ?? null,
          decidedByName: doc.approval?.decidedByName ?? null,
          note: doc.approval?.note ?? null,
        }
      : null,
    userEmail: doc.userEmail ?? "",
    userName: doc.userName ?? "",
    companyName: doc.companyName || null,
    status,
    state: orderState({
      status,
      totalCents: doc.totalCents ?? 0,
      paidCents: doc.paidCents ?? 0,
      paidAt: doc.paidAt,
      dueAt: doc.dueAt,
    }),
    paymentMethod: doc.paymentMethod === "account" ? "account" : "card",
    termsDays: doc.termsDays ?? null,
    dueAt: iso(doc.dueAt),
    paidCents: doc.paidCents ?? 0,
    balanceCents:
      doc.paidAt || status === "cancelled" || status === "removed" || status === "expired"
        ? 0
        : Math.max(0, (doc.totalCents ?? 0) - (doc.paidCents ?? 0)),
    payments: ((doc.payments ?? []) as PaymentDoc[]).map(toPaymentView),
    shipment: doc.shipment?.carrier
      ? { carrier: doc.shipment.carrier, trackingNumber: doc.shipment.trackingNumber || null }
      : null,
    paid: Boolean(doc.paidAt) || status === "paid",
    shipped: status === "shipped",
    transactionId: doc.transactionId ?? null,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
    paidAt: iso(doc.paidAt),
    shippedAt: iso(doc.shippedAt),
    cancelledAt: iso(doc.cancelledAt),
    removedAt: iso(doc.removedAt),
    expiredAt: iso(doc.expiredAt),
    holdUntil: status === "unpaid" ? iso(doc.holdUntil) : null,
    invoiceNumber: doc.invoiceNumber ?? null,
    invoicedAt: iso(doc.invoicedAt),
    reorderedFrom: doc.reorderedFrom ? doc.reorderedFrom.toString() : null,
    reorderedFromNumber: doc.reorderedFromNumber ? formatOrderNumber(doc.reorderedFromNumber) : null,
  };
}

/** Whose orders a customer sees: their company's (every order records it), else their own. */
export type CustomerScope = { id: string; companyId?: string | null };

function scopeFilter(scope: CustomerScope): Record<string, unknown> | null {
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

// --- Ordering and the order life cycle ----------------------------------------------------------
// Every change of status is one conditional update on the current status, so a double submit or a
// race between two admins can never apply a change twice (nor give stock back twice).

export type OrderLineRequest = { partId: string; quantity: number };

export type PlaceOrderInput = {
  lines: OrderLineRequest[];
  phone: string;
  address: string;
  /** The buyer's purchase-order number (optional). */
  poNumber?: string;
  user: { id: string; email: string; name: string; companyName?: string | null; companyId?: string | null };
  /** The customer's own past order the lines came from (a reorder through the cart). */
  reorderedFrom?: string | null;
  /** The buyer's price group and tax details (pricing.server.ts); absent: list prices, no tax recorded. */
  pricing?: CustomerPricing;
  /**
   * On account with these net days (the service checked the credit limit, which is checked again
   * here with this order written); else a card order.
   */
  onAccount?: { termsDays: number; creditLimitCents?: number } | null;
  /** The order's id, chosen beforehand (a cart's checkout claims the cart for it). */
  orderId?: string;
  /** The lines come from the customer's cart, claimed for `orderId`: emptied once the order exists. */
  fromCart?: boolean;
  /** Over the buyer's limit per order (this limit): placed to wait for an owner's approval. */
  approvalLimitCents?: number | null;
};

/** A line that could not be ordered: which one (its place in the request) and why. */
export type LineFailure = LineProblem & {
  index: number;
  partId: string;
  partNumber: string | null;
  productName: string | null;
};

/** Not placed: the lines that could not be ordered, or a refusal of the whole order (a cap). */
export type PlaceOrderResult =
  | { ok: true; order: OrderView; belowMinimum: PartView[] }
  | {
      ok: false;
      failures: LineFailure[];
      refusal?: string;
      /** On account, past the credit limit once counted with the orders placed at the same time. */
      overCredit?: { limitCents: number; balanceCents: number; orderCents: number };
    };

/** The same part twice becomes one line with both quantities; the first place is kept. */
function mergeLines(lines: OrderLineRequest[]) {
  const merged = new Map<string, OrderLineRequest & { index: number }>();
  lines.forEach((line, index) => {
    const seen = merged.get(line.partId);
    if (seen) seen.quantity += line.quantity;
    else merged.set(line.partId, { ...line, index });
  });
  return [...merged.values()];
}

function failureOf(
  line: { index: number; partId: string },
  part: PartView | undefined,
  problem: LineProblem,
): LineFailure {
  return {
    ...problem,
    index: line.index,
    partId: line.partId,
    partNumber: part?.partNumber ?? null,
    productName: part?.name ?? null,
  };
}

/** The settings of holding stock (models/settings.server.ts). */
function stockSettings() {
  const settings = modelSettings();
  return { reserveMs: settings.stockReserveMs, holdMs: settings.orderHoldMs };
}

/** A fresh order id, chosen before the order is written (the cart's checkout claim names it). */
export const newOrderId = () => new mongoose.Types.ObjectId().toString();

/** A cart's checkout claim older than this was left by a crash (its order is the sweep's by then). */
export const checkoutClaimMs = () => stockSettings().reserveMs;

/** The customer's (company's) orders awaiting card payment or approval: how many and their total. */
export async function openCardOrdersOf(scope: CustomerScope, { except }: { except?: string } = {}) {
  const docs = await Order.find(
    {
      ...(scopeFilter(scope) ?? { _id: null }),
      status: { $in: ["reserving", "unpaid", "approval"] },
      paymentMethod: { $ne: "account" },
      ...(except ? { _id: { $ne: except } } : {}),
    },
    { totalCents: 1 },
  ).lean();
  return { count: docs.length, totalCents: docs.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0) };
}

/**
 * Places an order of one or more lines, all or nothing, in steps that a crash at any point leaves
 * recoverable (no multi-document transaction: the local database has none):
 * 1. every line is checked against the part as it is now (a failure stops here, nothing written);
 * 2. a card order is checked against the customer's caps on unpaid orders (models/unpaid-caps.server.ts);
 * 3. the order is written in the "reserving" state with its lines, and the caps are checked again
 *    with it counted (two checkouts at once cannot both slip under);
 * 4. each line takes its stock with one conditional update that also notes the order's hold on
 *    the part (part.server.ts, holdStock), so what was taken is known, never guessed;
 * 5. the order is confirmed (unpaid, holding its stock until `holdUntil`; or on account), and only
 *    then the cart it came from is emptied.
 * If a line cannot take its stock, the holds taken are given back and the order is dropped. If the
 * process dies in between, the stock sweep (order-stock.server.ts) finishes the order when every
 * line holds its stock, or gives back what was taken, once STOCK_RESERVE_DEADLINE_SECONDS passed.
 * The order keeps a snapshot of each part's number, name and unit price; every total is computed here.
 */
export async function placeOrder({
  lines,
  phone,
  address,
  poNumber,
  user,
  reorderedFrom,
  onAccount,
  orderId,
  fromCart = false,
  pricing = VISITOR_PRICING,
  approvalLimitCents = null,
}: PlaceOrderInput): Promise<PlaceOrderResult> {
  if (lines.length < 1 || lines.length > MAX_ORDER_LINES) {
    throw new Error(`An order has 1 to ${MAX_ORDER_LINES} lines`);
  }
  const merged = mergeLines(lines);
  const parts = await getPartsByIds(merged.map((line) => line.partId));
  const failures = merged.flatMap((line) => {
    const problem = lineProblem(parts.get(line.partId), line.quantity);
    return problem ? [failureOf(line, parts.get(line.partId), problem)] : [];
  });
  const id = orderId ?? newOrderId();
  const dropClaim = () => (fromCart ? dropCheckoutClaim(user.id, id) : Promise.resolve());
  if (failures.length) {
    await dropClaim();
    return { ok: false, failures };
  }

  // Priced here, from the parts just read: the prices and the tax are frozen on the order.
  const priced = priceWith(pricing, parts, merged, address);
  const orderLines = priced.lines.map((line) => {
    const part = parts.get(line.partId)!;
    return {
      partId: part.id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: line.unitPriceCents,
      quantity: line.quantity,
      lineTotalCents: line.lineTotalCents,
      listUnitPriceCents: line.listPriceCents,
      priceSource: line.source,
    };
  });
  const { totalCents, netCents, taxCents, taxLines } = priced;
  // Card orders are capped per customer; an order on account is bounded by the credit limit instead.
  const caps = onAccount ? null : await unpaidCapsOf(user.id);
  const overCaps = async (except?: string) =>
    caps
      ? capRefusal(caps, await openCardOrdersOf({ id: user.id, companyId: user.companyId }, { except }), totalCents)
      : null;
  const over = await overCaps();
  if (over) {
    await dropClaim();
    return { ok: false, failures: [], refusal: over };
  }

  const source =
    reorderedFrom && isObjectId(reorderedFrom) ? await Order.findById(reorderedFrom, { number: 1 }).lean() : null;
  const searchKeys = orderSearchKeys({ poNumber, companyName: user.companyName, placerName: user.name });
  const placedAt = new Date();
  const fields = {
    _id: id,
    lines: orderLines,
    totalCents,
    netCents,
    taxCents,
    taxLines,
    ...(pricing.tax?.vatNumber ? { buyerVatNumber: pricing.tax.vatNumber } : {}),
    phone,
    address,
    ...(poNumber ? { poNumber } : {}),
    ...(reorderedFrom ? { reorderedFrom, ...(source?.number ? { reorderedFromNumber: source.number } : {}) } : {}),
    userId: user.id,
    ...(user.companyId ? { companyId: user.companyId } : {}),
    placedBy: user.id,
    userEmail: user.email,
    userName: user.name,
    ...(user.companyName ? { companyName: user.companyName } : {}),
    ...(searchKeys.length ? { searchKeys } : {}),
    ...(onAccount
      ? {
          paymentMethod: "account" as const,
          termsDays: onAccount.termsDays,
          dueAt: new Date(placedAt.getTime() + onAccount.termsDays * DAY_MS),
        }
      : { paymentMethod: "card" as const }),
    ...(approvalLimitCents !== null ? { approvalRequired: true, approval: { limitCents: approvalLimitCents } } : {}),
    status: "reserving" as const,
    reserveBy: new Date(placedAt.getTime() + stockSettings().reserveMs),
    createdAt: placedAt,
  };
  // The number comes from the shared counter; should the unique index still refuse one (a counter
  // restored from a backup), the next number is drawn.
  for (let attempt = 1; ; attempt++) {
    try {
      await Order.create(fields);
      break;
    } catch (error) {
      if (attempt >= 5 || !isDuplicateNumber(error)) throw error;
    }
  }
  // Counted again with this order written: of two checkouts racing past the first look, one sees the other.
  const overNow = await overCaps(id);
  if (overNow) {
    await abandonOrder(id, []);
    await dropClaim();
    return { ok: false, failures: [], refusal: overNow };
  }
  if (onAccount?.creditLimitCents !== undefined) {
    const balanceCents = await accountCommitmentOf({ id: user.id, companyId: user.companyId }, { except: id });
    if (balanceCents + totalCents > onAccount.creditLimitCents) {
      await abandonOrder(id, []);
      await dropClaim();
      return {
        ok: false,
        failures: [],
        overCredit: { limitCents: onAccount.creditLimitCents, balanceCents, orderCents: totalCents },
      };
    }
  }

  const held = await Promise.all(merged.map((line) => holdStock(line.partId, id, line.quantity)));
  if (held.some((part) => part === null)) {
    await abandonOrder(id, merged);
    await dropClaim();
    const missed = merged.filter((_, i) => !held[i]);
    const now = await getPartsByIds(missed.map((line) => line.partId));
    return {
      ok: false,
      failures: missed.map((line) => {
        const part = now.get(line.partId);
        // Between the check and the reservation another order took the stock (or an admin changed the part).
        const problem = lineProblem(part, line.quantity) ?? {
          reason: "above-stock" as const,
          message: "Other orders took this stock just now; please try again",
        };
        return failureOf(line, part ?? parts.get(line.partId), problem);
      }),
    };
  }
  const belowMinimum = held.filter(
    (part): part is PartView => part !== null && part.availableQuantity < part.minOrderQuantity,
  );
  // A cart's claim dropped by the sweep (this step outlived the deadline) means the cart was let go: not ordered.
  const claimLost = fromCart && !(await cartClaimedFor(user.id, id));
  const order = claimLost
    ? null
    : await confirmOrder(
        id,
        belowMinimum.map((part) => part.id),
      );
  if (!order) {
    // Only past the deadline: the sweep judged this order abandoned and gave its stock back.
    await abandonOrder(id, merged);
    await dropClaim();
    return {
      ok: false,
      failures: [],
      refusal: "Placing your order took too long; nothing was ordered, please try again",
    };
  }
  if (fromCart) await emptyCheckedOutCart(user.id, id);
  return { ok: true, order, belowMinimum };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function isDuplicateNumber(error: unknown) {
  const { code, keyPattern, message } = error as { code?: number; keyPattern?: object; message?: string };
  return code === 11000 && (keyPattern ? "number" in keyPattern : /number/.test(message ?? ""));
}

/**
 * Every line of a reserving order holds its stock: a card order becomes unpaid, holding the stock
 * until ORDER_HOLD_HOURS from now; an order on account is confirmed on account (it does not
 * expire). Null when it is not reserving (any more). A confirmation the placing step or the sweep
 * already made returns the order as it is.
 */
export async function confirmOrder(orderId: string, lowStockPartIds: string[] = []) {
  const current = await Order.findById(orderId, { status: 1, paymentMethod: 1, approvalRequired: 1 }).lean();
  if (current?.status === "reserving") {
    const onAccount = current.paymentMethod === "account";
    // Waiting for approval: held without expiry, and mailed by the approval service, not as placed.
    const waits = Boolean(current.approvalRequired);
    const doc = await Order.findOneAndUpdate(
      { _id: orderId, status: "reserving" },
      {
        $set: {
          status: waits ? "approval" : onAccount ? "account" : "unpaid",
          ...(onAccount || waits ? {} : { holdUntil: new Date(Date.now() + stockSettings().holdMs) }),
          ...(waits ? {} : { mailPending: ["placed"] }),
          ...(lowStockPartIds.length ? { lowStockPartIds } : {}),
        },
        $unset: { reserveBy: "" },
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) return toOrderView(doc);
  }
  const now = await Order.findById(orderId).lean();
  return now && now.status !== "reserving" && now.status !== "failed" ? toOrderView(now) : null;
}

/**
 * An order that never was (a line without stock, a cap, or left by a crash): it is marked failed
 * so that nothing can confirm it any more, the stock its lines hold goes back (each hold once),
 * and then it is deleted. Every step can be run again: the sweep does, for one a crash left.
 */
export async function abandonOrder(orderId: string, lines: { partId: string; quantity: number }[]) {
  const marked = await Order.findOneAndUpdate(
    { _id: orderId, status: { $in: ["reserving", "failed"] } },
    { $set: { status: "failed" } },
    { projection: { _id: 1 } },
  ).lean();
  // Confirmed meanwhile (by the sweep, or the placing step): it keeps its stock.
  if (!marked && (await Order.exists({ _id: orderId }))) return false;
  // A gone order holds nothing: a hold its late placing step took after the sweep dropped it goes back too.
  await releaseHolds(orderId, lines);
  await Order.deleteOne({ _id: orderId, status: "failed" });
  return true;
}

const ENDED_AT = { cancelled: "cancelledAt", removed: "removedAt", expired: "expiredAt" } as const;

/**
 * Ends an unpaid order (cancelled by its customer, removed by an admin, or expired) and gives
 * every line's stock back. The status changes in one conditional update that also notes the
 * stock as pending, so of two endings racing only one applies; the release itself pulls each
 * hold once (releaseHolds), and what a crash leaves pending the stock sweep settles.
 */
export async function endUnpaidOrder(
  filter: Record<string, unknown>,
  status: (typeof ENDED_UNPAID_STATUSES)[number],
  { from = "unpaid", set = {} }: { from?: "unpaid" | "approval"; set?: Record<string, unknown> } = {},
) {
  const doc = await Order.findOneAndUpdate(
    // An order with money recorded against it is not ended here: the payment is reversed first.
    { ...filter, status: from, paidCents: { $in: [0, null] } },
    {
      $set: { ...set, status, [ENDED_AT[status]]: new Date(), stockPending: "release" },
      $addToSet: { mailPending: status },
    },
    { returnDocument: "after" },
  ).lean();
  if (!doc) return null;
  const view = toOrderView(doc);
  await settleOrderStock(view.id, view.lines, "release");
  // Its event (noted above as pending) is raised by the service that ended it (utils/orders.server.ts).
  return view;
}

/** Gives back (or ships) the order's holds, then notes that nothing is pending. Safe to run again. */
export async function settleOrderStock(
  orderId: string,
  lines: { partId: string; quantity: number }[],
  pending: "release" | "ship",
) {
  await releaseHolds(orderId, lines, { ship: pending === "ship" });
  await Order.updateOne({ _id: orderId, stockPending: pending }, { $unset: { stockPending: "" } });
}

/** The customer's (company's) unpaid order becomes cancelled; null if it is not theirs or not unpaid. */
export function cancelOrder(orderId: string, scope: CustomerScope) {
  const filter = scopeFilter(scope);
  if (!isObjectId(orderId) || !filter) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId, ...filter }, "cancelled");
}

/** The company's orders waiting for an owner's approval, oldest first. */
export async function listAwaitingApproval(companyId: string) {
  if (!isObjectId(companyId)) return [];
  const docs = await Order.find({ companyId, status: "approval" }).sort({ createdAt: 1, _id: 1 }).limit(100).lean();
  return docs.map(toOrderView);
}

type Decision = { by: { id: string; name: string }; note?: string | null };

/**
 * An owner approves an order of their company that waits for approval: a card order becomes unpaid
 * (its hold runs from now), one on account is confirmed on account (due from now). One conditional
 * update, so of two decisions at once only one applies. Null when it is not waiting (any more).
 */
export async function approveOrder(orderId: string, companyId: string, { by, note }: Decision) {
  if (!isObjectId(orderId) || !isObjectId(companyId)) return null;
  const current = await Order.findOne(
    { _id: orderId, companyId, status: "approval" },
    { paymentMethod: 1, termsDays: 1, approval: 1 },
  ).lean();
  if (!current) return null;
  const now = new Date();
  const onAccount = current.paymentMethod === "account";
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, companyId, status: "approval" },
    {
      $set: {
        status: onAccount ? "account" : "unpaid",
        ...(onAccount
          ? { dueAt: new Date(now.getTime() + (current.termsDays ?? 0) * DAY_MS) }
          : { holdUntil: new Date(now.getTime() + stockSettings().holdMs) }),
        approval: {
          limitCents: current.approval?.limitCents,
          outcome: "approved",
          decidedBy: by.id,
          decidedByName: by.name,
          decidedAt: now,
          ...(note ? { note } : {}),
        },
      },
      $addToSet: { mailPending: "placed" },
    },
    { returnDocument: "after" },
  ).lean();
  return doc ? toOrderView(doc) : null;
}

/** An owner declines: the order is cancelled with the note and its stock goes back once (as a cancel). */
export async function declineOrder(orderId: string, companyId: string, { by, note }: Decision) {
  if (!isObjectId(orderId) || !isObjectId(companyId)) return Promise.resolve(null);
  const current = await Order.findOne({ _id: orderId, companyId, status: "approval" }, { approval: 1 }).lean();
  if (!current) return null;
  return endUnpaidOrder({ _id: orderId, companyId }, "cancelled", {
    from: "approval",
    set: {
      approval: {
        limitCents: current.approval?.limitCents,
        outcome: "declined",
        decidedBy: by.id,
        decidedByName: by.name,
        decidedAt: new Date(),
        ...(note ? { note } : {}),
      },
    },
  });
}

/** An admin removes an unpaid order; null if it is not unpaid (any more). */
export function removeOrder(orderId: string) {
  if (!isObjectId(orderId)) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId }, "removed");
}

/**
 * A paid order, or one on account, becomes shipped with how it left (stock stays out); null if it
 * is not waiting to ship (any more). The shipping mail is the service's (utils/orders.server.ts).
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

// --- Money recorded by staff (bank transfer, cheque, cash) ----------------------------------------
// Each change reads the order, checks it, and writes with one update conditional on what it read
// (status, money received): of two staff recording at once one is taken, the other reads again
// and is told what changed. No transaction needed.

export type RecordedPaymentInput = {
  amountCents: number;
  method: (typeof PAYMENT_METHODS)[number];
  receivedOn: Date;
  reference: string;
  recordedBy: string;
};

export type RecordPaymentOutcome =
  | { outcome: "recorded"; order: OrderView; paidInFull: boolean }
  | { outcome: "already_paid" | "over_balance" | "not_payable"; order: OrderView }
  | { outcome: "not_found" };

const sameMoney = (paidCents: number | null | undefined) => (paidCents ? paidCents : { $in: [0, null] });

export async function addRecordedPayment(orderId: string, input: RecordedPaymentInput): Promise<RecordPaymentOutcome> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  for (;;) {
    const current = await Order.findById(orderId).lean();
    if (!current) return { outcome: "not_found" };
    const view = toOrderView(current);
    if (view.paid) return { outcome: "already_paid", order: view };
    if (view.status === "cancelled" || view.status === "removed") return { outcome: "not_payable", order: view };
    if (input.amountCents > view.balanceCents) return { outcome: "over_balance", order: view };
    const paidCents = view.paidCents + input.amountCents;
    const paidInFull = paidCents >= view.totalCents;
    const now = new Date();
    const doc = await Order.findOneAndUpdate(
      { _id: orderId, status: current.status, paidAt: null, paidCents: sameMoney(current.paidCents) },
      {
        $push: { payments: { ...input, recordedAt: now } },
        $set: {
          paidCents,
          ...(paidInFull ? { paidAt: now, status: current.status === "shipped" ? "shipped" : "paid" } : {}),
        },
        ...(paidInFull ? { $addToSet: { mailPending: "paid" } } : {}),
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) return { outcome: "recorded", order: toOrderView(doc), paidInFull };
    // Someone changed the order between the read and the write: read it again and decide again.
  }
}

export type ReversePaymentOutcome =
  | { outcome: "reversed"; order: OrderView; payment: RecordedPaymentView; unpaid: boolean }
  | { outcome: "already_reversed" | "no_such_payment"; order: OrderView }
  | { outcome: "not_found" };

/** Marks a recorded payment reversed (kept, with who and why); an order it had paid is unpaid again. */
export async function reverseRecordedPayment(
  orderId: string,
  paymentId: string,
  { reason, reversedBy }: { reason: string; reversedBy: string },
): Promise<ReversePaymentOutcome> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  for (;;) {
    const current = await Order.findById(orderId).lean();
    if (!current) return { outcome: "not_found" };
    const view = toOrderView(current);
    const index = view.payments.findIndex((entry) => entry.id === paymentId);
    const payment = view.payments[index];
    if (!payment || !isObjectId(paymentId)) return { outcome: "no_such_payment", order: view };
    if (payment.reversedAt) return { outcome: "already_reversed", order: view };
    const paidCents = Math.max(0, view.paidCents - payment.amountCents);
    // Paid by recorded payments (not by card), and no longer covered: unpaid again, as it was before.
    const unpaid = Boolean(current.paidAt) && !current.transactionId && paidCents < view.totalCents;
    const before =
      current.status === "paid" ? (current.paymentMethod === "account" ? "account" : "unpaid") : current.status;
    const doc = await Order.findOneAndUpdate(
      {
        _id: orderId,
        status: current.status,
        paidCents: sameMoney(current.paidCents),
        // By its place in the list (entries are never removed, so the place is stable).
        [`payments.${index}._id`]: new mongoose.Types.ObjectId(paymentId),
        [`payments.${index}.reversedAt`]: null,
      },
      {
        $set: {
          paidCents,
          [`payments.${index}.reversedAt`]: new Date(),
          [`payments.${index}.reversedBy`]: reversedBy,
          [`payments.${index}.reversalReason`]: reason,
          ...(unpaid ? { status: before } : {}),
        },
        ...(unpaid ? { $unset: { paidAt: 1 } } : {}),
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) {
      const order = toOrderView(doc);
      return { outcome: "reversed", order, payment: order.payments.find((entry) => entry.id === paymentId)!, unpaid };
    }
  }
}

const OPEN_ON_ACCOUNT = { $in: ["account", "shipped"] };

/** What a customer (company) owes on account: invoices on account not yet paid, and the sum still open. */
export async function openAccountOrders(scope: CustomerScope) {
  const owner = scopeFilter(scope);
  if (!owner) return { orders: [] as OrderView[], balanceCents: 0 };
  const filter: Record<string, unknown> = { ...owner, dueAt: { $exists: true }, paidAt: null, status: OPEN_ON_ACCOUNT };
  const docs = await Order.find(filter).sort({ dueAt: 1, _id: 1 }).lean();
  const orders = docs.map(toOrderView);
  return { orders, balanceCents: orders.reduce((sum, order) => sum + order.balanceCents, 0) };
}

/**
 * What the customer (company) has committed on account: the open balance, and orders on account
 * being placed or awaiting an owner's approval (they become invoices once approved). The credit
 * limit bounds this, so buyers waiting for approval at once cannot together pass it.
 */
export async function accountCommitmentOf(scope: CustomerScope, { except }: { except?: string } = {}) {
  const owner = scopeFilter(scope);
  if (!owner) return 0;
  const [open, waiting] = await Promise.all([
    openAccountOrders(scope),
    Order.find(
      {
        ...owner,
        paymentMethod: "account",
        status: { $in: ["reserving", "approval"] },
        ...(except ? { _id: { $ne: except } } : {}),
      },
      { totalCents: 1 },
    ).lean(),
  ]);
  const openCents = open.orders.filter((order) => order.id !== except).reduce((sum, o) => sum + o.balanceCents, 0);
  return openCents + waiting.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0);
}

/** Invoices on account past their due date and still unpaid, oldest due first (Shop Today). */
export async function listOverdue(limit = 10, now = new Date()) {
  const filter: Record<string, unknown> = { dueAt: { $lt: now }, paidAt: null, status: OPEN_ON_ACCOUNT };
  const [docs, total] = await Promise.all([
    Order.find(filter).sort({ dueAt: 1, _id: 1 }).limit(limit).lean(),
    Order.countDocuments(filter),
  ]);
  return { orders: docs.map(toOrderView), total };
}

// --- Mail of the order's events ---------------------------------------------------------------------

/**
 * The event's mail is written to the outbox (or not due, e.g. the customer turned order updates
 * off): nothing is left for the sweep. Never throws: if this fails, the sweep finds the event
 * pending and finds its mail already in the outbox.
 */
export async function mailWritten(orderId: string, event: OrderMailEvent) {
  try {
    await Order.updateOne({ _id: orderId }, { $pull: { mailPending: event } });
  } catch (error) {
    console.error(`Could not mark the ${event} mail of order ${orderId} as written:`, error);
  }
}

export type PendingOrderMail = { order: OrderView; events: OrderMailEvent[]; lowStockPartIds: string[] };

/** Orders with an event whose mail is still not written `graceMs` after their last change, oldest first. */
export async function listPendingOrderMail({ graceMs, limit }: { graceMs: number; limit: number }) {
  const docs = await Order.find({
    mailPending: { $in: ORDER_MAIL_EVENTS },
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc): PendingOrderMail => ({
    order: toOrderView(doc),
    events: (doc.mailPending ?? []).filter((event): event is OrderMailEvent =>
      (ORDER_MAIL_EVENTS as readonly string[]).includes(event),
    ),
    lowStockPartIds: (doc.lowStockPartIds ?? []).map((id) => id.toString()),
  }));
}

export type OrderPage = { orders: OrderView[]; page: number; pageCount: number; total: number };

async function pageOf(filter: Record<string, unknown>, page: number, perPage: number): Promise<OrderPage> {
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
const PLACED = { $nin: ["reserving", "failed"] };

/** One customer's (company's) orders, newest first. */
export function listOrdersOfUser(scope: CustomerScope, { page = 1, perPage = 20 } = {}) {
  return pageOf({ ...(scopeFilter(scope) ?? { _id: null }), status: PLACED }, page, perPage);
}

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
      return { status: "paid" };
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

/** True when the user has an order that was paid (paid or already shipped). */
export async function hasPaidOrder(userId: string) {
  if (!isObjectId(userId)) return false;
  return Boolean(await Order.exists({ userId, paidAt: { $ne: null } }));
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
