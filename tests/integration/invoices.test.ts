/**
 * Invoice numbers against the real database: given once, at payment, with no gap and no duplicate
 * under 50 concurrent payments, in the order orders were invoiced; a second confirmation or a racing
 * repair takes no second number, and a number claimed before a crash is the order's when repaired.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, describe, expect, test } from "vitest";
import * as gapFreeInvoiceNumbers from "../../scripts/migrations/20261127210000-gap-free-invoice-numbers.js";
import { assignInvoiceNumber, invoiceNumbers, numberInvoicesLeft } from "~/orders/model/invoice.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { formatCreditNoteNumber } from "~/domain/credit-notes";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { loader as documentLoader } from "~/routes/documents.$id.$kind";
import { sessionCookieHeader } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { Order } from "~/orders/model/schema.server";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";

/**
 * Every number claimed is 1..n with none missing, each on the order that claimed it, claimed in
 * the order of the numbers (never given back and taken again later), and every invoiced order has one.
 */
async function expectNoGapNoDuplicate() {
  const claims = await invoiceNumbers.Registry.find({}, { _id: 1, owner: 1, createdAt: 1 })
    .sort({ _id: 1 })
    .lean<{ _id: number; owner: string; createdAt: Date }[]>();
  expect(claims.map((claim) => claim._id)).toEqual(claims.map((_, index) => index + 1));
  const times = claims.map((claim) => claim.createdAt.getTime());
  expect(times).toEqual([...times].sort((a, b) => a - b));
  const docs = await Order.find({ invoiceNumber: { $exists: true } }, { invoiceNumber: 1 }).lean();
  const numberOf = new Map(docs.map((doc) => [doc._id.toString(), doc.invoiceNumber]));
  expect(claims.filter((claim) => numberOf.get(claim.owner) !== claim._id)).toEqual([]);
  expect(docs).toHaveLength(claims.length);
}

const pay = (order: { id: string; totalCents: number }, transactionId = `pi_inv_${order.id}`) =>
  markOrderPaid({ orderId: order.id, transactionId, amountCents: order.totalCents, currency: "usd" }).then(
    (result) => result.outcome,
  );

describe("invoice numbers", () => {
  test("50 concurrent payments: 50 numbers, no gap, no duplicate; unpaid orders get none", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 700 });
    const orders = await Promise.all(
      Array.from({ length: 50 }, () => createOrder({ user: customer, part, status: "unpaid" })),
    );
    const unpaid = await createOrder({ user: customer, part, status: "unpaid" });
    const before = await invoiceNumbers.Registry.countDocuments();

    const outcomes = await Promise.all(orders.map((order) => pay(order)));
    expect(outcomes).toEqual(orders.map(() => "paid"));

    const numbers = (
      await Order.find({ _id: { $in: orders.map((order) => order.id) } }, { invoiceNumber: 1, invoicedAt: 1 }).lean()
    ).map((doc) => doc.invoiceNumber);
    expect(numbers.every((number) => Number.isInteger(number) && number! > 0)).toBe(true);
    expect(new Set(numbers).size).toBe(50);
    expect(await invoiceNumbers.Registry.countDocuments()).toBe(before + 50);
    expect((await Order.findById(unpaid.id).lean())?.invoiceNumber).toBeUndefined();
    await expectNoGapNoDuplicate();
  }, 120_000);

  test("the webhook and the return page confirming together, and repairs racing them, give one number", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "unpaid" });
    const results = await Promise.all([
      pay(order, "pi_same_1"),
      pay(order, "pi_same_1"),
      ...Array.from({ length: 8 }, () => assignInvoiceNumber(order.id)),
    ]);
    expect(results.filter((result) => result === "paid")).toHaveLength(1);
    const doc = await Order.findById(order.id).lean();
    expect(doc?.invoiceNumber).toBeGreaterThan(0);
    // Every repair that ran after the payment answered the order's one number.
    for (const result of results.slice(2)) expect([null, doc?.invoiceNumber]).toContain(result);
    expect(await assignInvoiceNumber(order.id)).toBe(doc?.invoiceNumber);
    await expectNoGapNoDuplicate();
  }, 120_000);

  test("a paid order without a number (a crash between the writes) is numbered once by the repair; a number claimed before a crash stays its own", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "paid" });
    const results = await Promise.all(Array.from({ length: 10 }, () => assignInvoiceNumber(order.id)));
    const number = (await Order.findById(order.id).lean())?.invoiceNumber;
    expect(results).toEqual(results.map(() => number));
    await expectNoGapNoDuplicate();

    // Claimed, then the process died before the order was written: a later invoice takes the next
    // number, and the repair gives the first order the number it claimed, not a new one.
    const crashed = await createOrder({ user: customer, status: "paid" });
    const claimed = await invoiceNumbers.take(crashed.id);
    const later = await createOrder({ user: customer, status: "paid" });
    expect(await assignInvoiceNumber(later.id)).toBe(claimed + 1);
    expect(await assignInvoiceNumber(crashed.id)).toBe(claimed);
    expect((await Order.findById(crashed.id).lean())?.invoiceNumber).toBe(claimed);
    await expectNoGapNoDuplicate();
    expect(await assignInvoiceNumber((await createOrder({ user: customer })).id)).toBe(null);
  });
});

describe("invoice numbers after a crash", () => {
  const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
  const invoiceProblems = async () =>
    (await checkStock({ settleMs: 0 })).problems.filter((problem) => problem.kind === "invoice-number");

  test("orders a crash left paid without a number are reported, then numbered by the sweep in the order they were paid; a cancelled one gets its invoice and credit note", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 700 });
    // What a kill right after the payment's write leaves: paid, marked for a number, no number.
    const paidWithoutNumber = async (minutesAgo: number) => {
      const order = await createOrder({ user: customer, part, status: "unpaid" });
      await Order.updateOne(
        { _id: order.id },
        {
          $set: {
            status: "paid",
            transactionId: `pi_crash_${order.id}`,
            paidAt: new Date(Date.now() - minutesAgo * 60_000),
            paidCents: order.totalCents,
            invoicePending: true,
          },
        },
      );
      return order;
    };
    const first = await paidWithoutNumber(3);
    const second = await paidWithoutNumber(2);
    // Paid meanwhile on the normal path: numbered at once, dated now.
    const meanwhile = await createOrder({ user: customer, part, status: "unpaid" });
    expect(await pay(meanwhile)).toBe("paid");
    // Cancelled by staff before the sweep came: numbered on the way, its credit note corrects that invoice.
    const cancelled = await paidWithoutNumber(1);
    const cancel = await cancelPaidOrderWithCredit(cancelled.id, staff);
    expect(cancel.ok).toBe(true);

    expect((await invoiceProblems()).map((problem) => problem.name).sort()).toEqual(
      [first, second].map((order) => `order ${order.number}`).sort(),
    );
    expect(await numberInvoicesLeft({ graceMs: 0 })).toBe(2);
    expect(await numberInvoicesLeft({ graceMs: 0 })).toBe(0);
    const [a, b, c, m] = await Promise.all(
      [first, second, cancelled, meanwhile].map(async (order) => (await Order.findById(order.id).lean())!),
    );
    expect([
      m.invoiceNumber! < c.invoiceNumber!,
      c.invoiceNumber! < a.invoiceNumber!,
      a.invoiceNumber! < b.invoiceNumber!,
    ]).toEqual([true, true, true]);
    expect([a, b, c, m].map((doc) => doc.invoicePending)).toEqual([undefined, undefined, undefined, undefined]);
    // Numbered late, dated no earlier than the number before: the numbers run in date order.
    const dates = [m, c, a, b].map((doc) => doc.invoicedAt!.getTime());
    expect(dates).toEqual([...dates].sort((x, y) => x - y));
    expect(await invoiceProblems()).toEqual([]);
    await expectNoGapNoDuplicate();

    // The customer reads the cancelled order's invoice and its credit note.
    const cookie = await sessionCookieHeader(customer.id);
    const note = c.creditNotes![0];
    expect(note.number).toBeTruthy();
    for (const path of [
      `/documents/${cancelled.id}/invoice`,
      `/documents/${cancelled.id}/credit-note?number=${formatCreditNoteNumber(note.number!)}`,
    ]) {
      const page = await settle(
        documentLoader(
          loaderArgs(getRequest(path, { cookie }), {
            id: cancelled.id,
            kind: path.includes("credit") ? "credit-note" : "invoice",
          }),
        ),
      );
      expect(page.status, path).toBe(200);
    }
  });
});

describe("the migration to gap-free invoice numbers", () => {
  type Db = NonNullable<typeof mongoose.connection.db>;
  type Claim = { _id: number; owner?: string; orderId?: string };
  const databases: Db[] = [];
  afterAll(async () => {
    for (const db of databases) await db.dropDatabase();
  });

  test("names each claim's owner, keeps one claim per owner (the one in use), and refuses a second claim after", async () => {
    const db = mongoose.connection.getClient().db(`invoice-numbers-${randomUUID().slice(0, 8)}`) as unknown as Db;
    databases.push(db);
    const [first, second] = [new mongoose.Types.ObjectId(), new mongoose.Types.ObjectId()];
    const noteId = new mongoose.Types.ObjectId().toString();
    await db.collection("orders").insertMany([
      { _id: first, invoiceNumber: 1 },
      { _id: second, invoiceNumber: 2, creditNotes: [{ _id: new mongoose.Types.ObjectId(noteId), number: 2 }] },
    ]);
    await db.collection<Claim>("invoice_numbers").insertMany([
      { _id: 1, orderId: first.toString() },
      { _id: 2, orderId: second.toString() },
    ]);
    await db.collection("counters").insertOne({ _id: "invoice" as never, seq: 3, free: [3] });
    // Two racing claims for one credit note before the unique index: the note carries the second.
    await db.collection("credit_note_numbers").createIndex({ owner: 1 }, { name: "owner_1" });
    await db.collection<Claim>("credit_note_numbers").insertMany([
      { _id: 1, owner: noteId },
      { _id: 2, owner: noteId },
    ]);

    await gapFreeInvoiceNumbers.up(db);
    await gapFreeInvoiceNumbers.up(db);

    expect(await db.collection("invoice_numbers").find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, owner: first.toString() },
      { _id: 2, owner: second.toString() },
    ]);
    expect(await db.collection("credit_note_numbers").find().toArray()).toEqual([{ _id: 2, owner: noteId }]);
    expect((await db.collection("counters").findOne({ _id: "invoice" as never }))?.free).toBeUndefined();
    for (const registry of ["invoice_numbers", "credit_note_numbers"]) {
      const again = db.collection<Claim>(registry).insertOne({ _id: 99, owner: noteId });
      if (registry === "credit_note_numbers") await expect(again).rejects.toMatchObject({ code: 11000 });
      else await again;
      await expect(db.collection<Claim>(registry).insertOne({ _id: 100, owner: noteId })).rejects.toMatchObject({
        code: 11000,
      });
    }
  });
});
