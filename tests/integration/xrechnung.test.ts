/**
 * XRechnung for German public buyers (docs/e-invoices.md, "XRechnung"): staff mark a German company as
 * a public buyer with its Leitweg-ID on its record (a bad one, or a company that is not German, refused
 * at the field with 400 and nothing written; audited). Its invoices and credit notes are then UBL that
 * claims XRechnung 3.0 with the Leitweg-ID as buyer reference (BT-10), and pass the XSDs, the EN 16931
 * Schematron and KoSIT's XRechnung rules with no error; through Peppol too. Without one, nothing changes.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TAX_WORDING } from "~/content/tax-rates";
import { LEITWEG_MESSAGES } from "~/domain/leitweg";
import { Audit } from "~/models/audit.server";
import { getCompany } from "~/models/company.server";
import { orderDocumentFor } from "~/orders/documents.server";
import { ciiOf, ublOf } from "~/orders/e-invoice.server";
import { XRECHNUNG_CUSTOMIZATION } from "~/orders/e-invoice-profile.server";
import { issueCreditNote } from "~/orders/model/credit-notes.server";
import { Order } from "~/orders/model/schema.server";
import { action as companyAction, loader as companyLoader } from "~/routes/dashboard.companies_.$id/route";
import { loader as ublLoader } from "~/routes/documents.$id.$kind_.ubl";
import { createPart, createUser, sessionCookieHeader, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { validateFolder } from "../setup/e-invoice-rules";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";

const LEITWEG = "04011000-1234512345-06";
const BILLING = {
  name: "",
  company: "Stadtverwaltung Musterhausen",
  line1: "Rathausplatz 1",
  line2: "Zentrale Rechnungseingangsstelle",
  city: "Musterhausen",
  region: "",
  postalCode: "12345",
  country: "DE",
};

let folder = "";
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "xrechnung-"));
});
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

const errors = async (response: Response) =>
  ((await response.json()) as { result: { error?: Record<string, string[]> } }).result.error ?? {};

describe("XRechnung for German public buyers", () => {
  test("staff set a Leitweg-ID on a German company (bad ones and a company abroad refused, nothing written), audited", async () => {
    const owner = await createUser({ name: "Greta Behörde" });
    const companyId = owner.companyId!;
    await updateCompanyOf(owner.id, { $set: { companyName: BILLING.company, country: "DE", billing: BILLING } });
    const cookie = await sessionCookieHeader((await createUser({ role: "admin" })).id);
    const path = `/dashboard/companies/${companyId}`;
    const post = (id: string, fields: Record<string, string>) =>
      settle(companyAction(actionArgs(postRequest(`/dashboard/companies/${id}`, fields, { cookie }), { id })));

    for (const [leitwegId, message] of [
      ["04011000-1234512345-07", /check digits of that Leitweg-ID are wrong \(for the rest of it they would be 06\)/],
      ["04011000_1234512345-06", /coarse address of 2 to 12 digits/],
      ["1-06", /coarse address of 2 to 12 digits/],
      ["", /Enter the Leitweg-ID/],
    ] as const) {
      const refused = await post(companyId, { intent: "leitweg", leitwegId });
      expect(refused.status, leitwegId).toBe(400);
      expect((await errors(refused)).leitwegId?.join(" "), leitwegId).toMatch(message);
      expect((await getCompany(companyId))!.company.leitwegId).toBeNull();
    }

    // A company that is not German has no Leitweg-ID: refused at the field, and its page says why.
    const abroad = await createUser({ name: "Anna Austria" });
    await updateCompanyOf(abroad.id, { $set: { companyName: "Wiener Teile GmbH", country: "AT" } });
    const refused = await post(abroad.companyId!, { intent: "leitweg", leitwegId: LEITWEG });
    expect(refused.status).toBe(400);
    expect((await errors(refused)).leitwegId).toEqual([LEITWEG_MESSAGES.notGerman("AT")]);
    expect((await getCompany(abroad.companyId!))!.company.leitwegId).toBeNull();

    expect((await post(companyId, { intent: "leitweg", leitwegId: " 04011000-1234512345-06 " })).status).toBe(302);
    expect((await getCompany(companyId))!.company.leitwegId).toBe(LEITWEG);
    const page = await settle(companyLoader(loaderArgs(getRequest(path, { cookie }), { id: companyId })));
    expect((await page.json()).company).toMatchObject({ leitwegId: LEITWEG, country: "DE" });
    const entry = await Audit.findOne({ action: "company.set-leitweg-id", targetId: companyId }).lean();
    expect(entry).toMatchObject({ before: { leitwegId: null }, after: { leitwegId: LEITWEG } });

    expect((await post(companyId, { intent: "leitweg-remove" })).status).toBe(302);
    expect((await getCompany(companyId))!.company.leitwegId).toBeNull();
    expect(await Audit.countDocuments({ action: "company.set-leitweg-id", targetId: companyId })).toBe(2);
  });

  test("its invoice and credit note are XRechnung 3.0 with the Leitweg-ID as buyer reference, and pass KoSIT's rules", async () => {
    const buyer = await createUser({ name: "Paul Beschaffung" });
    await updateCompanyOf(buyer.id, {
      $set: { companyName: BILLING.company, country: "DE", taxId: "DE811907980", billing: BILLING },
    });
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const net = 100 * 1_250 + 20 * 4_999;
    const order = await createOrder({
      user: buyer,
      status: "account",
      poNumber: "BEST-2026-0042",
      deliveryAddress: { ...BILLING, line2: "Bauhof, Tor 2" },
      lines: [
        {
          part: { ...(await createPart({ priceCents: 1_250, name: "Brake caliper bracket" })), partNumber: "BC-2201" },
          quantity: 100,
        },
        {
          part: { ...(await createPart({ priceCents: 4_999, name: "Radiator core" })), partNumber: "RC-7710" },
          quantity: 20,
        },
      ],
    });
    // On account, 30 days; a German buyer with a VAT number: no VAT charged, both VAT numbers given.
    await Order.updateOne(
      { _id: order.id },
      {
        $set: {
          netCents: net,
          totalCents: net,
          taxCents: 0,
          buyerVatNumber: "DE811907980",
          taxLines: [
            {
              kind: "reverse-charge",
              label: "Reverse charge",
              rate: 0,
              baseCents: net,
              amountCents: 0,
              note: TAX_WORDING.reverseCharge,
            },
          ],
          paymentMethod: "account",
          termsDays: 30,
          invoicedAt: new Date(),
          dueAt: new Date(Date.now() + 30 * 86_400_000),
        },
      },
    );
    const post = (fields: Record<string, string>) =>
      settle(
        companyAction(
          actionArgs(postRequest(`/dashboard/companies/${buyer.companyId}`, fields, { cookie }), {
            id: buyer.companyId!,
          }),
        ),
      );
    const invoiceUbl = async () =>
      (
        await settle(
          ublLoader(
            loaderArgs(getRequest(`/documents/${order.id}/invoice/ubl`, { cookie }), { id: order.id, kind: "invoice" }),
          ),
        )
      ).text();

    // Before: plain EN 16931, the PO number as buyer reference.
    const before = await invoiceUbl();
    expect(before).toContain("<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>");
    expect(before).toContain("<cbc:BuyerReference>BEST-2026-0042</cbc:BuyerReference>");

    expect((await post({ intent: "leitweg", leitwegId: LEITWEG })).status).toBe(302);
    const xml: Record<string, string> = {};
    xml["invoice.ubl.xml"] = await invoiceUbl();

    const issued = await issueCreditNote(order.id, { reason: "cancellation" }, "staff");
    if (issued.outcome !== "issued") throw new Error(`credit note: ${issued.outcome}`);
    const params = { id: order.id, kind: "credit-note" };
    const noteUrl = `/documents/${order.id}/credit-note/ubl?number=${issued.note.number}`;
    const note = await settle(ublLoader(loaderArgs(getRequest(noteUrl, { cookie }), params)));
    expect(note.status).toBe(200);
    xml["credit-note.ubl.xml"] = await note.text();

    // The same buyer reached over Peppol by its Leitweg-ID (scheme 0204): Peppol's process and addresses, XRechnung's claim.
    const found = await orderDocumentFor(admin, order.id, "invoice");
    if (!found.ok) throw new Error("The invoice should be there");
    const viaPeppol = { ...found.data, customer: { ...found.data.customer, peppol: { scheme: "0204", id: LEITWEG } } };
    xml["peppol.ubl.xml"] = await ublOf({ data: viaPeppol });
    // Paid by card: XRechnung wants the card's last digits (BG-18), which the shop does not keep, so the
    // card payment is "mutually defined" (ZZZ) in words.
    const byCard = {
      ...found.data,
      order: {
        ...found.data.order,
        paidCents: net,
        received: [
          { on: new Date().toISOString(), method: "Card", means: "card" as const, reference: "pi_1", amountCents: net },
        ],
      },
    };
    xml["card.ubl.xml"] = await ublOf({ data: byCard });
    expect(xml["card.ubl.xml"]).toContain('<cbc:PaymentMeansCode name="Bank card, paid at the time of order">ZZZ<');
    expect(xml["card.ubl.xml"]).not.toMatch(/<cbc:PaymentMeansCode[^>]*>48</);
    // The Factur-X XML keeps its own profile (EN 16931), the Leitweg-ID as its buyer reference too.
    xml["invoice.cii.xml"] = await ciiOf({ data: found.data });

    for (const name of ["invoice.ubl.xml", "credit-note.ubl.xml", "peppol.ubl.xml"]) {
      expect(xml[name], name).toContain(`<cbc:CustomizationID>${XRECHNUNG_CUSTOMIZATION}</cbc:CustomizationID>`);
      expect(xml[name], name).toContain("<cbc:ProfileID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</cbc:ProfileID>");
      expect(xml[name], name).toContain(`<cbc:BuyerReference>${LEITWEG}</cbc:BuyerReference>`);
      // The PO number stays the order reference (BT-13).
      expect(xml[name], name).toMatch(/<cac:OrderReference>\s*<cbc:ID>BEST-2026-0042<\/cbc:ID>/);
      // The seller's contact point by name, telephone and e-mail (BR-DE-5, 6, 7); payment instructions (BR-DE-1).
      expect(xml[name], name).toContain("<cbc:Name>PartsWorks accounts receivable</cbc:Name>");
      expect(xml[name], name).toContain("<cac:PaymentMeans>");
    }
    expect(xml["invoice.ubl.xml"]).toMatch(/<cbc:PaymentMeansCode[^>]*>30<\/cbc:PaymentMeansCode>/);
    expect(xml["invoice.ubl.xml"]).toContain('<cbc:EndpointID schemeID="EM">');
    expect(xml["credit-note.ubl.xml"]).toMatch(/<CreditNote[\s>]/);
    expect(xml["peppol.ubl.xml"]).toContain(`<cbc:EndpointID schemeID="0204">${LEITWEG}</cbc:EndpointID>`);
    expect(xml["invoice.cii.xml"]).toContain("<ram:ID>urn:cen.eu:en16931:2017</ram:ID>");
    expect(xml["invoice.cii.xml"]).toContain(`<ram:BuyerReference>${LEITWEG}</ram:BuyerReference>`);

    const xmlFolder = path.join(folder, "xml");
    await mkdir(xmlFolder, { recursive: true });
    for (const [name, text] of Object.entries(xml)) await writeFile(path.join(xmlFolder, name), text);
    const { problems, warnings, xrechnung } = await validateFolder(xmlFolder);
    expect(xrechnung).toEqual(["card.ubl.xml", "credit-note.ubl.xml", "invoice.ubl.xml", "peppol.ubl.xml"]);
    for (const [file, found] of Object.entries(problems)) expect(found, `${file}: ${warnings[file]}`).toEqual([]);

    // Removed again: the company's next e-invoice is as before.
    expect((await post({ intent: "leitweg-remove" })).status).toBe(302);
    expect(await invoiceUbl()).toBe(before);
  }, 120_000);
});
