/**
 * Invoices and credit notes as EN 16931 data (docs/e-invoices.md): Factur-X (CII XML inside the
 * PDF/A-3 of the invoice) and UBL 2.1 (EN 16931). `eInvoiceOf` maps what the
 * document shows (OrderDocumentData, the same data the PDF prints) to the semantic model once;
 * @e-invoice-eu/core writes both syntaxes from it and makes the PDF/A-3 with `factur-x.xml`.
 */
import { FormatFactoryService, type Invoice, type InvoiceServiceOptions } from "@e-invoice-eu/core";
// The document's data: what the printed invoice shows, the e-invoice carries.
import type { OrderDocumentData } from "~/domain/order-document";
import { company } from "~/content/company";
import { seller } from "~/content/tax-rates";
import { HOME_CURRENCY } from "~/domain/money";
import { regionLabel, type PostalAddress } from "~/domain/address";
import { termsWords } from "~/domain/order-states";
import { ACCOUNT_CREDIT } from "~/domain/order-payments";
import { facturXFixed, withBuyerOrder, withPrecedingInvoice } from "./e-invoice-fixes.server";
import { buyerReferenceOf, claimOf, withXRechnungRules } from "./e-invoice-profile.server";
import { taxCurrencyOf } from "./e-invoice-currency.server";
import { bankTransferMeans } from "./e-invoice-payee.server";

/** A credit note: its own number and date, and the invoice it corrects (EN 16931 BG-3). */
export type CreditNoteOf = {
  number: string;
  issuedAt: string;
  invoiceNumber: string;
  invoiceIssuedAt: string;
  reason?: string;
};

/** What an e-invoice is made from: an invoice's document data, and for a credit note the note's own identity. */
export type EInvoiceSource = { data: OrderDocumentData; creditNote?: CreditNoteOf };

/** UN/ECE Recommendation 20: one piece. */
const UNIT_PIECE = "H87";
const money = (cents: number) => (cents / 100).toFixed(2);
const day = (iso: string) => iso.slice(0, 10);
const percent = (rate: number) => String(Number(rate.toFixed(3)));

type Country =
  Invoice["ubl:Invoice"]["cac:AccountingCustomerParty"]["cac:Party"]["cac:PostalAddress"]["cac:Country"]["cbc:IdentificationCode"];
type Address = Invoice["ubl:Invoice"]["cac:AccountingCustomerParty"]["cac:Party"]["cac:PostalAddress"];
type VatCategory = "S" | "AE" | "K" | "G" | "O";
/** An EAS code: the schemes of domain/peppol.ts are all on the library's list. */
type EndpointScheme = NonNullable<
  Invoice["ubl:Invoice"]["cac:AccountingCustomerParty"]["cac:Party"]["cbc:EndpointID@schemeID"]
>;

/** A postal address with fields, field by field (BG-5, BG-8, BG-15). */
function postalAddressFrom(address: PostalAddress): Address {
  return {
    ...(address.line1 ? { "cbc:StreetName": address.line1 } : {}),
    ...(address.line2 ? { "cbc:AdditionalStreetName": address.line2 } : {}),
    ...(address.city ? { "cbc:CityName": address.city } : {}),
    ...(address.postalCode ? { "cbc:PostalZone": address.postalCode } : {}),
    ...(address.region ? { "cbc:CountrySubentity": regionLabel(address.country, address.region) } : {}),
    "cac:Country": { "cbc:IdentificationCode": address.country as Country },
  };
}

/**
 * A postal address from what the order holds now: free text, one line a line, and a country. The
 * one place that reads addresses: structured addresses (name, lines, city, region, postal code,
 * country) map here field by field.
 */
export function postalAddressOf(text: string, country: string, omitFirstLine = ""): Address {
  let lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (omitFirstLine && lines[0]?.toLowerCase() === omitFirstLine.trim().toLowerCase()) lines = lines.slice(1);
  const [street, additional, ...rest] = lines;
  return {
    ...(street ? { "cbc:StreetName": street } : {}),
    ...(additional ? { "cbc:AdditionalStreetName": additional } : {}),
    ...(rest.length ? { "cac:AddressLine": { "cbc:Line": rest.join(", ") } } : {}),
    "cac:Country": { "cbc:IdentificationCode": country as Country },
  };
}

/** Why no VAT is charged, as EN 16931's exemption reason codes (VATEX) and their words. */
const EXEMPTION: Partial<Record<VatCategory, { code: string; reason: string }>> = {
  AE: { code: "VATEX-EU-AE", reason: "Reverse charge" },
  K: { code: "VATEX-EU-IC", reason: "Intra-community supply" },
  G: { code: "VATEX-EU-G", reason: "Export outside the EU" },
  O: { code: "VATEX-EU-O", reason: "Not subject to EU VAT: a sale by a US seller outside the EU" },
};

/**
 * The tax situation in EN 16931's terms (docs/e-invoices.md, "Tax categories"). VAT: standard rate
 * (S). Goods to a VAT-registered business in another member state: an intra-community supply (K), with
 * both VAT numbers and the day of the supply. Goods leaving the EU: export (G). The reverse charge (AE)
 * only on the orders invoiced as one before goods were told apart. Everything else (US sales tax,
 * exemption certificates, states where the seller does not collect) is outside EU VAT: O; US sales tax
 * charged is then a document-level charge, since EN 16931 knows no tax but VAT.
 */
function taxSituation(data: OrderDocumentData) {
  const { taxLines } = data.order;
  const vat = taxLines.find((line) => line.kind === "vat");
  if (vat) return { category: "S" as VatCategory, rate: vat.rate, vatCents: vat.amountCents, salesTax: [] };
  const zero = (category: VatCategory, note: string | null) => ({ category, rate: 0, vatCents: 0, salesTax: [], note });
  for (const [kind, category] of [
    ["intra-community", "K"],
    ["reverse-charge", "AE"],
  ] as const) {
    const line = taxLines.find((each) => each.kind === kind);
    if (line && data.order.buyerVatNumber) return zero(category, line.note);
  }
  const exported = taxLines.find((line) => line.kind === "export");
  if (exported) return zero("G", exported.note);
  const note = taxLines.find((line) => line.note)?.note;
  return {
    category: "O" as VatCategory,
    rate: null,
    vatCents: 0,
    salesTax: taxLines.filter((line) => line.kind === "sales-tax" && line.amountCents > 0),
    note,
  };
}

/** The buyer's country: its billing address's, else the company's, else the country of its VAT number, else the seller's (a US buyer). */
function buyerCountry(data: OrderDocumentData) {
  if (data.customer.billing?.country) return data.customer.billing.country;
  if (/^[A-Z]{2}$/.test(data.customer.country)) return data.customer.country;
  const prefix = data.order.buyerVatNumber?.slice(0, 2).toUpperCase() ?? "";
  if (/^[A-Z]{2}$/.test(prefix)) return prefix === "EL" ? "GR" : prefix;
  return seller.country;
}

/** The EN 16931 semantic model (as UBL-shaped data) of an invoice, or of a credit note of it. */
export function eInvoiceOf({ data, creditNote }: EInvoiceSource): Invoice {
  const { order, customer } = data;
  const CURRENCY = order.currency ?? HOME_CURRENCY;
  if (!(data.kind === "invoice" || (data.kind === "credit-note" && creditNote)) || !data.invoiceNumber)
    throw new Error("Only an invoice or a credit note has an e-invoice");
  const tax = taxSituation(data);
  const category = (): { "cbc:ID": VatCategory; "cbc:Percent"?: string; "cac:TaxScheme": { "cbc:ID": string } } => ({
    "cbc:ID": tax.category,
    ...(tax.rate !== null ? { "cbc:Percent": percent(tax.rate) } : {}),
    "cac:TaxScheme": { "cbc:ID": "VAT" },
  });
  const salesTaxCents = tax.salesTax.reduce((sum, line) => sum + line.amountCents, 0);
  const netCents = order.lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const exclusiveCents = netCents + salesTaxCents;
  const inclusiveCents = exclusiveCents + tax.vatCents;
  // Paid: the money received and the account credit taken off it (the printed invoice lists both).
  const creditCents = order.received
    .filter((payment) => payment.method === ACCOUNT_CREDIT)
    .reduce((sum, payment) => sum + payment.amountCents, 0);
  const paidCents = creditNote ? 0 : Math.min(order.paidCents + creditCents, inclusiveCents);
  const payableCents = inclusiveCents - paidCents;
  const issued = creditNote ? creditNote.issuedAt : (order.invoicedAt ?? order.paidAt ?? order.createdAt);
  const country = buyerCountry(data);
  const buyerName = customer.companyName || customer.name;
  const withVatNumbers = tax.category !== "O";
  const peppol = customer.peppol ?? null;
  const terms = creditNote
    ? `Credit note for invoice ${creditNote.invoiceNumber}.`
    : order.paymentMethod === "account"
      ? `${termsWords(order.termsDays)} from the invoice date; quote ${order.number} with your payment.`
      : `${order.terms}.`;
  // BG-16/BG-17: the account of the invoice's currency.
  const bankTransfer = bankTransferMeans(CURRENCY, order.number);
  /** BT-81 from what happened: each way money came, then a transfer for what is still to pay. */
  const other = (code: "48" | "20" | "10" | "97", name: string) => ({
    "cbc:PaymentMeansCode": code,
    "cbc:PaymentMeansCode@name": name,
    "cbc:PaymentID": order.number,
  });
  const MEANS = {
    card: other("48", "Bank card"),
    "bank-transfer": bankTransfer,
    cheque: other("20", "Cheque"),
    cash: other("10", "In cash"),
    credit: other("97", "Clearing between partners"),
  };
  const received = [...new Set(order.received.map((payment) => payment.means))];
  const paymentMeans = [
    ...received.map((means) => MEANS[means]),
    ...(payableCents > 0 && !received.includes("bank-transfer") ? [bankTransfer] : []),
  ];
  const notes = [tax.note, creditNote?.reason].filter((note): note is string => Boolean(note));
  if (tax.category === "AE" || tax.category === "K") {
    notes.push(`Customer VAT number ${order.buyerVatNumber}; supplier VAT number ${seller.euVat.number}.`);
  }
  // The day of the supply (BT-72): the day the order shipped whole, when its invoice is issued. An
  // intra-community order cancelled before it shipped is credited in full: its period is the order's life.
  const suppliedOn = order.shippedAt ? day(order.shippedAt) : null;
  const period =
    tax.category === "K" && !suppliedOn
      ? {
          "cbc:StartDate": day(order.createdAt),
          "cbc:EndDate": day(issued) > day(order.createdAt) ? day(issued) : day(order.createdAt),
        }
      : null;

  const invoice: Invoice["ubl:Invoice"] = {
    // What it claims: XRechnung 3.0 for a German public buyer, Peppol BIS Billing 3.0 for a buyer with a
    // Peppol participant id (both parties addressed by theirs), else plain EN 16931 (e-invoice-profile.server.ts).
    ...claimOf(data),
    "cbc:ID": creditNote ? creditNote.number : data.invoiceNumber,
    "cbc:IssueDate": day(issued),
    ...(!creditNote && order.dueAt && payableCents > 0 ? { "cbc:DueDate": day(order.dueAt) } : {}),
    "cbc:InvoiceTypeCode": creditNote ? "381" : "380",
    // One note: the Factur-X profile allows one text per note.
    ...(notes.length ? { "cbc:Note": [notes.join(" ")] } : {}),
    "cbc:DocumentCurrencyCode": CURRENCY,
    // BT-6: EU VAT is also stated in the seller's VAT currency (e-invoice-currency.server.ts).
    ...taxCurrencyOf(data).code,
    "cbc:BuyerReference": buyerReferenceOf(data),
    ...(period ? { "cac:InvoicePeriod": period } : {}),
    "cac:OrderReference": { "cbc:ID": order.poNumber ?? "NA", "cbc:SalesOrderID": order.number },
    ...(creditNote
      ? {
          "cac:BillingReference": [
            {
              "cac:InvoiceDocumentReference": {
                "cbc:ID": creditNote.invoiceNumber,
                "cbc:IssueDate": day(creditNote.invoiceIssuedAt),
              },
            },
          ],
        }
      : {}),
    "cac:AccountingSupplierParty": {
      "cac:Party": {
        "cbc:EndpointID": peppol ? company.peppol.id : company.email,
        "cbc:EndpointID@schemeID": (peppol ? company.peppol.scheme : "EM") as EndpointScheme,
        "cac:PartyName": { "cbc:Name": company.name },
        "cac:PostalAddress": {
          "cbc:StreetName": company.address.street,
          "cbc:CityName": company.address.city,
          "cbc:PostalZone": company.address.postalCode,
          "cbc:CountrySubentity": company.address.region,
          "cac:Country": { "cbc:IdentificationCode": seller.country },
        },
        ...(withVatNumbers
          ? { "cac:PartyTaxScheme": [{ "cbc:CompanyID": seller.euVat.number, "cac:TaxScheme": { "cbc:ID": "VAT" } }] }
          : {}),
        "cac:PartyLegalEntity": {
          "cbc:RegistrationName": company.legalName,
          // The number alone (BT-30): the printed label ("EIN") is not part of it.
          "cbc:CompanyID": company.taxId.replace(/^[A-Z]+\s+/, ""),
        },
        "cac:Contact": { "cbc:Telephone": company.phone.display, "cbc:ElectronicMail": company.email },
      },
    },
    "cac:AccountingCustomerParty": {
      "cac:Party": {
        "cbc:EndpointID": peppol ? peppol.id : customer.email,
        "cbc:EndpointID@schemeID": (peppol ? peppol.scheme : "EM") as EndpointScheme,
        ...(customer.companyName ? { "cac:PartyName": { "cbc:Name": customer.companyName } } : {}),
        "cac:PostalAddress": customer.billing
          ? postalAddressFrom(customer.billing)
          : !customer.billingAddress && order.deliveryAddress
            ? postalAddressFrom(order.deliveryAddress)
            : postalAddressOf(customer.billingAddress || order.address, country, buyerName),
        ...(withVatNumbers && order.buyerVatNumber
          ? { "cac:PartyTaxScheme": { "cbc:CompanyID": order.buyerVatNumber, "cac:TaxScheme": { "cbc:ID": "VAT" } } }
          : {}),
        "cac:PartyLegalEntity": {
          "cbc:RegistrationName": buyerName,
          ...(customer.taxId && customer.taxId !== order.buyerVatNumber ? { "cbc:CompanyID": customer.taxId } : {}),
        },
        "cac:Contact": {
          "cbc:Name": customer.name,
          "cbc:Telephone": order.phone,
          "cbc:ElectronicMail": customer.email,
        },
      },
    },
    "cac:Delivery": {
      ...(suppliedOn ? { "cbc:ActualDeliveryDate": suppliedOn } : {}),
      "cac:DeliveryLocation": {
        "cac:Address": order.deliveryAddress
          ? postalAddressFrom(order.deliveryAddress)
          : postalAddressOf(order.address, country, buyerName),
      },
      "cac:DeliveryParty": { "cac:PartyName": { "cbc:Name": buyerName } },
    },
    ...(creditNote || !paymentMeans.length ? {} : { "cac:PaymentMeans": paymentMeans }),
    "cac:PaymentTerms": { "cbc:Note": terms },
    ...(tax.salesTax.length
      ? {
          "cac:AllowanceCharge": tax.salesTax.map((line) => ({
            "cbc:ChargeIndicator": "true",
            "cbc:AllowanceChargeReason": line.label,
            "cbc:Amount": money(line.amountCents),
            "cbc:Amount@currencyID": CURRENCY,
            "cac:TaxCategory": category(),
          })),
        }
      : {}),
    "cac:TaxTotal": [
      {
        "cbc:TaxAmount": money(tax.vatCents),
        "cbc:TaxAmount@currencyID": CURRENCY,
        "cac:TaxSubtotal": [
          {
            "cbc:TaxableAmount": money(exclusiveCents),
            "cbc:TaxableAmount@currencyID": CURRENCY,
            "cbc:TaxAmount": money(tax.vatCents),
            "cbc:TaxAmount@currencyID": CURRENCY,
            "cac:TaxCategory": {
              ...category(),
              ...(EXEMPTION[tax.category]
                ? {
                    "cbc:TaxExemptionReasonCode": EXEMPTION[tax.category]!.code,
                    "cbc:TaxExemptionReason": EXEMPTION[tax.category]!.reason,
                  }
                : {}),
            },
          },
        ],
      },
      // BT-111: the VAT total in that currency.
      ...taxCurrencyOf(data).totals,
    ],
    "cac:LegalMonetaryTotal": {
      "cbc:LineExtensionAmount": money(netCents),
      "cbc:LineExtensionAmount@currencyID": CURRENCY,
      "cbc:TaxExclusiveAmount": money(exclusiveCents),
      "cbc:TaxExclusiveAmount@currencyID": CURRENCY,
      "cbc:TaxInclusiveAmount": money(inclusiveCents),
      "cbc:TaxInclusiveAmount@currencyID": CURRENCY,
      ...(salesTaxCents
        ? { "cbc:ChargeTotalAmount": money(salesTaxCents), "cbc:ChargeTotalAmount@currencyID": CURRENCY }
        : {}),
      ...(paidCents ? { "cbc:PrepaidAmount": money(paidCents), "cbc:PrepaidAmount@currencyID": CURRENCY } : {}),
      "cbc:PayableAmount": money(payableCents),
      "cbc:PayableAmount@currencyID": CURRENCY,
    },
    "cac:InvoiceLine": order.lines.map((line, index) => ({
      "cbc:ID": String(index + 1),
      "cbc:InvoicedQuantity": String(line.quantity),
      "cbc:InvoicedQuantity@unitCode": UNIT_PIECE,
      "cbc:LineExtensionAmount": money(line.lineTotalCents),
      "cbc:LineExtensionAmount@currencyID": CURRENCY,
      "cac:Item": {
        "cbc:Name": line.productName,
        ...(line.partNumber ? { "cac:SellersItemIdentification": { "cbc:ID": line.partNumber } } : {}),
        "cac:ClassifiedTaxCategory": category(),
      },
      "cac:Price": { "cbc:PriceAmount": money(line.unitPriceCents), "cbc:PriceAmount@currencyID": CURRENCY },
    })) as Invoice["ubl:Invoice"]["cac:InvoiceLine"],
  };
  return { "ubl:Invoice": withXRechnungRules(invoice, data) };
}

const quiet = { log: () => {}, warn: () => {}, error: () => {} };
const formats = new FormatFactoryService();

/**
 * The library's generate without its input check: InvoiceService compiles the whole invoice JSON
 * schema on every call (about 0.7 s of CPU that blocks the server). The input is typed against the
 * library's Invoice, and the output is checked with the XSDs and Schematron in the tests.
 */
async function generate(invoice: Invoice, options: Omit<InvoiceServiceOptions, "lang">) {
  const formatter = formats.createFormatService(options.format, quiet);
  const input = structuredClone(invoice);
  formatter.fillInvoiceDefaults(input);
  return formatter.generate(input, { ...options, format: formats.normalizeFormat(options.format), lang: "en-us" });
}

/** The UBL 2.1 Invoice (or CreditNote) of the document, EN 16931. */
export async function ublOf(source: EInvoiceSource): Promise<string> {
  return String(await generate(eInvoiceOf(source), { format: "UBL" }));
}

/** The Cross Industry Invoice XML of the document, profile EN 16931 (what Factur-X carries). */
export async function ciiOf(source: EInvoiceSource): Promise<string> {
  const invoice = eInvoiceOf(source);
  // Factur-X's EN 16931 profile names itself in the CII; the Peppol identifiers are UBL's.
  delete invoice["ubl:Invoice"]["cbc:CustomizationID"];
  delete invoice["ubl:Invoice"]["cbc:ProfileID"];
  const xml = String(await generate(invoice, { format: "CII" }));
  return withBuyerOrder(withPrecedingInvoice(xml, source.creditNote), source.data.order.poNumber);
}

/** The printed PDF made a Factur-X PDF/A-3: factur-x.xml attached (relationship Data) with its XMP metadata. */
export async function facturXOf(source: EInvoiceSource, pdf: Uint8Array, filename: string): Promise<Uint8Array> {
  const invoice = eInvoiceOf(source);
  delete invoice["ubl:Invoice"]["cbc:CustomizationID"];
  delete invoice["ubl:Invoice"]["cbc:ProfileID"];
  const made = await generate(invoice, {
    format: "Factur-X-EN16931",
    pdf: { buffer: pdf, filename, mimetype: "application/pdf" },
  });
  if (typeof made === "string") throw new Error("Factur-X gave no PDF");
  // A credit note's XML gets its invoice reference (withPrecedingInvoice), an order with a PO number its
  // BT-13 (withBuyerOrder): the attachment is replaced.
  return facturXFixed(made, source.creditNote || source.data.order.poNumber ? await ciiOf(source) : null);
}
