/**
 * What an order's printed documents are (invoice, pro-forma, packing slip, credit note): their kinds,
 * titles, addresses and file names, and the data the renderer (components/order-document.tsx), the
 * e-invoices (orders/e-invoice.server.ts) and the document routes share. Plain and client-safe.
 */
import type { OrderPaymentMethod, ReceivedPayment } from "~/domain/order-payments";
import type { PostalAddress } from "~/domain/address";
import type { PeppolId } from "~/domain/peppol";
import type { Currency } from "~/domain/money";
import type { VatInSellerCurrency } from "~/domain/exchange-rates";

export const DOCUMENT_KINDS = ["invoice", "pro-forma", "packing-slip", "credit-note"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_TITLES: Record<DocumentKind, string> = {
  invoice: "Invoice",
  "pro-forma": "Pro-forma invoice",
  "packing-slip": "Packing slip",
  "credit-note": "Credit note",
};

/** What an invoice, a pro-forma or a packing slip shows (plain data, the same in the page and in the PDF). */
export type OrderDocumentData = {
  kind: DocumentKind;
  /** "INV-000123" on an invoice, and on a credit note the invoice it corrects; null on the others. */
  invoiceNumber: string | null;
  /** A credit note's own number and date, why it was issued, and where its money went (its lines are the order's). */
  creditNote?: {
    number: string;
    issuedAt: string;
    invoiceIssuedAt: string;
    reason: string;
    settlement: string;
  } | null;
  /** EU VAT charged also in euros (BT-6, BT-111) at the ECB's rate, or that the rate is missing; none without EU VAT. */
  vatInSellerCurrency?: VatInSellerCurrency | null;
  order: {
    id: string;
    /** The order's number (SO-100042): its name on the document and the payment reference. */
    number: string;
    paymentMethod: OrderPaymentMethod;
    termsDays: number | null;
    /** The terms it was sold on ("Net 30 days", "Card, at the time of order", "Bank transfer before dispatch"). */
    terms: string;
    /** How it was paid, in one line ("Paid by bank transfer", "Part-paid by cheque, $600.00 still due"). */
    paymentLine: string;
    /** Each payment received and not reversed: the card payment and those staff recorded. */
    received: ReceivedPayment[];
    dueAt: string | null;
    paidCents: number;
    balanceCents: number;
    shipment: { carrier: string; trackingNumber: string | null } | null;
    createdAt: string;
    paidAt: string | null;
    shippedAt: string | null;
    invoicedAt: string | null;
    poNumber: string | null;
    phone: string;
    address: string;
    /** The delivery address field by field (null on orders placed before addresses had fields). */
    deliveryAddress: PostalAddress | null;
    /** The currency of the sale (ISO 4217): every amount of the document is in its minor unit. */
    currency?: Currency;
    totalCents: number;
    netCents: number;
    /** Frozen when placed; none on orders placed before tax lines were kept. */
    taxLines: { kind: string; label: string; rate: number; amountCents: number; note: string | null }[];
    buyerVatNumber: string | null;
    /** Paid or confirmed, and invoiced once it ships (an intra-community supply): its pro-forma says so. */
    invoiceAtShipping?: boolean;
    /**
     * A packing slip's parcel (its number and staff's note); none on the whole order's slip, which
     * lists what is left to ship (every unit once the order has shipped whole).
     */
    parcel?: { number: number; note: string | null } | null;
    lines: {
      partNumber: string;
      productName: string;
      quantity: number;
      unitPriceCents: number;
      lineTotalCents: number;
      /** On the whole order's packing slip: how many of the units left wait on backorder. */
      backorderedQuantity?: number;
    }[];
  };
  customer: {
    name: string;
    email: string;
    companyName: string;
    taxId: string;
    country: string;
    billingAddress: string;
    /** The billing address field by field, when the company stores it with fields. */
    billing: PostalAddress | null;
    /** The company's Peppol participant id: its UBL is addressed to it and claims Peppol BIS Billing 3.0. */
    peppol?: PeppolId | null;
    /** A German public buyer's Leitweg-ID: its UBL is XRechnung 3.0, the Leitweg-ID its buyer reference (BT-10). */
    leitwegId?: string | null;
  };
};

/** The document's page, or its PDF. */
export function documentPath(orderId: string, kind: DocumentKind, pdf = false) {
  return `/documents/${orderId}/${kind}${pdf ? "/pdf" : ""}`;
}

/** The invoice's UBL 2.1 (EN 16931) twin of its PDF. */
export function ublPath(orderId: string) {
  return `/documents/${orderId}/invoice/ubl`;
}

/** A credit note's UBL 2.1 CreditNote. */
export function creditNoteUblPath(orderId: string, number: string) {
  return `/documents/${orderId}/credit-note/ubl?number=${encodeURIComponent(number)}`;
}

/** The document's file name, for the PDF download. */
export function documentFileName(data: Pick<OrderDocumentData, "kind" | "invoiceNumber" | "order" | "creditNote">) {
  if (data.kind === "credit-note" && data.creditNote) return `credit-note-${data.creditNote.number}.pdf`;
  if (data.kind === "invoice" && data.invoiceNumber) return `invoice-${data.invoiceNumber}.pdf`;
  const parcel = data.kind === "packing-slip" && data.order.parcel ? `-parcel-${data.order.parcel.number}` : "";
  return `${data.kind}-${data.order.number}${parcel}.pdf`;
}
