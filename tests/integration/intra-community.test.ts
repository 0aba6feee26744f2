/**
 * Goods to a VAT-registered business in another member state (docs/decisions/0010-invoice-at-shipping.md):
 * the checkout decides an intra-community supply, the order paid (or confirmed on account) has its
 * pro-forma and no invoice until it ships whole; then its invoice is numbered, dated the day it shipped,
 * posted to the ledger, and its UBL is category K with both VAT numbers and the day of the supply, which
 * the EN 16931 rules and OpenPeppol's accept. Through the real checkout, payment and warehouse services.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { EMPTY_ADDRESS, type PostalAddress } from "~/domain/address";
import { setCompanyTerms } from "~/models/company.server";
import { setTaxProfile } from "~/models/user-admin.server";
import { getUserById } from "~/models/user.server";
import { customerPricing } from "~/services/pricing.server";
import { placeOrder } from "~/orders/checkout.server";
import { documentsOf, orderDocumentFor } from "~/orders/documents.server";
import { ublOf } from "~/orders/e-invoice.server";
import { LedgerEntry } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { createPart, createUser } from "../setup/factories";
import { validateFolder } from "../setup/e-invoice-rules";
import { staff } from "../setup/paid-orders";

const STUTTGART: PostalAddress = {
  ...EMPTY_ADDRESS,
  company: "Nordwerk Fahrzeugteile GmbH",
  line1: "Industriestraße 114",
  city: "Stuttgart",
  postalCode: "70565",
  country: "DE",
};

/** A German business with its VAT number checked by staff, ordering 40 units of a part at $12.50. */
async function germanOrder(onAccount = false) {
  const user = await createUser({ name: "Katharina Vogel" });
  await setTaxProfile(user.id, { country: "DE", state: null, vatNumber: "DE811907980", exemptionCertificate: null });
  if (onAccount) await setCompanyTerms(user.companyId!, { termsDays: 30, creditLimitCents: 10_000_000 });
  const part = await createPart({ availableQuantity: 500, minOrderQuantity: 10, priceCents: 1_250 });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 40 }],
    phone: "+49 711 000000",
    delivery: STUTTGART,
    user: await getUserByIdOrThrow(user.id),
    pricing: await customerPricing({ id: user.id }),
    ...(onAccount ? { payment: "account" as const, onAccount: { termsDays: 30 } } : {}),
  });
  if (!placed.ok) throw new Error(`not placed: ${JSON.stringify(placed)}`);
  return { user, order: placed.order };
}

async function getUserByIdOrThrow(id: string) {
  const user = await getUserById(id);
  if (!user) throw new Error("no user");
  return user;
}

describe("an intra-community supply", () => {
  test("is invoiced when it ships whole: pro-forma before, then its invoice dated that day, in the ledger, category K with the day of the supply", async () => {
    const { order: placed } = await germanOrder();
    expect(placed.taxLines).toMatchObject([{ kind: "intra-community", amountCents: 0 }]);
    expect(placed.totalCents).toBe(40 * 1_250);
    const paid = await recordPayment(
      placed.id,
      { amountCents: placed.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "SEPA-77" },
      staff,
    );
    if (!paid.ok) throw new Error(paid.message);
    // Paid, not shipped: no invoice number, its pro-forma says when the invoice comes, nothing in the ledger.
    let order = (await getOrderById(placed.id))!;
    expect(order.status).toBe("paid");
    expect(order.invoiceNumber).toBeNull();
    expect(documentsOf(order, "customer")).toEqual(["pro-forma"]);
    const admin = await createUser({ role: "admin" });
    const proForma = await orderDocumentFor(admin, order.id, "pro-forma");
    if (!proForma.ok) throw new Error("no pro-forma");
    expect(proForma.data.order.invoiceAtShipping).toBe(true);
    expect(await LedgerEntry.countDocuments({ orderId: order.id })).toBe(0);

    // A first parcel: still not whole, still no invoice.
    const first = await shipOrder(
      order.id,
      { carrier: "dhl", trackingNumber: "JD0001", lines: [{ lineIndex: 0, quantity: 15 }] },
      { ...staff, current: order },
    );
    if (!first.ok) throw new Error(first.message);
    expect(first.order.invoiceNumber).toBeNull();
    // The rest: shipped whole, invoiced that day and posted (its invoice and the payment received before).
    const rest = await shipOrder(
      order.id,
      { carrier: "dhl", trackingNumber: "JD0002" },
      { ...staff, current: first.order },
    );
    if (!rest.ok) throw new Error(rest.message);
    order = (await getOrderById(order.id))!;
    expect(order.status).toBe("shipped");
    expect(order.invoiceNumber).toBeGreaterThan(0);
    expect(order.invoicedAt).toBe(order.shippedAt);
    expect(documentsOf(order, "customer")).toEqual(["invoice"]);
    const posted = await LedgerEntry.find({ orderId: order.id }).lean();
    expect(posted.map((entry) => entry.kind).sort()).toEqual(["invoice", "payment"]);
    expect(posted.find((entry) => entry.kind === "invoice")?.amountCents).toBe(40 * 1_250);

    const invoice = await orderDocumentFor(admin, order.id, "invoice");
    if (!invoice.ok) throw new Error("no invoice");
    const ubl = await ublOf({ data: invoice.data });
    expect(ubl).toMatch(/<cac:TaxCategory>\s*<cbc:ID>K<\/cbc:ID>/);
    expect(ubl).toContain("<cbc:TaxExemptionReasonCode>VATEX-EU-IC</cbc:TaxExemptionReasonCode>");
    expect(ubl).toContain(`<cbc:ActualDeliveryDate>${order.shippedAt!.slice(0, 10)}</cbc:ActualDeliveryDate>`);
    expect(ubl).toContain(`<cbc:IssueDate>${order.shippedAt!.slice(0, 10)}</cbc:IssueDate>`);
    expect(ubl).toContain("DE811907980");
    expect(ubl).toContain("NL859324710B01");
    expect(ubl).toContain("Article 138");
    const folder = await mkdtemp(path.join(tmpdir(), "intra-community-"));
    try {
      await writeFile(path.join(folder, "intra-community.ubl.xml"), ubl);
      const { problems } = await validateFolder(folder);
      expect(problems["intra-community.ubl.xml"]).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);

  test("on account: confirmed without an invoice, then invoiced when shipped and due its terms after that day", async () => {
    const { order: placed } = await germanOrder(true);
    expect(placed.status).toBe("account");
    expect(placed.invoiceNumber).toBeNull();
    const sent = await shipOrder(
      placed.id,
      { carrier: "dhl", trackingNumber: "JD0003" },
      { ...staff, current: placed },
    );
    if (!sent.ok) throw new Error(sent.message);
    const order = (await getOrderById(placed.id))!;
    expect(order.invoiceNumber).toBeGreaterThan(0);
    expect(order.invoicedAt).toBe(order.shippedAt);
    expect(new Date(order.dueAt!).getTime() - new Date(order.invoicedAt!).getTime()).toBe(30 * 86_400_000);
  });
});
