/**
 * Corrections made after @e-invoice-eu/core writes the CII and the Factur-X PDF: what its mapping
 * leaves out in the EN 16931 profile (a credit note's invoice reference, the buyer's PO number) and
 * the attachment's relationship. docs/e-invoices.md.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFStream } from "@cantoo/pdf-lib";

const day = (iso: string) => iso.slice(0, 10);

/**
 * The buyer's purchase-order number (BT-13) in the CII: @e-invoice-eu/core 2.3 writes it only in the
 * EXTENDED profile, though EN 16931 has it; it goes where the CII schema puts it, right after the
 * seller's order reference (the order number, which the library writes).
 */
export function withBuyerOrder(xml: string, poNumber: string | null) {
  if (!poNumber || xml.includes("<ram:BuyerOrderReferencedDocument>")) return xml;
  const reference = `<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>${escapeXml(poNumber)}</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>`;
  const after = "</ram:SellerOrderReferencedDocument>";
  const at = xml.indexOf(after);
  if (at < 0) throw new Error("The CII has no seller's order reference");
  return xml.slice(0, at + after.length) + reference + xml.slice(at + after.length);
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/**
 * A credit note's reference to the invoice it corrects (BG-3) in the CII. @e-invoice-eu/core 2.3
 * maps it from UBL's BillingReference one level too shallow and writes nothing, so it is added here,
 * where the CII schema puts it: right after the header's monetary summation.
 */
export function withPrecedingInvoice(
  xml: string,
  creditNote: { invoiceNumber: string; invoiceIssuedAt: string } | undefined,
) {
  if (!creditNote || xml.includes("<ram:InvoiceReferencedDocument>")) return xml;
  const reference =
    `<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${escapeXml(creditNote.invoiceNumber)}</ram:IssuerAssignedID>` +
    `<ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${day(creditNote.invoiceIssuedAt).replace(/-/g, "")}</qdt:DateTimeString></ram:FormattedIssueDateTime></ram:InvoiceReferencedDocument>`;
  const end = "</ram:SpecifiedTradeSettlementHeaderMonetarySummation>";
  const at = xml.indexOf(end);
  if (at < 0) throw new Error("The CII has no header monetary summation");
  return xml.slice(0, at + end.length) + reference + xml.slice(at + end.length);
}

/**
 * The XML's relationship to the PDF set to Data (the PDF shows the data; the XML carries it), as
 * Factur-X allows for every profile; @e-invoice-eu/core writes Alternative, what German ZUGFeRD
 * prefers. With `xml`, the attached factur-x.xml becomes that XML.
 */
export async function facturXFixed(pdf: Uint8Array, xml: string | null) {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const files = document.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  if (!files) throw new Error("The Factur-X PDF has no associated files");
  for (let index = 0; index < files.size(); index++) {
    const file = files.lookup(index, PDFDict);
    file.set(PDFName.of("AFRelationship"), PDFName.of("Data"));
    if (!xml) continue;
    const embedded = file.lookup(PDFName.of("EF"), PDFDict);
    const old = embedded.lookup(PDFName.of("F"), PDFStream);
    const bytes = new TextEncoder().encode(xml);
    const stream = document.context.flateStream(bytes);
    for (const [key, value] of old.dict.entries()) {
      if (!["/Length", "/Filter", "/DecodeParms"].includes(key.asString())) stream.dict.set(key, value);
    }
    const params = stream.dict.lookupMaybe(PDFName.of("Params"), PDFDict);
    params?.set(PDFName.of("Size"), PDFNumber.of(bytes.length));
    const ref = document.context.register(stream);
    embedded.set(PDFName.of("F"), ref);
    embedded.set(PDFName.of("UF"), ref);
  }
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}
