/**
 * Invoices, pro-formas and packing slips: who may see which, and the document's data and HTML.
 * Admins see any order's; a customer sees their own order's invoice or pro-forma and its parcels'
 * packing slips; anyone else gets the same 404 as for an order that does not exist.
 */
import { redirect } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
// The document renderer: the one service that renders a component (the invoice, slip and notes as HTML
// and PDF), which the lint allows it by name.
import { DOCUMENT_CSS, OrderDocument } from "~/components/order-document";
import {
  documentFileName,
  DOCUMENT_KINDS,
  DOCUMENT_TITLES,
  documentPath,
  type DocumentKind,
  type OrderDocumentData,
} from "~/domain/order-document";
import { assignInvoiceNumber, formatInvoiceNumber } from "~/orders/model/invoice.server";
import { getOrderById, getOwnOrder } from "~/orders/model/reads.server";
import { type OrderView } from "~/orders/model/view.server";
import { invoicedOnShipping } from "~/domain/tax";
import { getCompany } from "~/models/company.server";
import { paymentLine, receivedPayments, termsOf } from "~/domain/order-payments";
import { getUserById, type UserView } from "~/models/user.server";
import { requireUser } from "~/services/guards.server";
import { mayHandleOrder } from "~/services/companies.server";
import { htmlToPdf, type PaperSize } from "~/services/pdf.server";
import { facturXOf, ublOf, type EInvoiceSource } from "~/orders/e-invoice.server";
import { settlementWords, type CreditNoteView } from "~/domain/credit-notes";
import { missingRateMessage } from "~/domain/exchange-rates";
import { vatInSellerCurrencyFor } from "~/orders/e-invoice-currency.server";
import { packingSlipOf } from "~/orders/packing-slip.server";

export const DOCUMENT_NOT_FOUND = "We could not find that document.";

const notFound = () => new Response(DOCUMENT_NOT_FOUND, { status: 404 });

/** The documents an order has, for the links on its page (the whole order's packing slip is for admins). */
export function documentsOf(
  order: Pick<OrderView, "status" | "invoiceNumber" | "taxLines">,
  role: "admin" | "customer",
): DocumentKind[] {
  if (order.status === "unpaid") return ["pro-forma"];
  // An intra-community supply paid or confirmed has its pro-forma until it ships and is invoiced.
  if (awaitsInvoice(order)) return role === "admin" ? ["pro-forma", "packing-slip"] : ["pro-forma"];
  // A paid order cancelled keeps its invoice: its credit note corrects it.
  if (order.status === "cancelled" && order.invoiceNumber) return ["invoice"];
  // Invoiced: paid, or confirmed on account (an invoice with its due date), shipped or not.
  if (order.status === "paid" || order.status === "shipped" || order.status === "account")
    return role === "admin" ? ["invoice", "packing-slip"] : ["invoice"];
  return [];
}

const awaitsInvoice = (order: Pick<OrderView, "status" | "invoiceNumber" | "taxLines">) =>
  (order.status === "paid" || order.status === "account") && !order.invoiceNumber && invoicedOnShipping(order.taxLines);

/**
 * The document `kind` of order `orderId` for the signed-in user, or a thrown 404 (or a redirect to
 * the document the order has: the invoice of an unpaid order is its pro-forma, and the other way).
 */
export async function loadOrderDocument(
  request: Request,
  orderId: string,
  kindParam: string | undefined,
  { pdf = false } = {},
): Promise<OrderDocumentData> {
  const user = await requireUser(request);
  // A packing slip of one parcel: ?parcel=2 (its lines and units, its carrier and day); a credit note: ?number=CN-000001.
  const search = new URL(request.url).searchParams;
  const parcel = Number(search.get("parcel") ?? "") || null;
  const creditNote = search.get("number");
  const found = await orderDocumentFor(user, orderId, kindParam, { parcel, creditNote });
  if (found.ok) {
    if (pdf) refuseWithoutRate(found.data);
    return found.data;
  }
  if (found.instead) {
    const url = new URL(request.url);
    throw redirect(`${documentPath(orderId, found.instead, pdf)}${url.search}`);
  }
  throw notFound();
}

export type DocumentLookup =
  { ok: true; data: OrderDocumentData } | { ok: false; instead: Exclude<DocumentKind, "packing-slip"> | null };

/**
 * The document `kind` of order `orderId` as `user` may see it (the screens and the API): not found,
 * or the document the order has instead (the invoice of an unpaid order is its pro-forma).
 */
export async function orderDocumentFor(
  user: Pick<UserView, "id" | "role" | "companyId" | "companyRole">,
  orderId: string,
  kindParam: string | undefined,
  { parcel = null, creditNote = null }: { parcel?: number | null; creditNote?: string | null } = {},
): Promise<DocumentLookup> {
  const asked = DOCUMENT_KINDS.find((each) => each === kindParam);
  if (!asked) return { ok: false, instead: null };
  const order = user.role === "admin" ? await getOrderById(orderId) : await getOwnOrder(orderId, user);
  // A buyer reads the documents of their own orders; owners and accounts every order's.
  if (!order || !mayHandleOrder(user, order)) return { ok: false, instead: null };
  // A credit note is read by whoever may read the invoice it corrects, and made from it.
  const note = asked === "credit-note" ? order.creditNotes.find((each) => each.number === creditNote) : null;
  if (asked === "credit-note" && (!note || !order.invoiceNumber)) return { ok: false, instead: null };
  const kind = asked === "credit-note" ? "invoice" : asked;
  const available = documentsOf(order, user.role);
  const slip = kind === "packing-slip" ? packingSlipOf(order, parcel) : null;
  // A parcel's slip is what is in the box, no prices: the order's customer reads it too.
  if (!available.includes(kind) && !slip?.parcel) {
    const instead =
      kind === "invoice" || kind === "pro-forma" ? available.find((each) => each !== "packing-slip") : null;
    return { ok: false, instead: instead && instead !== kind ? instead : null };
  }
  let invoiceNumber: string | null = null;
  let invoicedAt = order.invoicedAt;
  if (kind === "invoice") {
    // A paid order numbered at payment; one that missed it (a crash between the writes) now.
    const number = order.invoiceNumber ?? (await assignInvoiceNumber(order.id, { late: true }));
    if (!number) return { ok: false, instead: null };
    invoiceNumber = formatInvoiceNumber(number);
    // Numbered just now (a crash between the writes): its date as stored with the number.
    invoicedAt ??= (await getOrderById(order.id))?.invoicedAt ?? null;
  }
  if (kind === "packing-slip" && !slip) return { ok: false, instead: null };
  // The customer is the order's company (its placer may have left it since).
  const profile = order.companyId ? await getCompany(order.companyId) : await getUserById(order.userId);
  const data: OrderDocumentData = {
    kind,
    invoiceNumber,
    order: {
      id: order.id,
      number: order.number,
      paymentMethod: order.paymentMethod,
      termsDays: order.termsDays,
      terms: termsOf(order),
      paymentLine: paymentLine(order),
      received: receivedPayments(order),
      dueAt: order.dueAt,
      paidCents: order.paidCents,
      balanceCents: order.balanceCents,
      shipment: slip ? slip.shipment : order.shipment,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      shippedAt: slip ? slip.shippedAt : order.shippedAt,
      invoicedAt,
      poNumber: order.poNumber,
      phone: order.phone,
      address: order.address,
      deliveryAddress: order.deliveryAddress,
      currency: order.currency,
      totalCents: order.totalCents,
      netCents: order.netCents,
      taxLines: order.taxLines,
      invoiceAtShipping: awaitsInvoice(order),
      buyerVatNumber: order.buyerVatNumber,
      parcel: slip?.parcel ?? null,
      lines: slip
        ? slip.lines
        : order.lines.map(({ partNumber, productName, quantity, unitPriceCents, lineTotalCents }) => ({
            partNumber,
            productName,
            quantity,
            unitPriceCents,
            lineTotalCents,
          })),
    },
    customer: {
      name: order.userName,
      email: order.userEmail,
      companyName: profile?.company.companyName ?? "",
      taxId: profile?.company.taxId ?? "",
      country: profile?.company.country ?? "",
      billingAddress: profile?.company.billingAddress ?? "",
      billing: profile?.company.billing ?? null,
      peppol: profile?.company.peppol ?? null,
      leitwegId: profile?.company.leitwegId ?? null,
    },
  };
  const document = note ? creditNoteData(data, order, note) : data;
  // EU VAT also in euros, at the ECB's rate of the tax point (BT-6, BT-111).
  return { ok: true, data: { ...document, vatInSellerCurrency: await vatInSellerCurrencyFor(document) } };
}

/** A credit note as a document: the invoice's parties and references, the credited lines and amounts. */
function creditNoteData(invoice: OrderDocumentData, order: OrderView, note: CreditNoteView): OrderDocumentData {
  return {
    ...invoice,
    kind: "credit-note",
    creditNote: {
      number: note.number,
      issuedAt: note.issuedAt,
      invoiceIssuedAt: invoice.order.invoicedAt ?? order.paidAt ?? order.createdAt,
      reason:
        note.reason === "return"
          ? `Parts returned${note.returnNumber ? ` (${note.returnNumber})` : ""} and received`
          : "Order cancelled before it shipped",
      settlement: settlementWords({ ...note, refundStatus: note.refund?.status ?? null }, order.currency),
    },
    order: {
      ...invoice.order,
      totalCents: note.totalCents,
      netCents: note.netCents,
      paidCents: 0,
      balanceCents: 0,
      received: [],
      taxLines: note.taxLines,
      lines: note.lines.map((line) => ({
        partNumber: line.partNumber,
        productName: line.productName,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        lineTotalCents: line.netCents,
      })),
    },
  };
}

export function documentTitle(data: OrderDocumentData) {
  if (data.kind === "credit-note" && data.creditNote) return `Credit note ${data.creditNote.number}`;
  if (data.order.parcel)
    return `${DOCUMENT_TITLES[data.kind]} for order ${data.order.number}, parcel ${data.order.parcel.number}`;
  return data.invoiceNumber
    ? `${DOCUMENT_TITLES[data.kind]} ${data.invoiceNumber}`
    : `${DOCUMENT_TITLES[data.kind]} for order ${data.order.number}`;
}

/** The document as a complete HTML page of its own (what the PDF prints): the same markup and CSS as the page. */
export function renderDocumentHtml(data: OrderDocumentData) {
  const markup = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{documentTitle(data)}</title>
        <style dangerouslySetInnerHTML={{ __html: DOCUMENT_CSS }} />
      </head>
      <body style={{ margin: 0, background: "#fff" }}>
        <main>
          <OrderDocument data={data} />
        </main>
      </body>
    </html>,
  );
  return `<!DOCTYPE html>${markup}`;
}

/**
 * The document's PDF. An invoice's is a Factur-X PDF/A-3: the printed pages with the invoice's
 * EN 16931 XML attached as factur-x.xml (docs/e-invoices.md). PdfBusyError as htmlToPdf.
 */
export async function printDocument(
  data: OrderDocumentData,
  paper: PaperSize,
  { requester, company }: { requester?: string; company?: string } = {},
) {
  const pdf = await htmlToPdf(renderDocumentHtml(data), paper, { requester, company });
  if (data.kind === "credit-note")
    return Buffer.from(await facturXOf(eInvoiceSource(data), pdf, documentFileName(data)));
  if (data.kind !== "invoice") return pdf;
  return Buffer.from(await facturXOf({ data }, pdf, documentFileName(data)));
}

/** What the e-invoice of a document is made from: an invoice's data, or a credit note's with its identity. */
export function eInvoiceSource(data: OrderDocumentData): EInvoiceSource {
  if (data.kind !== "credit-note" || !data.creditNote) return { data };
  return {
    data,
    creditNote: {
      number: data.creditNote.number,
      issuedAt: data.creditNote.issuedAt,
      invoiceNumber: data.invoiceNumber ?? "",
      invoiceIssuedAt: data.creditNote.invoiceIssuedAt,
      reason: `${data.creditNote.reason}.`,
    },
  };
}

/** A document with EU VAT and no exchange rate yet has no PDF and no e-invoice: a 409 that says what staff do. */
function refuseWithoutRate(data: OrderDocumentData) {
  const vat = data.vatInSellerCurrency;
  if (!vat || vat.ok) return;
  throw new Response(missingRateMessage(vat), {
    status: 409,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The invoice (or credit note) as UBL 2.1 (EN 16931), a download named after it. */
export async function ublResponse(data: OrderDocumentData) {
  refuseWithoutRate(data);
  const xml = await ublOf(eInvoiceSource(data));
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${documentFileName(data).replace(/\.pdf$/, ".xml")}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
