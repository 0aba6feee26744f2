/**
 * Exchange rates (docs/e-invoices.md, "VAT in euros"): staff import the ECB's XML and CSV files and
 * type rates by hand on Exchange Rates; an invoice or credit note with EU VAT carries its VAT in euros
 * (BT-6, BT-111) in its UBL, in its PDF's factur-x.xml and on its printed page, and passes the XSDs and
 * the EN 16931 Schematron; one without EU VAT carries none, and one without a rate waits for it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { toEuroCents } from "~/domain/exchange-rates";
import { Audit } from "~/models/audit.server";
import { ExchangeRate } from "~/models/exchange-rate.server";
import { orderDocumentFor } from "~/orders/documents.server";
import { ciiOf, eInvoiceOf, ublOf } from "~/orders/e-invoice.server";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { Order } from "~/orders/model/schema.server";
import { action, loader } from "~/routes/dashboard.exchangeRates";
import { loader as pdfLoader } from "~/routes/documents.$id.$kind_.pdf";
import { loader as ublLoader } from "~/routes/documents.$id.$kind_.ubl";
import { closePdfBrowser } from "~/services/pdf.server";
import { readEcbFile } from "~/services/ecb-file.server";
import { attachedXml, run, validateFolder } from "../setup/e-invoice-rules";
import { ECB_FIXTURES as FIXTURES, seedEcbRates } from "../setup/exchange-rates";
import { createPart, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, toastOf } from "./ordering.helpers";

const PATH = "/dashboard/exchangeRates";
let folder = "";
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "exchange-rates-"));
});
afterAll(async () => {
  await closePdfBrowser();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const fixture = async (name: string) => new File([await readFile(path.join(FIXTURES, name))], name);

function postFile(cookie: string, file: File) {
  const body = new FormData();
  body.append("intent", "import");
  body.append("file", file);
  const request = new Request(new URL(PATH, "http://localhost:3000"), {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
  return settle(action(actionArgs(request)));
}

/** Every rate as stored, and the audit entries of rates: what a refused request must leave alone. */
async function written() {
  const [rates, audits] = await Promise.all([
    ExchangeRate.find().sort({ currency: 1, day: 1 }).lean(),
    Audit.countDocuments({ action: { $in: ["exchange-rate.import", "exchange-rate.record"] } }),
  ]);
  return JSON.stringify({ rates, audits });
}

const NET = 100 * 1_250 + 120 * 4_999;
const VAT = Math.round(NET * 0.21);

/** A paid two-line order of a Dutch company, invoiced on `invoicedAt`, with the taxes `set` gives. */
async function invoiced(name: string, invoicedAt: string, set: Record<string, unknown>) {
  const { user } = await signedIn("customer", name);
  await updateCompanyOf(user.id, {
    $set: {
      companyName: "Van Dijk Onderdelen BV",
      taxId: "",
      country: "NL",
      billingAddress: "Havenweg 3\n3011 Rotterdam",
    },
  });
  const bracket = {
    ...(await createPart({ priceCents: 1_250, name: "Brake caliper bracket" })),
    partNumber: "BC-2201",
  };
  const core = { ...(await createPart({ priceCents: 4_999, name: "Radiator core" })), partNumber: "RC-7710" };
  const order = await createOrder({
    user,
    status: "paid",
    lines: [
      { part: bracket, quantity: 100 },
      { part: core, quantity: 120 },
    ],
  });
  await Order.updateOne({ _id: order.id }, { $set: { netCents: NET, invoicedAt: new Date(invoicedAt), ...set } });
  return order.id;
}
const euVat = {
  taxCents: VAT,
  totalCents: NET + VAT,
  paidCents: NET + VAT,
  taxLines: [{ kind: "vat", label: "VAT NL 21%", rate: 21, baseCents: NET, amountCents: VAT, note: null }],
};

describe("exchange rates", () => {
  test("staff import the ECB's XML and CSV files once, type rates by hand, and are told why a file or a rate is refused", async () => {
    const { cookie } = await signedIn("admin");
    const { cookie: customer } = await signedIn("customer");

    // Not for customers: signed out and sent to sign in, nothing written.
    const before = await written();
    expect((await settle(loader(loaderArgs(getRequest(PATH, { cookie: customer }))))).headers.get("location")).toBe(
      "/login",
    );
    const { cookie: other } = await signedIn("customer");
    const refused = await postFile(other, await fixture("eurofxref-hist-90d.xml"));
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/login");
    expect(await written()).toBe(before);

    // The XML: 3 days of USD, JPY, CZK, GBP, CHF (IDR is not kept).
    const xml = await postFile(cookie, await fixture("eurofxref-hist-90d.xml"));
    expect(xml.status).toBe(302);
    expect((await toastOf(xml))?.message).toBe(
      "ECB file imported: 3 days, 15 rates added, 0 corrected, 0 already recorded",
    );
    expect(await ExchangeRate.findOne({ day: "2026-11-26", currency: "USD" }).lean()).toMatchObject({
      rateMicros: 1_159_800,
      source: "ecb-file",
    });
    const once = await written();
    const again = await postFile(cookie, await fixture("eurofxref-hist-90d.xml"));
    expect((await toastOf(again))?.message).toBe(
      "ECB file imported: 3 days, 0 rates added, 0 corrected, 15 already recorded",
    );
    expect(await written()).toBe(once);

    // The CSV (historic shape: N/A for a currency no longer quoted): one day new, two the same.
    const csv = await postFile(cookie, await fixture("eurofxref-hist.csv"));
    expect((await toastOf(csv))?.message).toBe(
      "ECB file imported: 3 days, 5 rates added, 0 corrected, 10 already recorded",
    );
    const daily = await readEcbFile(await fixture("eurofxref.csv"), "2026-11-29");
    expect(daily.ok && daily.rows.find((row) => row.currency === "GBP")).toEqual({
      day: "2026-11-20",
      currency: "GBP",
      rateMicros: 882_200,
    });

    // Bad files: a message under the field, and nothing written.
    const kept = await written();
    const bad: [string, string, RegExp][] = [
      [
        "rates.xml",
        `<?xml version="1.0"?><Envelope xmlns="urn:other"><Cube/></Envelope>`,
        /not the ECB's reference rates file/,
      ],
      ["rates.csv", "Date,USD,\n2026-11-27,1.16x,\n", /rate of USD on 2026-11-27 .*is not a rate/],
      ["rates.csv", "Day,USD\n2026-11-27,1.16\n", /first column must be “Date”/],
      ["late.csv", "Date,USD,\n2099-01-02,1.16,\n", /a day still to come/],
      // A day the ECB's rate is recorded for, with another value: not the ECB's file.
      ["forged.csv", "Date,USD,\n2026-11-27,1.2,\n2026-11-26,1.2,\n", /differs from the ECB's recorded \(1\.1598\)/],
    ];
    for (const [name, text, message] of bad) {
      await expectFieldError(await postFile(cookie, new File([text], name)), "file", message, 422);
    }
    await expectFieldError(
      await postFile(cookie, new File([new Uint8Array([0x50, 0, 0x4b])], "x.zip")),
      "file",
      /binary/,
      422,
    );
    expect(await written()).toBe(kept);

    // By hand: bad input refused with its reason, nothing written.
    const add = (fields: Record<string, string>) =>
      settle(action(actionArgs(postRequest(PATH, { intent: "add", ...fields }, { cookie }))));
    await expectFieldError(
      await add({ day: "2026-11-27", currency: "USD", rate: "1,16" }),
      "rate",
      /at most 6 decimals/,
    );
    await expectFieldError(
      await add({ day: "2026-11-27", currency: "USD", rate: "1.1234567" }),
      "rate",
      /at most 6 decimals/,
    );
    await expectFieldError(await add({ day: "2026-11-27", currency: "USD", rate: "0" }), "rate", /above 0/);
    await expectFieldError(
      await add({ day: "2099-11-27", currency: "USD", rate: "1.16" }),
      "day",
      "The date cannot be in the future",
    );
    await expectFieldError(
      await add({ day: "2026-11-27", currency: "XAU", rate: "1.16" }),
      "currency",
      "Choose a currency from the list",
    );
    await expectFieldError(
      await add({ day: "2026-11-26", currency: "USD", rate: "1.2" }),
      "rate",
      /The ECB's rate for USD on 2026-11-26 is recorded \(1\.1598\) and stays/,
      409,
    );
    expect(await written()).toBe(kept);
    const typed = await add({ day: "2026-11-27", currency: "GBP", rate: "0.8755" });
    expect((await toastOf(typed))?.message).toBe("1 EUR = 0.8755 GBP on 2026-11-27 recorded");
    expect(await Audit.countDocuments({ action: "exchange-rate.import" })).toBe(2);
    expect(await Audit.countDocuments({ action: "exchange-rate.record" })).toBe(1);

    // Listed newest first.
    const page = (await (await settle(loader(loaderArgs(getRequest(PATH, { cookie }))))).json()) as {
      rates: { day: string; currency: string }[];
    };
    expect(page.rates.slice(0, 2).map((rate) => `${rate.day} ${rate.currency}`)).toEqual([
      "2026-11-27 GBP",
      "2026-11-26 CHF",
    ]);
  }, 60_000);

  test("an EU VAT invoice and its credit note state the VAT in euros at the invoice day's rate; a US sales tax invoice does not; no rate, no PDF", async () => {
    const { cookie, user: staff } = await signedIn("admin");
    await seedEcbRates();
    // Invoiced on Tuesday 24 November (1 EUR = 1.1539 USD); credited on a later day, at the same rate.
    const vatOrder = await invoiced("Daan Dutch", "2026-11-24T15:00:00Z", euVat);
    const params = { id: vatOrder, kind: "invoice" };
    const ublResponse = await settle(
      ublLoader(loaderArgs(getRequest(`/documents/${vatOrder}/invoice/ubl`, { cookie }), params)),
    );
    expect(ublResponse.status).toBe(200);
    const ubl = await ublResponse.text();
    const eur = (toEuroCents(VAT, 1_153_900) / 100).toFixed(2);
    expect(ubl).toMatch(
      /<cbc:DocumentCurrencyCode>USD<\/cbc:DocumentCurrencyCode>\s*<cbc:TaxCurrencyCode>EUR<\/cbc:TaxCurrencyCode>/,
    );
    expect(ubl).toMatch(
      new RegExp(`<cac:TaxTotal>\\s*<cbc:TaxAmount currencyID="EUR">${eur}</cbc:TaxAmount>\\s*</cac:TaxTotal>`),
    );

    const pdfResponse = await settle(
      pdfLoader(loaderArgs(getRequest(`/documents/${vatOrder}/invoice/pdf`, { cookie }), params)),
    );
    expect(pdfResponse.status).toBe(200);
    const pdf = Buffer.from(await pdfResponse.arrayBuffer());
    const cii = await attachedXml(folder, pdf, "eu-vat");
    expect(cii).toContain("<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode>");
    expect(cii).toContain(`<ram:TaxTotalAmount currencyID="EUR">${eur}</ram:TaxTotalAmount>`);
    const { stdout: text } = await run("pdftotext", [path.join(folder, "eu-vat.pdf"), "-"]);
    expect(text.replace(/\s+/g, " ")).toContain(
      `VAT in EUR: €${Number(eur).toLocaleString("en-US", { minimumFractionDigits: 2 })} at 1 EUR = 1.1539 USD (ECB reference rate of Nov 24, 2026)`,
    );

    // The credit note of the whole order takes back the same euros, though issued days later.
    const issued = await issueCreditNote(vatOrder, { reason: "cancellation" }, "staff");
    if (issued.outcome !== "issued") throw new Error(issued.outcome);
    const note = await orderDocumentFor(staff, vatOrder, "credit-note", { creditNote: issued.note.number });
    if (!note.ok) throw new Error("The credit note should be there");
    expect(note.data.vatInSellerCurrency).toMatchObject({ ok: true, day: "2026-11-24", rate: "1.1539" });
    const noteUbl = await (
      await settle(
        ublLoader(
          loaderArgs(getRequest(`/documents/${vatOrder}/credit-note/ubl?number=${issued.note.number}`, { cookie }), {
            id: vatOrder,
            kind: "credit-note",
          }),
        ),
      )
    ).text();
    expect(noteUbl).toContain(`<cbc:TaxAmount currencyID="EUR">${eur}</cbc:TaxAmount>`);

    const xmlFolder = path.join(folder, "xml");
    await mkdir(xmlFolder, { recursive: true });
    await writeFile(path.join(xmlFolder, "eu-vat.ubl.xml"), ubl);
    await writeFile(path.join(xmlFolder, "eu-vat.cii.xml"), cii);
    await writeFile(path.join(xmlFolder, "credit.ubl.xml"), noteUbl);
    await writeFile(
      path.join(xmlFolder, "credit.cii.xml"),
      await ciiOf({
        data: note.data,
        creditNote: {
          number: issued.note.number,
          issuedAt: issued.note.issuedAt,
          invoiceNumber: note.data.invoiceNumber ?? "",
          invoiceIssuedAt: note.data.creditNote?.invoiceIssuedAt ?? "",
        },
      }),
    );
    const { problems } = await validateFolder(xmlFolder);
    expect(Object.keys(problems)).toHaveLength(4);
    for (const [file, errors] of Object.entries(problems)) expect(errors, file).toEqual([]);

    // US sales tax: no EU VAT, no BT-6.
    const salesTax = await invoiced("Mia Michigan", "2026-11-24T15:00:00Z", {
      taxCents: 43_493,
      totalCents: NET + 43_493,
      paidCents: NET + 43_493,
      taxLines: [
        { kind: "sales-tax", label: "MI sales tax 6%", rate: 6, baseCents: NET, amountCents: 43_493, note: null },
      ],
    });
    const us = await orderDocumentFor(staff, salesTax, "invoice");
    if (!us.ok) throw new Error("The invoice should be there");
    expect(us.data.vatInSellerCurrency).toBeNull();
    expect(JSON.stringify(eInvoiceOf({ data: us.data }))).not.toContain("TaxCurrencyCode");

    // Sold in euros: the invoice is in euros (BT-5), and its VAT needs no second statement in euros.
    const inEuros = await invoiced("Elif Euro", "2026-11-24T15:00:00Z", { ...euVat, currency: "EUR" });
    const euroInvoice = await orderDocumentFor(staff, inEuros, "invoice");
    if (!euroInvoice.ok) throw new Error("The invoice should be there");
    expect(euroInvoice.data.vatInSellerCurrency).toBeNull();
    const eurXml = await ublOf({ data: euroInvoice.data });
    expect(eurXml).toContain("<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>");
    expect(eurXml).not.toContain("TaxCurrencyCode");
    expect(eurXml).not.toContain('currencyID="USD"');

    // Invoiced before any rate is kept: the page says what is missing; no PDF, no UBL until staff add it.
    const early = await invoiced("Eva Early", "2026-01-05T10:00:00Z", euVat);
    const waiting = { id: early, kind: "invoice" };
    const message =
      "The VAT in euros cannot be stated yet: no ECB reference rate for USD is recorded on or before 2026-01-05. Staff add it under Exchange Rates; the PDF and the e-invoice follow.";
    for (const [loaderOf, suffix] of [
      [ublLoader, "ubl"],
      [pdfLoader, "pdf"],
    ] as const) {
      const answer = await settle(
        loaderOf(loaderArgs(getRequest(`/documents/${early}/invoice/${suffix}`, { cookie }), waiting)),
      );
      expect(answer.status, suffix).toBe(409);
      expect(await answer.text()).toBe(message);
    }
    const shown = await orderDocumentFor(staff, early, "invoice");
    expect(shown.ok && shown.data.vatInSellerCurrency).toEqual({
      ok: false,
      currency: "EUR",
      invoiceCurrency: "USD",
      taxPoint: "2026-01-05",
    });
  }, 120_000);
});
