/**
 * Invoices, pro-formas and packing slips, as the shop serves them (its production build, over
 * HTTP, against the real database): who may see which, what each shows, and the PDF.
 */
import { afterAll, describe, expect, test } from "vitest";
import { formatInvoiceNumber } from "~/orders/model/invoice.server";
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
