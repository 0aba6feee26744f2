/**
 * Invoices, pro-formas and packing slips, as the shop serves them (its production build, over
 * HTTP, against the real database): who may see which, what each shows, and the PDF.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { company } from "~/content/company";
import type { Currency } from "~/domain/money";
import { Outbox } from "~/models/outbox.server";
import { mailOrderPlaced } from "~/orders/mail.server";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { recordShipment } from "~/orders/model/shipments.server";
import { loader as documentLoader } from "~/routes/documents.$id.$kind";
import { loader as pdfLoader } from "~/routes/documents.$id.$kind_.pdf";
import { closePdfBrowser } from "~/services/pdf.server";
import { createPart, createUser, sessionCookieHeader, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { fetchPage, getRequest, loaderArgs, pageText, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";

afterAll(() => closePdfBrowser());

async function paidOrderOf(customer: { id: string; email: string; name: string }, status: "paid" | "shipped" = "paid") {
  const cheap = { ...(await createPart({ priceCents: 1250, name: "Brake Caliper Bracket" })), partNumber: "BC-2201" };
  const dear = { ...(await createPart({ priceCents: 4999, name: "Radiator Core" })), partNumber: "RC-7710" };
  const order = await createOrder({
    user: customer,
    status,
    poNumber: "PO-77-ALPHA",
    lines: [
      { part: cheap, quantity: 100 },
      { part: dear, quantity: 120 },
    ],
  });
  return order;
}

describe("documents of an order", () => {
  test("the invoice of a paid order shows its number, the lines and the totals, the seller and the buyer's company", async () => {
    const { user: customer, cookie } = await signedIn("customer", "Carla Buyer");
    await updateCompanyOf(customer.id, {
      $set: {
        companyName: "Buyer Garage Inc",
        taxId: "DE123456789",
        country: "DE",
        billingAddress: "Hauptstr. 5\n10115 Berlin",
      },
    });
    const order = await paidOrderOf(customer);
    // The order missed its number (a crash between the writes): the invoice gives it one.
    expect((await Order.findById(order.id).lean())?.invoiceNumber).toBeUndefined();

    const response = await fetchPage(`/documents/${order.id}/invoice`, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const page = await pageText(response);
    const number = (await Order.findById(order.id).lean())?.invoiceNumber;
    expect(number).toBeGreaterThan(0);
    expect(page).toContain("Invoice");
    expect(page).toContain(formatInvoiceNumber(number!));
    expect(page).toContain("PartsWorks Manufacturing LLC");
    expect(page).toContain("EIN 38-4417290");
    expect(page).toContain("Buyer Garage Inc");
    expect(page).toContain("DE123456789");
    expect(page).toContain("10115 Berlin");
    expect(page).toContain("PO-77-ALPHA");
    expect(page).toContain("1 Test Street, Springfield");
    expect(page).toContain("BC-2201");
    expect(page).toContain("$12.50");
    expect(page).toContain("$1,250.00"); // 100 x $12.50
    expect(page).toContain("$5,998.80"); // 120 x $49.99
    expect(page).toContain("$7,248.80"); // the order's total
    expect(page).not.toContain("Pro-forma");

    // Asked again, the same number: it is given once.
    await fetchPage(`/documents/${order.id}/invoice`, cookie);
    expect((await Order.findById(order.id).lean())?.invoiceNumber).toBe(number);

    // The order page links to it and to its PDF.
    const orderPage = await (await fetchPage(`/dashboard/orders/${order.id}`, cookie)).text();
    expect(orderPage).toContain(`href="/documents/${order.id}/invoice"`);
    expect(orderPage).toContain(`href="/documents/${order.id}/invoice/pdf"`);
    expect(orderPage).not.toContain(`/documents/${order.id}/packing-slip`);
  });

  test("an unpaid order has a pro-forma: no invoice number, payable before dispatch with the bank details and the order number as reference; its invoice link leads there", async () => {
    const { user: customer, cookie } = await signedIn();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 800 }), quantity: 150 });

    const response = await fetchPage(`/documents/${order.id}/pro-forma`, cookie);
    expect(response.status).toBe(200);
    const page = await pageText(response);
    expect(page).toContain("Pro-forma invoice");
    expect(page).toContain("Payable before dispatch: $1,200.00 due.");
    expect(page).toContain(`Order number ${order.number}`);
    expect(page).toContain("Account number 4401 2231 9087");
    expect(page).toContain(`Payment reference ${order.number}`);
    expect(page).not.toContain("Invoice number");
    expect(page).not.toMatch(/INV-\d+/);
    expect((await Order.findById(order.id).lean())?.invoiceNumber).toBeUndefined();

    const invoice = await fetchPage(`/documents/${order.id}/invoice`, cookie);
    expect(invoice.status).toBe(302);
    expect(invoice.headers.get("location")).toBe(`/documents/${order.id}/pro-forma`);
    const orderPage = await (await fetchPage(`/dashboard/orders/${order.id}`, cookie)).text();
    expect(orderPage).toContain(`href="/documents/${order.id}/pro-forma"`);
  });

  test("the packing slip (for admins) has the parts, quantities, delivery address and PO number, and no price", async () => {
    const customer = await createUser();
    const order = await paidOrderOf(customer, "shipped");
    const { cookie: admin } = await signedIn("admin");

    const response = await fetchPage(`/documents/${order.id}/packing-slip`, admin);
    expect(response.status).toBe(200);
    const page = await pageText(response);
    expect(page).toContain("Packing slip");
    expect(page).toContain("BC-2201");
    expect(page).toContain("Radiator Core");
    expect(page).toContain("120");
    expect(page).toContain("1 Test Street, Springfield");
    expect(page).toContain("PO-77-ALPHA");
    expect(page).not.toMatch(/\$\s?\d/);
    expect(page).not.toContain("Total paid");

    const adminPage = await (await fetchPage(`/dashboard/manageOrders/${order.id}`, admin)).text();
    expect(adminPage).toContain(`href="/documents/${order.id}/packing-slip"`);
    expect(adminPage).toContain(`href="/documents/${order.id}/invoice"`);
    // An admin sees any customer's invoice too.
    expect((await fetchPage(`/documents/${order.id}/invoice`, admin)).status).toBe(200);
  });

  test("another customer, or a customer asking for the packing slip, gets 404; a visitor is sent to sign in", async () => {
    const owner = await createUser();
    const order = await paidOrderOf(owner);
    const { cookie: stranger } = await signedIn();
    for (const kind of ["invoice", "pro-forma", "packing-slip"]) {
      for (const suffix of ["", "/pdf"]) {
        const response = await fetchPage(`/documents/${order.id}/${kind}${suffix}`, stranger);
        expect(response.status, `${kind}${suffix}`).toBe(404);
        expect(await response.text()).not.toContain("PO-77-ALPHA");
      }
    }
    // The same answer as for an order that does not exist, or a document that does not.
    expect((await fetchPage(`/documents/${"a".repeat(24)}/invoice`, stranger)).status).toBe(404);
    expect((await fetchPage(`/documents/not-an-id/invoice`, stranger)).status).toBe(404);
    const ownerCookie = (await signedIn()).cookie; // a different customer again
    expect((await fetchPage(`/documents/${order.id}/receipt`, ownerCookie)).status).toBe(404);

    const ownCookie = await sessionCookieHeader(owner.id);
    expect((await fetchPage(`/documents/${order.id}/packing-slip`, ownCookie)).status).toBe(404);
    // The invoice number is not given to a stranger's request either.
    expect((await Order.findById(order.id).lean())?.invoiceNumber).toBeUndefined();

    const visitor = await fetchPage(`/documents/${order.id}/invoice`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    // A cancelled order has no document.
    const cancelled = await createOrder({ user: owner, status: "cancelled" });
    expect((await fetchPage(`/documents/${cancelled.id}/pro-forma`, ownCookie)).status).toBe(404);
  });

  test("a parcel's packing slip lists that parcel, the whole order's what is left; named apart; the customer opens their parcel's", async () => {
    const { user: customer, cookie } = await signedIn();
    const caliper = { ...(await createPart({ name: "Brake Caliper Bracket" })), partNumber: "BC-2201" };
    const radiator = { ...(await createPart({ name: "Radiator Core" })), partNumber: "RC-7710" };
    const order = await createOrder({
      user: customer,
      status: "paid",
      lines: [
        { part: caliper, quantity: 250 },
        { part: radiator, quantity: 100 },
      ],
    });
    await Order.updateOne({ _id: order.id }, { $set: { "lines.0.backorderedQuantity": 50 } });
    const shipped = await recordShipment(order.id, {
      carrier: "ups",
      trackingNumber: "1Z999AA1",
      note: "Two boxes strapped together",
      lines: [
        { lineIndex: 0, quantity: 100 },
        { lineIndex: 1, quantity: 100 },
      ],
    });
    expect(shipped.outcome).toBe("shipped");
    const { cookie: admin } = await signedIn("admin");

    // The customer follows the parcel's link from their order page.
    const orderPage = await (await fetchPage(`/dashboard/orders/${order.id}`, cookie)).text();
    expect(orderPage).toContain(`href="/documents/${order.id}/packing-slip?parcel=1"`);
    const parcel = await fetchPage(`/documents/${order.id}/packing-slip?parcel=1`, cookie);
    expect(parcel.status).toBe(200);
    const parcelPage = await pageText(parcel);
    expect(parcelPage).toContain("Parts in parcel 1");
    expect(parcelPage).toContain("BC-2201 Brake Caliper Bracket 100 ");
    expect(parcelPage).toContain("RC-7710 Radiator Core 100 ");
    expect(parcelPage).toContain("Total quantity 200 ");
    expect(parcelPage).toContain("Note: Two boxes strapped together");
    expect(parcelPage).not.toMatch(/\$\s?\d/);

    // The whole order's slip (staff's) lists what is left: 150 calipers, 50 of them on backorder.
    const whole = await pageText(await fetchPage(`/documents/${order.id}/packing-slip`, admin));
    expect(whole).toContain("Parts still to ship");
    expect(whole).toContain("BC-2201 Brake Caliper Bracket 150 50 ");
    expect(whole).not.toContain("RC-7710");
    expect(whole).toContain("Total quantity 150 50 ");

    const pdfName = async (path: string, who: string) => {
      const response = await fetchPage(path, who);
      await response.arrayBuffer();
      expect(response.status, path).toBe(200);
      return response.headers.get("content-disposition");
    };
    expect(await pdfName(`/documents/${order.id}/packing-slip/pdf?parcel=1`, cookie)).toBe(
      `attachment; filename="packing-slip-${order.number}-parcel-1.pdf"`,
    );
    expect(await pdfName(`/documents/${order.id}/packing-slip/pdf`, admin)).toBe(
      `attachment; filename="packing-slip-${order.number}.pdf"`,
    );

    // Another customer, or a parcel the order does not have, is the same 404; the whole slip is staff's.
    const { cookie: stranger } = await signedIn();
    for (const path of ["packing-slip?parcel=1", "packing-slip/pdf?parcel=1"]) {
      const refused = await fetchPage(`/documents/${order.id}/${path}`, stranger);
      expect(refused.status, path).toBe(404);
      expect(await refused.text()).not.toContain("Radiator Core");
    }
    expect((await fetchPage(`/documents/${order.id}/packing-slip?parcel=2`, cookie)).status).toBe(404);
    expect((await fetchPage(`/documents/${order.id}/packing-slip`, cookie)).status).toBe(404);
  });

  test("the PDF is a real PDF, named after the invoice number, printed on the server", async () => {
    const { user: customer, cookie } = await signedIn();
    const order = await paidOrderOf(customer);

    const response = await fetchPage(`/documents/${order.id}/invoice/pdf`, cookie);
    // Read at once: a body left unread while the server closes the socket trips undici's
    // uncatchable assert(!this.paused) (nodejs/undici#5360).
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const number = (await Order.findById(order.id).lean())?.invoiceNumber;
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="invoice-${formatInvoiceNumber(number!)}.pdf"`,
    );
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const raw = bytes.toString("latin1");
    expect(raw.match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
    expect(raw.trimEnd().endsWith("%%EOF")).toBe(true);
    expect(bytes.length).toBeGreaterThan(5_000);

    // The packing slip's PDF on A4, called in this process (the same loader the server runs).
    const { cookie: admin } = await signedIn("admin");
    const slip = await settle(
      pdfLoader(
        loaderArgs(getRequest(`/documents/${order.id}/packing-slip/pdf?paper=a4`, { cookie: admin }), {
          id: order.id,
          kind: "packing-slip",
        }),
      ),
    );
    expect(slip.status).toBe(200);
    expect(slip.headers.get("content-disposition")).toBe(`attachment; filename="packing-slip-${order.number}.pdf"`);
    const slipBytes = Buffer.from(await slip.arrayBuffer());
    expect(slipBytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // A4 is 595 x 842 points.
    expect(slipBytes.toString("latin1")).toMatch(
      /\/MediaBox\s*\[\s*0 0 595(\.\d+)? 841\.\d+|\/MediaBox\s*\[\s*0 0 595(\.\d+)? 842/,
    );

    // The page's loader answers the same data the PDF prints.
    const data = await settle(
      documentLoader(
        loaderArgs(getRequest(`/documents/${order.id}/invoice`, { cookie }), { id: order.id, kind: "invoice" }),
      ),
    );
    expect((await data.json()).data.invoiceNumber).toBe(formatInvoiceNumber(number!));
  });
});

/**
 * An order in `currency` (its `currency` field, as checkout writes it): unpaid by bank transfer against
 * its pro-forma, or confirmed on account with its invoice open (30 days).
 */
async function orderIn(
  currency: Currency,
  customer: { id: string; email: string; name: string },
  how: "bank-transfer" | "account",
) {
  const part = { ...(await createPart({ priceCents: 1250, name: "Brake Caliper Bracket" })), partNumber: "BC-2201" };
  const order = await createOrder({ user: customer, part, quantity: 100 });
  await Order.updateOne(
    { _id: order.id },
    {
      $set: {
        currency,
        paymentMethod: how,
        ...(how === "account"
          ? {
              status: "account",
              termsDays: 30,
              invoicedAt: new Date(),
              dueAt: new Date(Date.now() + 30 * 86_400_000),
            }
          : {}),
      },
      ...(how === "account" ? { $unset: { holdUntil: 1 } } : {}),
    },
  );
  return order;
}

/** The page's text from `from` to `to`: the screen's own content, without the shop's header and footer. */
function between(page: string, from: string, to: string) {
  const start = page.indexOf(from);
  expect(start, `"${from}" on the page`).toBeGreaterThanOrEqual(0);
  const end = page.indexOf(to, start);
  return page.slice(start, end < 0 ? undefined : end);
}

/** A document's own text: from its title to its footer line, without the shop's header and footer. */
const documentText = async (path: string, cookie: string) =>
  between(await pageText(await fetchPage(path, cookie)), "Download PDF (A4)", `· ${company.phone.display}`);

/** The text of a PDF the shop serves, as poppler's `pdftotext` reads it, whitespace folded. */
async function pdfText(path: string, cookie: string) {
  const response = await fetchPage(path, cookie);
  const pdf = Buffer.from(await response.arrayBuffer());
  expect(response.status, path).toBe(200);
  const child = promisify(execFile)("pdftotext", ["-enc", "UTF-8", "-", "-"], { maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin!.end(pdf);
  return (await child).stdout.replace(/\s+/g, " ");
}

const NO_DOLLARS = /\$\s?\d|US dollars|\(USD\)|Routing number|4401 2231 9087/;

describe("an order in euros or pounds", () => {
  test("euros: the pro-forma, the invoice and its e-invoice, the pay screen and the order page show € and the IBAN", async () => {
    const { user: customer, cookie } = await signedIn("customer", "Emma Euro");
    const unpaid = await orderIn("EUR", customer, "bank-transfer");

    const proForma = await documentText(`/documents/${unpaid.id}/pro-forma`, cookie);
    expect(proForma).toContain("Payable before dispatch: €1,250.00 due.");
    expect(proForma).toContain("€12.50");
    expect(proForma).toContain("Total due (EUR)");
    expect(proForma).toContain("IBAN DE29 5004 0000 0614 7283 00");
    expect(proForma).toContain("BIC COBADEFFXXX");
    expect(proForma).toContain(`Payment reference ${unpaid.number}`);
    expect(proForma).not.toMatch(NO_DOLLARS);
    // Its PDF prints the same.
    const printed = await pdfText(`/documents/${unpaid.id}/pro-forma/pdf`, cookie);
    expect(printed).toContain("€1,250.00");
    expect(printed).toContain("IBAN DE29 5004 0000 0614 7283 00");
    expect(printed).not.toMatch(NO_DOLLARS);

    const pay = await pageText(await fetchPage(`/dashboard/payment/${unpaid.id}`, cookie));
    const payScreen = between(pay, "Pay for your order", "Back to My Orders");
    expect(payScreen).toContain("€1,250.00");
    expect(payScreen).toContain("€12.50 per unit, in euros.");
    expect(payScreen).toContain("Send €1,250.00 to our account");
    expect(payScreen).toContain("Amount €1,250.00 (euros)");
    expect(payScreen).toContain("IBAN DE29 5004 0000 0614 7283 00");
    expect(payScreen).toContain("Commerzbank AG");
    expect(payScreen).not.toMatch(NO_DOLLARS);

    const orderPage = await pageText(await fetchPage(`/dashboard/orders/${unpaid.id}`, cookie));
    const ownOrder = between(orderPage, `Order ${unpaid.number}`, "Order again");
    expect(ownOrder).toContain("Total €1,250.00");
    expect(ownOrder).toContain("Balance €1,250.00");
    expect(ownOrder).not.toMatch(NO_DOLLARS);

    // The mail of the order placed: its amounts and the bank account in euros.
    expect(await mailOrderPlaced((await getOrderById(unpaid.id))!, [])).toBe(true);
    const mail = await Outbox.findById(`order:${unpaid.id}:placed`).lean();
    expect(mail?.text).toContain("at €12.50 each: €1,250.00");
    expect(mail?.text).toContain("Amount: €1,250.00 (euros)");
    expect(mail?.text).toContain("IBAN: DE29 5004 0000 0614 7283 00; BIC: COBADEFFXXX");
    expect(mail?.text).not.toMatch(NO_DOLLARS);

    // On account: the invoice asks for the open amount, paid into the euro account.
    const invoiced = await orderIn("EUR", customer, "account");
    const invoice = await documentText(`/documents/${invoiced.id}/invoice`, cookie);
    expect(invoice).toContain("On account: €1,250.00 still due");
    expect(invoice).toContain("Total due (EUR)");
    expect(invoice).toContain("IBAN DE29 5004 0000 0614 7283 00");
    expect(invoice).not.toMatch(NO_DOLLARS);
    // Its e-invoice: a SEPA credit transfer to the same IBAN, with the bank's BIC (BG-16, BG-17).
    const ubl = await (await fetchPage(`/documents/${invoiced.id}/invoice/ubl`, cookie)).text();
    expect(ubl).toMatch(/<cbc:PaymentMeansCode[^>]*>58<\/cbc:PaymentMeansCode>/);
    expect(ubl).toContain("<cbc:ID>DE29500400000614728300</cbc:ID>");
    expect(ubl).toContain("COBADEFFXXX");
    expect(ubl).toContain('currencyID="EUR"');
    expect(ubl).not.toContain("440122319087");
  });

  test("pounds: the pro-forma, the invoice and the pay screen show £ and the sort code and account number", async () => {
    const { user: customer, cookie } = await signedIn("customer", "Gareth Pound");
    const unpaid = await orderIn("GBP", customer, "bank-transfer");

    const proForma = await documentText(`/documents/${unpaid.id}/pro-forma`, cookie);
    expect(proForma).toContain("Payable before dispatch: £1,250.00 due.");
    expect(proForma).toContain("Total due (GBP)");
    expect(proForma).toContain("Sort code 20-32-53");
    expect(proForma).toContain("Account number 73849215");
    expect(proForma).toContain("IBAN (from abroad) GB12 BARC 2032 5373 8492 15");
    expect(proForma).not.toMatch(NO_DOLLARS);
    expect(proForma).not.toContain("€");

    const pay = between(
      await pageText(await fetchPage(`/dashboard/payment/${unpaid.id}`, cookie)),
      "Pay for your order",
      "Back to My Orders",
    );
    expect(pay).toContain("£12.50 per unit, in pounds sterling.");
    expect(pay).toContain("Amount £1,250.00 (pounds sterling)");
    expect(pay).toContain("Sort code 20-32-53");
    expect(pay).toContain("Account number 73849215");
    expect(pay).not.toMatch(NO_DOLLARS);

    const invoiced = await orderIn("GBP", customer, "account");
    const invoice = await documentText(`/documents/${invoiced.id}/invoice`, cookie);
    expect(invoice).toContain("On account: £1,250.00 still due");
    expect(invoice).toContain("£12.50");
    expect(invoice).toContain("Sort code 20-32-53");
    expect(invoice).not.toMatch(NO_DOLLARS);

    // Staff's page of the order: its amounts, and the amount they type, in pounds.
    const { cookie: admin } = await signedIn("admin");
    const staffPage = await (await fetchPage(`/dashboard/manageOrders/${invoiced.id}`, admin)).text();
    expect(staffPage).toContain("Amount received (GBP)");
    const staff = between(await pageText(new Response(staffPage)), `Order ${invoiced.number}`, "Record payment");
    expect(staff).toContain("Total £1,250.00");
    expect(staff).toContain("At most the balance, £1,250.00.");
    expect(staff).not.toMatch(NO_DOLLARS);
  });
});
