/**
 * An order as the screens, mail, documents and the API read it (plain data, string ids, words from
 * domain/order-states.ts), built from its stored document.
 */
import type { PostalAddress } from "~/domain/address";
import { postalOf } from "~/models/postal-address.server";
import type { Types } from "mongoose";
import { orderSummary } from "~/domain/order-lines";
import type { OrderPaymentMethod } from "~/domain/order-payments";
import { formatOrderNumber } from "~/domain/order-number";
import { orderState, PAYMENT_METHODS, type OrderState } from "~/domain/order-states";
import type { PriceSource } from "~/domain/pricing";
import type { TaxKind, TaxLine } from "~/domain/tax";
import {
  formatRmaNumber,
  type ReturnCondition,
  type ReturnReason,
  type ReturnStatus,
  type ReturnView,
} from "~/domain/returns";
import {
  formatCreditNoteNumber,
  type CreditNoteView,
  type CreditReason,
  type RefundStatus,
} from "~/domain/credit-notes";
import type { OrderStatus, OrderDoc } from "./schema.server";

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
  /** Units still waiting for stock, the day they were expected when ordered, and units shipped. */
  backorderedQuantity: number;
  backorderExpectedOn: string | null;
  shippedQuantity: number;
  /** Units in returns asked for, approved or received. */
  returnedQuantity: number;
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

/** One parcel: its lines and units, how it left and when (numbered 1, 2, … in the order they left). */
export type PartShipmentView = ShipmentView & {
  id: string;
  number: number;
  shippedAt: string;
  note: string | null;
  lines: { lineIndex: number; partNumber: string; productName: string; quantity: number }[];
};

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
  /** The delivery address field by field; null on orders placed before addresses had fields. */
  deliveryAddress: PostalAddress | null;
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
  paymentMethod: OrderPaymentMethod;
  termsDays: number | null;
  dueAt: string | null;
  paidCents: number;
  /** What is still to pay (0 once paid, or for an order that ended). */
  balanceCents: number;
  payments: RecordedPaymentView[];
  shipment: ShipmentView | null;
  /** Every parcel the order left in (an order shipped whole before parcels were kept: one). */
  shipments: PartShipmentView[];
  /** The returns asked for, oldest first. */
  returns: ReturnView[];
  /** Credit notes issued, oldest first; their sum, and what of it was refunded to the card. */
  creditNotes: CreditNoteView[];
  creditedCents: number;
  refundedCents: number;
  /** Units of all lines still waiting on backorder, and units not shipped yet. */
  backorderedUnits: number;
  unshippedUnits: number;
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

type LineDoc = Partial<Omit<OrderLineView, "partId" | "backorderExpectedOn">> & {
  partId?: Types.ObjectId | string | null;
  backorderExpectedOn?: Date | null;
};

type ShipmentDoc = {
  _id: Types.ObjectId;
  lines: { lineIndex: number; quantity: number }[];
  carrier: string;
  trackingNumber?: string | null;
  shippedAt: Date;
  note?: string | null;
};

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
    backorderedQuantity: line.backorderedQuantity ?? 0,
    backorderExpectedOn: line.backorderExpectedOn ? line.backorderExpectedOn.toISOString().slice(0, 10) : null,
    // An order shipped whole before parcels were counted shipped every unit.
    shippedQuantity: status === "shipped" ? (line.quantity ?? 0) : (line.shippedQuantity ?? 0),
    returnedQuantity: line.returnedQuantity ?? 0,
  }));
  const shipments = toShipmentViews(doc, lines);
  const returns = toReturnViews(doc, lines);
  const creditNotes = toCreditNoteViews(doc, lines, returns);
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
    deliveryAddress: postalOf(doc.deliveryAddress),
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
      partShipped: shipments.length > 0,
    }),
    paymentMethod:
      doc.paymentMethod === "account" || doc.paymentMethod === "bank-transfer" ? doc.paymentMethod : "card",
    termsDays: doc.termsDays ?? null,
    dueAt: iso(doc.dueAt),
    paidCents: doc.paidCents ?? 0,
    balanceCents:
      doc.paidAt || status === "cancelled" || status === "removed" || status === "expired"
        ? 0
        : Math.max(0, (doc.totalCents ?? 0) - (doc.paidCents ?? 0) - (doc.creditedCents ?? 0)),
    payments: ((doc.payments ?? []) as PaymentDoc[]).map(toPaymentView),
    shipment: doc.shipment?.carrier
      ? { carrier: doc.shipment.carrier, trackingNumber: doc.shipment.trackingNumber || null }
      : null,
    shipments,
    returns,
    creditNotes,
    creditedCents: doc.creditedCents ?? 0,
    refundedCents: creditNotes
      .filter((note) => note.refund?.status === "succeeded")
      .reduce((sum, note) => sum + note.refundCents, 0),
    backorderedUnits: lines.reduce((sum, line) => sum + line.backorderedQuantity, 0),
    unshippedUnits: lines.reduce((sum, line) => sum + line.quantity - line.shippedQuantity, 0),
    paid: Boolean(doc.paidAt) || status === "paid",
    shipped: status === "shipped",
    transactionId: doc.transactionId ?? null,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
    paidAt: iso(doc.paidAt),
    shippedAt: iso(doc.shippedAt),
    cancelledAt: iso(doc.cancelledAt),
    removedAt: iso(doc.removedAt),
    expiredAt: iso(doc.expiredAt),
    holdUntil: status === "unpaid" || status === "approval" ? iso(doc.holdUntil) : null,
    invoiceNumber: doc.invoiceNumber ?? null,
    invoicedAt: iso(doc.invoicedAt),
    reorderedFrom: doc.reorderedFrom ? doc.reorderedFrom.toString() : null,
    reorderedFromNumber: doc.reorderedFromNumber ? formatOrderNumber(doc.reorderedFromNumber) : null,
  };
}

function toShipmentViews(doc: Partial<OrderDoc>, lines: OrderLineView[]): PartShipmentView[] {
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

type ReturnDoc = {
  _id: Types.ObjectId;
  status: string;
  number?: number | null;
  reason: string;
  note?: string | null;
  lines: { lineIndex: number; quantity: number; receivedQuantity?: number | null }[];
  requestedAt: Date;
  requestedBy: Types.ObjectId;
  requestedByName?: string | null;
  decidedAt?: Date | null;
  decidedBy?: string | null;
  declineReason?: string | null;
  receivedAt?: Date | null;
  receivedBy?: string | null;
  condition?: string | null;
};

function toReturnViews(doc: Partial<OrderDoc>, lines: OrderLineView[]): ReturnView[] {
  return ((doc.returns ?? []) as unknown as ReturnDoc[]).map((entry) => ({
    id: entry._id.toString(),
    number: entry.number ? formatRmaNumber(entry.number) : null,
    status: entry.status as ReturnStatus,
    reason: entry.reason as ReturnReason,
    note: entry.note ?? "",
    lines: entry.lines.map((line) => ({
      lineIndex: line.lineIndex,
      partNumber: lines[line.lineIndex]?.partNumber ?? "",
      productName: lines[line.lineIndex]?.productName ?? "",
      quantity: line.quantity,
      receivedQuantity: line.receivedQuantity ?? null,
    })),
    requestedAt: entry.requestedAt.toISOString(),
    requestedBy: entry.requestedBy.toString(),
    requestedByName: entry.requestedByName ?? "",
    decidedAt: iso(entry.decidedAt),
    decidedBy: entry.decidedBy ?? null,
    declineReason: entry.declineReason ?? null,
    receivedAt: iso(entry.receivedAt),
    receivedBy: entry.receivedBy ?? null,
    condition: (entry.condition as ReturnCondition | undefined) ?? null,
  }));
}

type CreditNoteDoc = {
  _id: Types.ObjectId;
  number?: number | null;
  issuedAt: Date;
  issuedBy?: string | null;
  reason: string;
  returnId?: Types.ObjectId | null;
  lines: { lineIndex: number; quantity: number; netCents: number }[];
  netCents: number;
  taxLines?: Partial<TaxLine>[] | null;
  taxCents: number;
  totalCents: number;
  refundCents: number;
  appliedCents: number;
  accountCreditCents: number;
  refund?: { id?: string | null; status: string; refundedAt?: Date | null } | null;
  payout?: { paidAt: Date; amountCents?: number | null; reference: string; by?: string | null } | null;
};

function toCreditNoteViews(doc: Partial<OrderDoc>, lines: OrderLineView[], returns: ReturnView[]): CreditNoteView[] {
  return ((doc.creditNotes ?? []) as unknown as CreditNoteDoc[]).map((note) => {
    const returnId = note.returnId?.toString() ?? null;
    return {
      id: note._id.toString(),
      // A note being numbered (a moment, or until the sweep after a crash) reads "CN being numbered".
      number: note.number ? formatCreditNoteNumber(note.number) : "CN being numbered",
      issuedAt: note.issuedAt.toISOString(),
      issuedBy: note.issuedBy ?? null,
      reason: note.reason as CreditReason,
      returnId,
      returnNumber: returns.find((entry) => entry.id === returnId)?.number ?? null,
      lines: note.lines.map((line) => ({
        lineIndex: line.lineIndex,
        partNumber: lines[line.lineIndex]?.partNumber ?? "",
        productName: lines[line.lineIndex]?.productName ?? "",
        unitPriceCents: lines[line.lineIndex]?.unitPriceCents ?? 0,
        quantity: line.quantity,
        netCents: line.netCents,
      })),
      netCents: note.netCents,
      taxLines: (note.taxLines ?? []).map((line) => ({
        kind: (line.kind ?? "unknown") as TaxKind,
        label: line.label ?? "",
        rate: line.rate ?? 0,
        baseCents: line.baseCents ?? 0,
        amountCents: line.amountCents ?? 0,
        note: line.note ?? null,
      })),
      taxCents: note.taxCents,
      totalCents: note.totalCents,
      refundCents: note.refundCents,
      appliedCents: note.appliedCents,
      accountCreditCents: note.accountCreditCents,
      refund: note.refund
        ? {
            id: note.refund.id ?? null,
            status: note.refund.status as RefundStatus,
            refundedAt: iso(note.refund.refundedAt),
          }
        : null,
      payout: note.payout
        ? {
            paidAt: note.payout.paidAt.toISOString(),
            amountCents: note.payout.amountCents ?? note.accountCreditCents,
            reference: note.payout.reference,
            by: note.payout.by ?? null,
          }
        : null,
    };
  });
}
