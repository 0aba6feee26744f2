/**
 * Corrections made after @e-invoice-eu/core writes the CII and the Factur-X PDF: what its mapping
 * leaves out in the EN 16931 profile (a credit note's invoice reference, the buyer's PO number), the
 * attachment's relationship, and the PDF's title (the library calls every document an invoice).
 * docs/e-invoices.md.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from "@cantoo/pdf-lib";

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
 * prefers. With `xml`, the attached factur-x.xml becomes that XML. The PDF is titled after what its
 * XML is ("Credit note CN-000001", "Invoice INV-000123"), in its info and its XMP alike.
 */
export async function facturXFixed(pdf: Uint8Array, xml: string | null) {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const files = document.catalog.lookupMaybe(PDFName.of("AF"), PDFArray);
  if (!files) throw new Error("The Factur-X PDF has no associated files");
  let attached = xml;
  for (let index = 0; index < files.size(); index++) {
    const file = files.lookup(index, PDFDict);
    file.set(PDFName.of("AFRelationship"), PDFName.of("Data"));
    const embedded = file.lookup(PDFName.of("EF"), PDFDict);
    const old = embedded.lookup(PDFName.of("F"), PDFStream);
    if (!xml) {
      attached ??= textOf(old);
      continue;
    }
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
  if (attached) retitle(document, titleOf(attached));
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/** What a CII is, by its number and type code: "Credit note CN-000001" (381), else "Invoice INV-000123". */
function titleOf(cii: string) {
  const header = /<rsm:ExchangedDocument>\s*<ram:ID>([^<]+)<\/ram:ID>\s*<ram:TypeCode>(\d+)<\/ram:TypeCode>/.exec(cii);
  if (!header) throw new Error("The CII has no document number and type");
  return `${header[2] === "381" ? "Credit note" : "Invoice"} ${header[1]}`;
}

const textOf = (stream: PDFStream) =>
  new TextDecoder().decode(stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents());

/**
 * The title (info Title, XMP dc:title) and the subject (info Subject, XMP dc:description) the library
 * wrote, "<seller>: Invoice <number>" and "Invoice <number> dated …", made to say what the document is.
 */
function retitle(document: PDFDocument, title: string) {
  const subject = (document.getSubject() ?? "").replace(/^Invoice \S+/, title);
  document.setTitle(title);
  document.setSubject(subject);
  document.setKeywords([title.replace(/ \S+$/, ""), "Factur-X", "ZUGFeRD"]);
  const ref = document.catalog.get(PDFName.of("Metadata"));
  if (!(ref instanceof PDFRef)) throw new Error("The Factur-X PDF has no XMP metadata");
  let xmp = textOf(document.context.lookup(ref, PDFStream));
  xmp = withAltText(xmp, "dc:title", title);
  xmp = withAltText(xmp, "dc:description", subject);
  document.context.assign(
    ref,
    document.context.stream(new TextEncoder().encode(xmp), { Type: "Metadata", Subtype: "XML" }),
  );
}

/** The XMP property `tag` (a language alternative) with `text` as its default. */
const withAltText = (xmp: string, tag: string, text: string) =>
  xmp.replace(
    new RegExp(`(<${tag}>\\s*<rdf:Alt>\\s*<rdf:li[^>]*>)[^<]*(</rdf:li>)`),
    (_, open: string, close: string) => open + escapeXml(text) + close,
  );
