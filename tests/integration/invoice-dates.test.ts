/**
 * One invoice date: the order page, the invoice, the statement, the CSV and the API read the same
 * stored date, and the due date is that date plus the terms; the demo's orders say how and when
 * they were paid; the migration re-dates invoices numbered after the fact. Against the real local
 * database, through the screens' own loaders, on the demo data as it is seeded on first start.
 */
import { parse } from "csv-parse/sync";
import mongoose from "mongoose";
import { beforeAll, describe, expect, test } from "vitest";
import { orderDocumentFor } from "~/orders/documents.server";
import { Order } from "~/orders/model/schema.server";
import { toOrderView } from "~/orders/model/view.server";
import { getUserByEmail, type UserView } from "~/models/user.server";
import { loader as adminOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { loader as ordersCsv } from "~/routes/dashboard.manageOrders_.export";
import { loader as statementLoader } from "~/routes/dashboard.statement/route";
import { orderJson } from "~/orders/api-view.server";
import { postOrderToLedger } from "~/orders/ledger.server";
import { ensureDemoData } from "~/demo/data.server";
import * as invoiceDates from "../../scripts/migrations/20261127160000-invoice-dates.js";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (iso: string | Date | null | undefined) => (iso ? new Date(iso).toISOString().slice(0, 10) : null);

let admin: UserView;
let adminCookie: string;
beforeAll(async () => {
  await ensureDemoData();
  admin = (await getUserByEmail("admin@partsworks.test"))!;
  adminCookie = await sessionCookieHeader(admin.id);
});

async function invoiceOf(orderId: string) {
  const found = await orderDocumentFor(admin, orderId, "invoice");
  if (!found.ok) throw new Error(`No invoice for ${orderId}`);
  return found.data;
}

describe("one invoice date", () => {
  test("the order page, the invoice, the statement, the CSV and the API give every demo invoice on account the same date, due that date plus its terms", async () => {
    const owner = (await getUserByEmail("trade@partsworks.test"))!;
    const docs = await Order.find({ companyId: owner.companyId, invoiceNumber: { $exists: true } }).lean();
    expect(docs.length).toBeGreaterThanOrEqual(4);
    // The statement reads the ledger, which the ledger sweep posts from the seeded orders.
    for (const doc of docs) await postOrderToLedger(toOrderView(doc));

    const statement = await settle(
      statementLoader(loaderArgs(getRequest("/dashboard/statement", { cookie: await sessionCookieHeader(owner.id) }))),
    );
    expect(statement.status).toBe(200);
    const statementRows = new Map(
      ((await statement.json()) as { orders: { number: string; invoicedAt: string; dueAt: string }[] }).orders.map(
        (row) => [row.number, row],
      ),
    );
    expect(statementRows.size).toBeGreaterThanOrEqual(3);

    const csv = await settle(
      ordersCsv(
        // The company's orders: its buyer's approved order on account is one of its invoices too.
        loaderArgs(getRequest(`/dashboard/manageOrders/export?company=${owner.companyId}`, { cookie: adminCookie })),
      ),
    );
    const text = new TextDecoder().decode(await csv.arrayBuffer()).replace(/^\uFEFF/, "");
    const csvRows = new Map(
      (parse(text, { columns: true }) as Record<string, string>[]).map((row) => [row["Order number"], row]),
    );

    for (const doc of docs) {
      const view = toOrderView(doc);
      const invoiceDay = day(doc.invoicedAt);
      expect(invoiceDay, view.number).not.toBeNull();
      // Confirmed on account when placed: invoiced that day, due 30 days after.
      expect(invoiceDay, view.number).toBe(day(doc.createdAt));
      expect(doc.dueAt!.getTime() - doc.invoicedAt!.getTime(), view.number).toBe(30 * DAY_MS);

      const page = await settle(
        adminOrderLoader(
          loaderArgs(getRequest(`/dashboard/manageOrders/${view.id}`, { cookie: adminCookie }), { id: view.id }),
        ),
      );
      const shown = ((await page.json()) as { order: { invoicedAt: string; dueAt: string } }).order;
      expect(day(shown.invoicedAt), view.number).toBe(invoiceDay);
      expect(day(shown.dueAt), view.number).toBe(day(doc.dueAt));

      const invoice = await invoiceOf(view.id);
      expect(day(invoice.order.invoicedAt), view.number).toBe(invoiceDay);
      expect(day(invoice.order.dueAt), view.number).toBe(day(doc.dueAt));

      expect(day(orderJson(view).invoicedAt), view.number).toBe(invoiceDay);
      expect(day(csvRows.get(view.number)?.["Invoice date (UTC)"]), view.number).toBe(invoiceDay);
      expect(day(csvRows.get(view.number)?.["Due (UTC)"]), view.number).toBe(day(doc.dueAt));
      const open = statementRows.get(view.number);
      if (doc.paidAt) expect(open, view.number).toBeUndefined();
      else {
        expect(day(open?.invoicedAt), view.number).toBe(invoiceDay);
        expect(day(open?.dueAt), view.number).toBe(day(doc.dueAt));
      }
    }
  });

  test("an invoice paid by card or transfer is dated the day it was paid; an intra-community supply the day it shipped", async () => {
    const paid = await Order.find({ invoiceNumber: { $exists: true }, dueAt: { $exists: false } }).lean();
    expect(paid.length).toBeGreaterThanOrEqual(3);
    const shippedIntraCommunity = paid.filter((doc) => doc.taxLines?.some((line) => line.kind === "intra-community"));
    expect(shippedIntraCommunity.length).toBeGreaterThanOrEqual(1);
    for (const doc of paid) {
      const issued = shippedIntraCommunity.includes(doc) ? doc.shippedAt : doc.paidAt;
      expect(day(doc.invoicedAt), String(doc.number)).toBe(day(issued));
      expect(day((await invoiceOf(doc._id.toString())).order.invoicedAt)).toBe(day(issued));
    }
  });
});

describe("how the demo's orders were paid", () => {
  test("an invoice paid by bank transfer lists the transfer with its reference; a part-paid one shows what is still due", async () => {
    const transferred = (await Order.findOne({ poNumber: "NFG-4410" }).lean())!;
    const invoice = await invoiceOf(transferred._id.toString());
    expect(invoice.order.terms).toBe("Net 30 days");
    expect(invoice.order.paymentLine).toBe("On account, net 30 days; paid by bank transfer");
    expect(invoice.order.received).toEqual([
      expect.objectContaining({
        method: "Bank transfer",
        reference: "NFG-4410 / SO",
        amountCents: transferred.totalCents,
      }),
    ]);
    expect(invoice.order.balanceCents).toBe(0);

    const partPaid = (await Order.findOne({ poNumber: "NFG-4432" }).lean())!;
    const part = await invoiceOf(partPaid._id.toString());
    expect(part.order.balanceCents).toBe(partPaid.totalCents - partPaid.paidCents!);
    expect(part.order.balanceCents).toBeGreaterThan(0);
    expect(part.order.paymentLine).toMatch(/part-paid by bank transfer, \$[\d,.]+ still due/);

    // Casey chose bank transfer and staff recorded it: the invoice does not say card.
    const casey = (await Order.findOne({ userEmail: "customer@partsworks.test", status: "paid" }).lean())!;
    const caseyInvoice = await invoiceOf(casey._id.toString());
    expect(caseyInvoice.order.terms).toBe("Bank transfer before dispatch (pro-forma)");
    expect(caseyInvoice.order.paymentLine).toBe("Paid by bank transfer");

    // The distributor's order awaits its transfer: unpaid, its stock held, with a pro-forma.
    const waiting = (await Order.findOne({
      userEmail: "distributor@partsworks.test",
      paymentMethod: "bank-transfer",
    }).lean())!;
    expect(waiting.status).toBe("unpaid");
    expect(waiting.holdUntil!.getTime()).toBeGreaterThan(Date.now());
    const proForma = await orderDocumentFor(admin, waiting._id.toString(), "pro-forma");
    expect(proForma.ok).toBe(true);
    expect((await orderDocumentFor(admin, waiting._id.toString(), "invoice")).ok).toBe(false);
  });
});

describe("the invoice-dates migration", () => {
  test("re-dates invoices numbered after they were issued, leaves correct ones alone, and changes nothing run twice", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 1_000 });
    const placed = new Date(Date.now() - 40 * DAY_MS);
    const base = {
      lines: [
        {
          partId: new mongoose.Types.ObjectId(part.id),
          partNumber: part.partNumber,
          productName: part.name,
          unitPriceCents: 1_000,
          quantity: 100,
          lineTotalCents: 100_000,
        },
      ],
      totalCents: 100_000,
      phone: "555-0100",
      address: "1 Old Road",
      userId: new mongoose.Types.ObjectId(customer.id),
      userEmail: customer.email,
      userName: customer.name,
      createdAt: placed,
      updatedAt: placed,
    };
    const numbered = new Date();
    const [onAccount, paid, right] = await Promise.all([
      Order.create({
        ...base,
        paymentMethod: "account",
        termsDays: 30,
        dueAt: new Date(placed.getTime() + 30 * DAY_MS),
        status: "account",
        invoiceNumber: 900_001,
        invoicedAt: numbered,
      }),
      Order.create({
        ...base,
        status: "paid",
        paidAt: new Date(placed.getTime() + DAY_MS),
        paidCents: 100_000,
        invoiceNumber: 900_002,
        invoicedAt: numbered,
      }),
      Order.create({
        ...base,
        status: "paid",
        paidAt: placed,
        paidCents: 100_000,
        invoiceNumber: 900_003,
        invoicedAt: placed,
      }),
    ]);
    const db = mongoose.connection.db!;
    await invoiceDates.up(db);
    const after = async (id: mongoose.Types.ObjectId) => (await Order.findById(id).lean())!.invoicedAt!.toISOString();
    expect(await after(onAccount._id)).toBe(placed.toISOString());
    expect(await after(paid._id)).toBe(new Date(placed.getTime() + DAY_MS).toISOString());
    expect(await after(right._id)).toBe(placed.toISOString());
    await invoiceDates.up(db);
    expect(await after(onAccount._id)).toBe(placed.toISOString());
  });
});
