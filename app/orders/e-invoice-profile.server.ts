/**
 * What a UBL e-invoice claims to be, and what that claim needs (docs/e-invoices.md): plain EN 16931;
 * Peppol BIS Billing 3.0 when the buyer has a Peppol participant id; XRechnung 3.0 when the buyer is a
 * German public buyer with a Leitweg-ID, which is then its buyer reference (BT-10). XRechnung through
 * Peppol keeps Peppol's business process (BT-23) and addresses, and claims XRechnung (BT-24): the
 * document type Peppol carries German public invoices as. The Factur-X XML keeps its own profile.
 */
import type { Invoice } from "@e-invoice-eu/core";
import { company } from "~/content/company";
import type { OrderDocumentData } from "~/domain/order-document";

export const EN16931_CUSTOMIZATION = "urn:cen.eu:en16931:2017";
export const PEPPOL_CUSTOMIZATION = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
export const XRECHNUNG_CUSTOMIZATION = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
/** Peppol's billing process (BT-23): Peppol BIS's, and XRechnung's too (mandatory since XRechnung 3.0.1). */
export const PEPPOL_PROFILE = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";

type UblInvoice = Invoice["ubl:Invoice"];
type PaymentMeans = NonNullable<UblInvoice["cac:PaymentMeans"]>[number];

/** The buyer is a German public buyer: its e-invoices are XRechnung. */
export const isXRechnung = (data: OrderDocumentData) => Boolean(data.customer.leitwegId);

/** BT-24 and BT-23: the specification the UBL claims, and the business process where there is one. */
export function claimOf(data: OrderDocumentData): Pick<UblInvoice, "cbc:CustomizationID" | "cbc:ProfileID"> {
  if (isXRechnung(data)) return { "cbc:CustomizationID": XRECHNUNG_CUSTOMIZATION, "cbc:ProfileID": PEPPOL_PROFILE };
  // Peppol needs Peppol participant ids as the parties' endpoints, not e-mail addresses (PEPPOL-EN16931-CL008).
  if (data.customer.peppol) return { "cbc:CustomizationID": PEPPOL_CUSTOMIZATION, "cbc:ProfileID": PEPPOL_PROFILE };
  return { "cbc:CustomizationID": EN16931_CUSTOMIZATION };
}

/** BT-10: a public buyer's Leitweg-ID (its PO number stays the order reference, BT-13); else the PO or order number. */
export const buyerReferenceOf = (data: OrderDocumentData) =>
  data.customer.leitwegId || data.order.poNumber || data.order.number;

/**
 * What XRechnung asks beyond EN 16931, on an invoice already made: the seller's contact point by name
 * (BR-DE-5; telephone and e-mail are there), and payment instructions on every invoice and credit note
 * (BR-DE-1). A card payment needs the card's last digits (BG-18, BR-DE-24) that the shop does not keep,
 * so it is given as "mutually defined" (ZZZ) with its words; a credit note's money, with the words of
 * where it went. Any other buyer's invoice is returned as it is.
 */
export function withXRechnungRules(invoice: UblInvoice, data: OrderDocumentData): UblInvoice {
  if (!isXRechnung(data)) return invoice;
  const seller = invoice["cac:AccountingSupplierParty"]["cac:Party"];
  const mutually = (name: string): PaymentMeans => ({
    "cbc:PaymentMeansCode": "ZZZ",
    "cbc:PaymentMeansCode@name": name,
    "cbc:PaymentID": data.order.number,
  });
  const means = (invoice["cac:PaymentMeans"] ?? []).map((entry) =>
    entry["cbc:PaymentMeansCode"] === "48" ? mutually("Bank card, paid at the time of order") : entry,
  );
  return {
    ...invoice,
    "cac:AccountingSupplierParty": {
      ...invoice["cac:AccountingSupplierParty"],
      "cac:Party": { ...seller, "cac:Contact": { "cbc:Name": company.invoiceContact, ...seller["cac:Contact"] } },
    },
    "cac:PaymentMeans": means.length
      ? means
      : [mutually(data.creditNote?.settlement || "Credit as this credit note says")],
  };
}
