/**
 * An order as the screens, mail, documents and the API read it (plain data, string ids, words from
 * domain/order-states.ts), built from its stored document.
 */
import { currencyOf, type Currency } from "~/domain/money";
import type { Types } from "mongoose";
import type { PostalAddress } from "~/domain/address";
import type { CreditNoteView } from "~/domain/credit-notes";
import { orderSummary } from "~/domain/order-lines";
import type { OrderPaymentMethod } from "~/domain/order-payments";
import { formatOrderNumber } from "~/domain/order-number";
import { formatQuoteNumber } from "~/domain/quotes";
import { orderState, type OrderState } from "~/domain/order-states";
import type { PriceSource } from "~/domain/pricing";
import type { TaxKind, TaxLine } from "~/domain/tax";
import type { ReturnView } from "~/domain/returns";
import { postalOf } from "~/models/postal-address.server";
import type { OrderStatus, OrderDoc } from "./schema.server";
import { toCreditNoteViews } from "./subdocs/credit-notes.server";
import { toCreditUseView, type CreditUseDoc, type CreditUseView } from "./subdocs/credit-uses.server";
import { iso } from "./subdocs/iso.server";
import { toPaymentView, type PaymentDoc, type RecordedPaymentView } from "./subdocs/payments.server";
import { toReturnViews } from "./subdocs/returns.server";
import { toShipmentViews, type PartShipmentView, type ShipmentView } from "./subdocs/shipments.server";

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

export type OrderView = {
  id: string;
  /** The order's number as people read it: "SO-100042". */
  number: string;
  lines: OrderLineView[];
  /** The first line's part name, with "+ N more" when there are more lines. */
  summary: string;
  totalQuantity: number;
  /** The currency of the sale: every amount below is in its minor unit. */
  currency: Currency;
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
    decidedAt: string | null;
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
  /** Account credit taken off this order (credit notes of the account), oldest first, and its sum. */
  creditUses: CreditUseView[];
  creditAppliedCents: number;
  /** What is left to pay after the credit taken off (a card payment brings exactly this). */
  toPayCents: number;
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
  /** Why staff cancelled or removed it; null when the customer cancelled it (or before reasons were kept). */
  cancelReason: string | null;
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
  /** The quote accepted to place it ("Q-100012-2" is its version), or null. */
  quote: { id: string; label: string } | null;
};

type LineDoc = Partial<Omit<OrderLineView, "partId" | "backorderExpectedOn">> & {
  partId?: Types.ObjectId | string | null;
  backorderExpectedOn?: Date | null;
};

/** An order written without a number (a bulk insert of test data): the end of its id. */
const numberOf = (doc: { _id: Types.ObjectId; number?: number | null }) =>
  doc.number ? formatOrderNumber(doc.number) : doc._id.toString().slice(-8).toUpperCase();

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
  // An unpaid order that ended gave its credit back (the notes it came from hold it again).
  const endedUnpaid = (status === "cancelled" || status === "removed" || status === "expired") && !doc.paidAt;
  const creditUses = endedUnpaid ? [] : ((doc.creditUses ?? []) as CreditUseDoc[]).map(toCreditUseView);
  const creditAppliedCents = creditUses.reduce((sum, use) => sum + use.amountCents, 0);
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
    currency: currencyOf(doc.currency),
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
          decidedAt: iso(doc.approval?.decidedAt),
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
    // Nothing is due before an owner approves (an order placed before this rule may carry a date).
    dueAt: status === "approval" ? null : iso(doc.dueAt),
    paidCents: doc.paidCents ?? 0,
    balanceCents:
      doc.paidAt || status === "cancelled" || status === "removed" || status === "expired"
        ? 0
        : Math.max(0, (doc.totalCents ?? 0) - (doc.paidCents ?? 0) - (doc.creditedCents ?? 0) - creditAppliedCents),
    payments: ((doc.payments ?? []) as PaymentDoc[]).map(toPaymentView),
    shipment: doc.shipment?.carrier
      ? { carrier: doc.shipment.carrier, trackingNumber: doc.shipment.trackingNumber || null }
      : null,
    shipments,
    returns,
    creditNotes,
    creditedCents: doc.creditedCents ?? 0,
    creditUses,
    creditAppliedCents,
    toPayCents: Math.max(0, (doc.totalCents ?? 0) - creditAppliedCents),
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
    cancelReason: doc.cancelReason || null,
    removedAt: iso(doc.removedAt),
    expiredAt: iso(doc.expiredAt),
    holdUntil: status === "unpaid" || status === "approval" ? iso(doc.holdUntil) : null,
    invoiceNumber: doc.invoiceNumber ?? null,
    invoicedAt: iso(doc.invoicedAt),
    reorderedFrom: doc.reorderedFrom ? doc.reorderedFrom.toString() : null,
    reorderedFromNumber: doc.reorderedFromNumber ? formatOrderNumber(doc.reorderedFromNumber) : null,
    quote:
      doc.quoteId && doc.quoteNumber
        ? { id: doc.quoteId.toString(), label: formatQuoteNumber(doc.quoteNumber, doc.quoteVersion) }
        : null,
  };
}
