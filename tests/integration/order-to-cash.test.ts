/**
 * Order to cash: order numbers, payments recorded by staff (part, full, reversed, refused, raced),
 * shipping with tracking, payment terms and the credit limit, against the real database through
 * the screens' own loaders and actions.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { invoiceNumbers } from "~/orders/model/invoice.server";
import { Order } from "~/orders/model/schema.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import mongoose from "mongoose";
import { User } from "~/models/user.server";
import { loader as manageOrdersLoader } from "~/routes/dashboard.manageOrders";
import { action as adminOrderAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as customerAction } from "~/routes/dashboard.allUsers_.$id._index";
import { action as companyAction } from "~/routes/dashboard.companies_.$id/route";
import { action as partAction } from "~/routes/parts.$id";
import { loader as statementLoader } from "~/routes/dashboard.statement/route";
import { loader as payLoader } from "~/routes/dashboard.payment.$id";
import * as orderNumbersMigration from "../../scripts/migrations/20261125140000-order-numbers.js";
import { createPart, createUser, sessionCookieHeader, storedCustomer, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, snapshot, toastOf } from "./ordering.helpers";
import { DELIVERY_FORM } from "../fixtures/addresses";

async function admin() {
  return signedIn("admin");
}

function orderAction(orderId: string, fields: Record<string, string>, cookie: string) {
  return settle(
    adminOrderAction(
      actionArgs(postRequest(`/dashboard/manageOrders/${orderId}`, fields, { cookie }), { id: orderId }),
    ),
  );
}

const pay = (amount: string, extra: Record<string, string> = {}) => ({
  intent: "record-payment",
  amount,
  receivedOn: new Date().toISOString().slice(0, 10),
  method: "bank-transfer",
  reference: "BACS 1234",
  ...extra,
});

async function customerWithTerms(termsDays = 30, creditLimitCents = 100_000) {
  const { user, cookie } = await signedIn("customer");
  await updateCompanyOf(user.id, {
    $set: { account: { termsDays, creditLimitCents }, companyName: `Garage ${user.id.slice(-6)}` },
  });
  return { user, cookie };
}

function orderFromPart(partId: string, fields: Record<string, string>, cookie: string) {
  return settle(partAction(actionArgs(postRequest(`/parts/${partId}`, fields, { cookie }), { id: partId })));
}

describe("order numbers", () => {
  test("every order placed gets the next SO- number, and Manage Orders finds it by number, PO, email or company", async () => {
    const { user, cookie } = await customerWithTerms();
    const part = await createPart({ availableQuantity: 10_000, minOrderQuantity: 1 });
    const po = `PO-${randomUUID().slice(0, 6)}`;
    for (const poNumber of [po, ""]) {
      const response = await orderFromPart(
        part.id,
        { quantity: "2", phone: "555-0100", ...DELIVERY_FORM, poNumber },
        cookie,
      );
      expect(response.status).toBe(302);
    }
    const [first, second] = await Order.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
    expect(first.number).toBeGreaterThan(100_000);
    expect(second.number).toBeGreaterThan(first.number!);

    const { cookie: staff } = await admin();
    const search = async (q: string) => {
      const response = await settle(
        manageOrdersLoader(
          loaderArgs(getRequest(`/dashboard/manageOrders?q=${encodeURIComponent(q)}`, { cookie: staff })),
        ),
      );
      expect(response.status, q).toBe(200);
      return ((await response.json()) as { orders: { id: string; number: string }[] }).orders.map((o) => o.number);
    };
    const name = `SO-${first.number}`;
    for (const typed of [name, name.toLowerCase(), String(first.number), `so${first.number}`]) {
      expect(await search(typed), typed).toEqual([name]);
    }
    expect(await search(po.toLowerCase())).toEqual([name]);
    expect(await search(user.email.toUpperCase())).toEqual([`SO-${second.number}`, name]);
    const company = (await storedCustomer(user.id))!.companyName!;
    expect(await search(company.slice(0, 9).toUpperCase())).toEqual([`SO-${second.number}`, name]);
  });
});

describe("the order-numbers migration", () => {
  test("numbers orders placed before numbers existed in the order they were placed, and leaves numbered ones alone", async () => {
    const customer = await createUser();
    // The shape before companies: the company name on the user.
    await User.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(customer.id) },
      { $set: { companyName: "Old Works Ltd" } },
    );
    const part = await createPart();
    const line = {
      partId: part.id,
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: 500,
      quantity: 100,
      lineTotalCents: 50_000,
    };
    const old = (daysAgo: number, extra: Record<string, unknown> = {}) => ({
      lines: [{ ...line, partId: new Order.base.Types.ObjectId(part.id) }],
      totalCents: 50_000,
      phone: "555-0100",
      address: "1 Old Road",
      userId: new Order.base.Types.ObjectId(customer.id),
      userEmail: customer.email,
      userName: customer.name,
      status: "paid",
      paidAt: new Date(Date.now() - daysAgo * 86_400_000),
      createdAt: new Date(Date.now() - daysAgo * 86_400_000),
      ...extra,
    });
    // Inserted newest first, straight through the driver (no number, as before the change).
    const { insertedIds } = await Order.collection.insertMany([old(1), old(3, { poNumber: "OLD-PO-7" }), old(2)]);
    const [newest, oldest, middle] = Object.values(insertedIds);
    const numbered = await createOrder({ user: customer, part });
    await orderNumbersMigration.up(Order.db.db);
    const numberOf = async (id: unknown) => (await Order.findById(id).lean())!;
    const [a, b, c] = await Promise.all([oldest, middle, newest].map(numberOf));
    expect(a.number! < b.number! && b.number! < c.number!).toBe(true);
    expect(a.searchKeys).toEqual(["old-po-7", "old works ltd"]);
    expect(a).toMatchObject({ companyName: "Old Works Ltd", paidCents: 50_000 });
    expect((await numberOf(numbered.id)).number).toBe(Number(numbered.number.slice(3)));
    // Run again (a second instance starting): nothing changes.
    await orderNumbersMigration.up(Order.db.db);
    expect((await numberOf(oldest)).number).toBe(a.number);
  });
});

describe("recording payments", () => {
  test("a part payment shows the balance; the rest pays the order, gives one invoice number and sends the receipt", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 1_000 });
    const order = await createOrder({ user: customer, part, quantity: 100 }); // $1,000
    const { cookie, user: staff } = await admin();

    const partly = await orderAction(order.id, pay("400"), cookie);
    expect(partly.status).toBe(302);
    expect((await toastOf(partly))?.message).toMatch(/\$600\.00 left to pay/);
    let stored = (await Order.findById(order.id).lean())!;
    expect(stored).toMatchObject({ status: "unpaid", paidCents: 40_000 });
    expect(stored.invoiceNumber).toBeUndefined();

    const rest = await orderAction(order.id, pay("600.00", { method: "cheque", reference: "CHQ 88" }), cookie);
    expect(rest.status).toBe(302);
    stored = (await Order.findById(order.id).lean())!;
    expect(stored.status).toBe("paid");
    expect(stored.paidAt).toBeInstanceOf(Date);
    expect(stored.invoiceNumber).toBeGreaterThan(0);
    expect(await invoiceNumbers.Registry.countDocuments({ owner: order.id })).toBe(1);
    expect(stored.payments?.map((p) => [p.amountCents, p.method, p.recordedBy])).toEqual([
      [40_000, "bank-transfer", staff.email],
      [60_000, "cheque", staff.email],
    ]);
    const receipt = await Outbox.findById(`order:${order.id}:paid`).lean();
    expect(receipt?.subject).toBe(`Receipt for your PartsWorks order SO-${stored.number}`);
    expect(receipt?.text).toMatch(/\$400\.00 by bank transfer/);
    expect(await Audit.countDocuments({ action: "order.record-payment", targetId: order.id })).toBe(2);

    // Paid: a further payment is refused, and nothing changes.
    const again = await orderAction(order.id, pay("1"), cookie);
    expect(again.status).toBe(409);
    expect(JSON.stringify(await again.json())).toMatch(/already paid/);
    expect((await Order.findById(order.id).lean())!.payments).toHaveLength(2);
  });

  test.each([
    ["of zero", "0", /more than 0/],
    ["below zero", "-5", /more than 0/],
    ["over the balance", "1000.01", /more than the balance of \$1,000\.00/],
    ["that is not a number", "lots", /amount such as/],
    ["that is a query-operator object", '{"$gt":0}', /amount such as/],
  ])("an amount %s is refused at the field with nothing written", async (_label, amount, message) => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const { cookie } = await admin();
    const before = await snapshot({ orderIds: [order.id] });
    const audits = await Audit.countDocuments({ targetId: order.id });
    const response = await orderAction(order.id, pay(amount), cookie);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    await expectFieldError(response, "amount", message, response.status);
    expect(await snapshot({ orderIds: [order.id] })).toEqual(before);
    expect(await Audit.countDocuments({ targetId: order.id })).toBe(audits);
  });

  test("two staff recording the full amount at once: one is taken, the other told it is paid; one invoice number", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 700 }), quantity: 100 });
    const [a, b] = await Promise.all([admin(), admin()]);
    const responses = await Promise.all([
      orderAction(order.id, pay("700"), a.cookie),
      orderAction(order.id, pay("700"), b.cookie),
      orderAction(order.id, pay("700"), a.cookie),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([302, 409, 409]);
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(JSON.stringify(await refused.json())).toMatch(/already paid/);
    }
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.payments).toHaveLength(1);
    expect(stored.paidCents).toBe(70_000);
    expect(await invoiceNumbers.Registry.countDocuments({ owner: order.id })).toBe(1);
  });

  test("two part payments at once that together pass the balance: the second is refused, never over-paid", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const { cookie } = await admin();
    // Two different payments (staff confirmed the second): the balance alone refuses one.
    const responses = await Promise.all([
      orderAction(order.id, pay("600", { reference: "BACS 1", secondPayment: "on" }), cookie),
      orderAction(order.id, pay("600", { reference: "BACS 2", secondPayment: "on" }), cookie),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([302, 422]);
    expect((await Order.findById(order.id).lean())!.paidCents).toBe(60_000);
  });

  test("the same payment again (same reference, or same amount within a day) is refused naming the first; confirmed as a second payment it is recorded", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const { cookie, user: staff } = await admin();
    expect((await orderAction(order.id, pay("300", { reference: "BACS 77" }), cookie)).status).toBe(302);
    const before = await snapshot({ orderIds: [order.id] });

    // The same reference (spaces and case aside), another amount.
    const sameReference = await orderAction(order.id, pay("250", { reference: "bacs77" }), cookie);
    await expectFieldError(
      sameReference,
      "reference",
      new RegExp(`already recorded by ${staff.email}: \\$300\\.00 by bank transfer, received .*reference BACS 77`),
      409,
    );
    // The same amount on the same day, another reference and method.
    const sameAmount = await orderAction(order.id, pay("300", { reference: "CHQ 5", method: "cheque" }), cookie);
    await expectFieldError(sameAmount, "amount", /This looks like the payment already recorded/, 409);
    expect(await snapshot({ orderIds: [order.id] })).toEqual(before);

    // Staff confirm it is a second payment: recorded, and the audit says so.
    const second = await orderAction(
      order.id,
      pay("300", { reference: "CHQ 5", method: "cheque", secondPayment: "on" }),
      cookie,
    );
    expect(second.status).toBe(302);
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.paidCents).toBe(60_000);
    expect(stored.payments?.map((p) => [p.amountCents, p.reference])).toEqual([
      [30_000, "BACS 77"],
      [30_000, "CHQ 5"],
    ]);
    // A reversed payment no longer counts: the same reference again is taken.
    const paymentId = stored.payments![0]._id!.toString();
    await orderAction(order.id, { intent: "reverse-payment", paymentId, reason: "Entered on the wrong order" }, cookie);
    expect((await orderAction(order.id, pay("100", { reference: "BACS 77" }), cookie)).status).toBe(302);
  });

  test("two staff recording the same part payment at once: one is recorded, the other is told it is already there", async () => {
    const customer = await createUser();
    const [a, b] = await Promise.all([admin(), admin()]);
    for (let round = 0; round < 4; round++) {
      const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
      const same = pay("400", { reference: `BACS ${round}` });
      const responses = await Promise.all([
        orderAction(order.id, same, a.cookie),
        orderAction(order.id, same, b.cookie),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([302, 409]);
      const refused = responses.find((r) => r.status === 409)!;
      expect(JSON.stringify(await refused.json())).toMatch(/This looks like the payment already recorded by/);
      const stored = (await Order.findById(order.id).lean())!;
      expect(stored.payments).toHaveLength(1);
      expect(stored.paidCents).toBe(40_000);
      expect(await Audit.countDocuments({ action: "order.record-payment", targetId: order.id })).toBe(1);
    }
  });

  const daysFromToday = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

  test.each([
    ["a day that does not exist", "2026-02-30", /real date/],
    ["the year zero", "0000-01-01", /real date/],
    ["not a date", "yesterday", /real date/],
    ["empty", "", /Enter the day the money arrived/],
    ["in the future", daysFromToday(1), /cannot arrive in the future/],
    ["before the order was placed", daysFromToday(-1), /cannot arrive before the order was placed/],
  ])("a received date %s is refused at the field with nothing written", async (_label, receivedOn, message) => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const { cookie } = await admin();
    const before = await snapshot({ orderIds: [order.id] });
    const response = await orderAction(order.id, pay("100", { receivedOn }), cookie);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    await expectFieldError(response, "receivedOn", message, response.status);
    expect(await snapshot({ orderIds: [order.id] })).toEqual(before);
    expect(await Audit.countDocuments({ targetId: order.id })).toBe(0);
  });

  test("a reversal keeps the entry with its reason, unpays the order and is audited; twice is refused", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 500 }), quantity: 100 });
    const { cookie } = await admin();
    expect((await orderAction(order.id, pay("500"), cookie)).status).toBe(302);
    const paid = (await Order.findById(order.id).lean())!;
    expect(paid.status).toBe("paid");
    const paymentId = paid.payments![0]._id!.toString();

    const noReason = await orderAction(order.id, { intent: "reverse-payment", paymentId, reason: "" }, cookie);
    await expectFieldError(noReason, "reason", /Say why/);

    const reversed = await orderAction(
      order.id,
      { intent: "reverse-payment", paymentId, reason: "Bounced: wrong account" },
      cookie,
    );
    expect(reversed.status).toBe(302);
    const after = (await Order.findById(order.id).lean())!;
    expect(after).toMatchObject({ status: "unpaid", paidCents: 0 });
    expect(after.paidAt).toBeUndefined();
    expect(after.payments).toHaveLength(1);
    expect(after.payments![0]).toMatchObject({ amountCents: 50_000, reversalReason: "Bounced: wrong account" });
    // The invoice number given stays the order's: a new payment does not take another.
    expect(after.invoiceNumber).toBe(paid.invoiceNumber);
    expect(await Audit.countDocuments({ action: "order.reverse-payment", targetId: order.id })).toBe(1);

    const twice = await orderAction(order.id, { intent: "reverse-payment", paymentId, reason: "Again" }, cookie);
    expect(twice.status).toBe(409);
    expect((await orderAction(order.id, pay("500"), cookie)).status).toBe(302);
    expect(await invoiceNumbers.Registry.countDocuments({ owner: order.id })).toBe(1);
  });
});

describe("shipping with tracking", () => {
  test("a carrier and tracking number are kept and mailed; bad ones are refused at the field with nothing written", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart(), status: "paid" });
    const { cookie } = await admin();
    const before = await snapshot({ orderIds: [order.id] });
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ carrier: "pigeon", trackingNumber: "1Z" }, "carrier", /carrier from the list/],
      [{ carrier: "ups", trackingNumber: "1".repeat(500) }, "trackingNumber", /at most 40/],
      [{ carrier: "ups", trackingNumber: "" }, "trackingNumber", /Enter the tracking number/],
      [{ carrier: "ups", trackingNumber: "<script>" }, "trackingNumber", /letters, digits/],
    ];
    for (const [fields, field, message] of cases) {
      await expectFieldError(await orderAction(order.id, { intent: "ship", ...fields }, cookie), field, message);
    }
    expect(await snapshot({ orderIds: [order.id] })).toEqual(before);

    const shipped = await orderAction(
      order.id,
      { intent: "ship", carrier: "ups", trackingNumber: "1Z999AA10123456784" },
      cookie,
    );
    expect(shipped.status).toBe(302);
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.status).toBe("shipped");
    expect(stored.shipment).toMatchObject({ carrier: "ups", trackingNumber: "1Z999AA10123456784" });
    const mail = await Outbox.findById(`order:${order.id}:shipped`).lean();
    expect(mail?.subject).toBe(`Your PartsWorks order SO-${stored.number} has shipped`);
    expect(mail?.text).toContain("UPS, tracking number 1Z999AA10123456784");
    expect(mail?.html).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");

    // Shipped already: a second ship is refused.
    const again = await orderAction(order.id, { intent: "ship", carrier: "collected" }, cookie);
    expect(again.status).toBe(409);
  });

  test("an unpaid card order cannot be shipped", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart() });
    const { cookie } = await admin();
    const response = await orderAction(order.id, { intent: "ship", carrier: "collected" }, cookie);
    expect(response.status).toBe(409);
    expect((await Order.findById(order.id).lean())!.status).toBe("unpaid");
  });
});

describe("payment on account", () => {
  function setTerms(companyId: string, fields: Record<string, string>, cookie: string) {
    return settle(
      companyAction(
        actionArgs(postRequest(`/dashboard/companies/${companyId}`, { intent: "terms", ...fields }, { cookie }), {
          id: companyId,
        }),
      ),
    );
  }

  test("terms and a credit limit are set on the company's record; bad input is refused at the field, nothing written", async () => {
    const { cookie } = await admin();
    const customer = await createUser();
    const colleague = await createUser({ company: { id: customer.companyId, role: "buyer" } });
    for (const [fields, field, message] of [
      [{ termsDays: "30", creditLimit: "-1" }, "creditLimit", /negative/],
      [{ termsDays: "30", creditLimit: "10000001" }, "creditLimit", /at most/],
      [{ termsDays: "30", creditLimit: "12.5" }, "creditLimit", /whole dollars/],
      [{ termsDays: "45", creditLimit: "100" }, "termsDays", /Choose/],
      [{ termsDays: "365", creditLimit: "100" }, "termsDays", /Choose/],
    ] as const) {
      await expectFieldError(await setTerms(customer.companyId, fields, cookie), field, message);
    }
    expect((await storedCustomer(customer.id))!.account).toBeUndefined();
    expect(await Audit.countDocuments({ action: "company.set-terms", targetId: customer.companyId })).toBe(0);

    // A customer cannot set terms (signed out, sent to sign in), and the user page no longer takes them.
    const byCustomer = await setTerms(
      customer.companyId,
      { termsDays: "30", creditLimit: "5000" },
      await sessionCookieHeader(customer.id),
    );
    expect(byCustomer.headers.get("location")).toMatch(/^\/login/);
    const onUserPage = await settle(
      customerAction(
        actionArgs(
          postRequest(`/dashboard/allUsers/${customer.id}`, { termsDays: "30", creditLimit: "5000" }, { cookie }),
          { id: customer.id },
        ),
      ),
    );
    expect(onUserPage.status).toBe(400);
    expect((await storedCustomer(customer.id))!.account).toBeUndefined();

    const saved = await setTerms(customer.companyId, { termsDays: "30", creditLimit: "5000" }, cookie);
    expect(saved.status).toBe(302);
    // The company's: every member orders within them.
    for (const member of [customer, colleague]) {
      expect((await storedCustomer(member.id))!.account).toMatchObject({ termsDays: 30, creditLimitCents: 500_000 });
    }
    expect(await Audit.countDocuments({ action: "company.set-terms", targetId: customer.companyId })).toBe(1);
  });

  test("an order on account is confirmed and invoiced with its due date; past the credit limit it is refused and nothing is written", async () => {
    const { user, cookie } = await customerWithTerms(30, 150_000); // $1,500 limit
    const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
    const delivery = { phone: "555-0100", ...DELIVERY_FORM, payment: "account" };

    const placed = await orderFromPart(part.id, { ...delivery, quantity: "100" }, cookie); // $1,000 + 6 % MI tax: $1,060
    expect(placed.status).toBe(302);
    const order = (await Order.findOne({ userId: user.id }).lean())!;
    expect(order).toMatchObject({ status: "account", paymentMethod: "account", termsDays: 30 });
    expect(order.invoiceNumber).toBeGreaterThan(0);
    const days = (order.dueAt!.getTime() - order.createdAt!.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    expect(placed.headers.get("Location")).toBe(`/dashboard/orders/${order._id}`);

    // $1,060 open + $636 > $1,500: refused, naming the limit and the balance.
    const before = await snapshot({ partIds: [part.id] });
    const refused = await orderFromPart(part.id, { ...delivery, quantity: "100", poNumber: "" }, cookie);
    await expectFieldError(refused, "payment", /credit limit of \$1,500\.00: \$1,060\.00 is open/, 409);
    const fresh = await orderFromPart(part.id, { ...delivery, quantity: "60" }, cookie);
    await expectFieldError(fresh, "payment", /credit limit of \$1,500.*Pay an open invoice/, 409);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);

    // The statement lists it open; paying it frees the credit.
    const statement = await (
      await settle(statementLoader(loaderArgs(getRequest("/dashboard/statement", { cookie }))))
    ).json();
    expect(statement.balanceCents).toBe(106_000);
    expect(statement.orders.map((o: { number: string }) => o.number)).toEqual([`SO-${order.number}`]);
    const { cookie: staff } = await admin();
    expect((await orderAction(order._id.toString(), pay("1060"), staff)).status).toBe(302);
    const paid = (await Order.findById(order._id).lean())!;
    expect(paid.status).toBe("paid");
    expect(paid.invoiceNumber).toBe(order.invoiceNumber);
    expect((await orderFromPart(part.id, { ...delivery, quantity: "60" }, cookie)).status).toBe(302);
  });

  test("a customer without terms cannot order on account", async () => {
    const { user, cookie } = await signedIn("customer");
    const part = await createPart();
    const before = await snapshot({ partIds: [part.id] });
    const response = await orderFromPart(
      part.id,
      { quantity: "100", phone: "555-0100", ...DELIVERY_FORM, payment: "account" },
      cookie,
    );
    await expectFieldError(response, "payment", /no payment terms/);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
    expect((await Part.findById(part.id).lean())!.availableQuantity).toBe(part.availableQuantity);
  });

  test("an order on account can ship before it is paid, then is overdue past its due date", async () => {
    const { user, cookie } = await customerWithTerms(7, 1_000_000);
    const part = await createPart({ priceCents: 200 });
    expect(
      (
        await orderFromPart(
          part.id,
          { quantity: "100", phone: "555-0100", ...DELIVERY_FORM, payment: "account" },
          cookie,
        )
      ).status,
    ).toBe(302);
    const order = (await Order.findOne({ userId: user.id }).lean())!;
    const { cookie: staff } = await admin();
    expect((await orderAction(order._id.toString(), { intent: "ship", carrier: "collected" }, staff)).status).toBe(302);
    await Order.updateOne({ _id: order._id }, { $set: { dueAt: new Date(Date.now() - 86_400_000) } });
    const overdue = await settle(
      manageOrdersLoader(
        loaderArgs(
          getRequest(`/dashboard/manageOrders?status=overdue&q=${encodeURIComponent(user.email)}`, { cookie: staff }),
        ),
      ),
    );
    const listed = (await overdue.json()) as { orders: { id: string; state: string }[] };
    expect(listed.orders.map((o) => [o.id, o.state])).toEqual([[order._id.toString(), "overdue"]]);
    const statement = await (
      await settle(statementLoader(loaderArgs(getRequest("/dashboard/statement", { cookie }))))
    ).json();
    expect(statement.overdueCents).toBe(21_200); // $200 and 6 % Michigan sales tax
  });
});

describe("paying by bank transfer", () => {
  test("a customer without terms orders by bank transfer: unpaid, stock held, the mail and pay screen give the reference, amount, bank details and pro-forma; the recorded transfer pays it", async () => {
    const { user, cookie } = await signedIn("customer");
    const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
    const placed = await orderFromPart(
      part.id,
      { quantity: "100", phone: "555-0100", ...DELIVERY_FORM, payment: "bank-transfer" },
      cookie,
    );
    expect(placed.status).toBe(302);
    const order = (await Order.findOne({ userId: user.id }).lean())!;
    const number = `SO-${order.number}`;
    expect(order).toMatchObject({ status: "unpaid", paymentMethod: "bank-transfer", paidCents: 0 });
    expect(order.holdUntil!.getTime()).toBeGreaterThan(Date.now() + 60 * 60 * 1000);
    expect(order.invoiceNumber).toBeUndefined();
    expect((await Part.findById(part.id).lean())!.availableQuantity).toBe(900);
    expect(placed.headers.get("Location")).toBe(`/dashboard/payment/${order._id}`);

    const mail = (await Outbox.findById(`order:${order._id}:placed`).lean())!;
    expect(mail.text).toContain(`Payment reference: ${number}`);
    expect(mail.text).toContain("account number: 4401 2231 9087");
    expect(mail.text).toContain(`/documents/${order._id}/pro-forma/pdf`);

    const pay = await settle(
      payLoader(loaderArgs(getRequest(`/dashboard/payment/${order._id}`, { cookie }), { id: String(order._id) })),
    );
    expect(pay.status).toBe(200);
    expect(((await pay.json()) as { order: { paymentMethod: string; number: string } }).order).toMatchObject({
      paymentMethod: "bank-transfer",
      number,
    });

    const { cookie: staff } = await admin();
    expect((await orderAction(String(order._id), pay_(order.totalCents, number), staff)).status).toBe(302);
    const paid = (await Order.findById(order._id).lean())!;
    expect(paid.status).toBe("paid");
    expect(paid.invoicedAt!.toISOString()).toBe(paid.paidAt!.toISOString());
  });

  test("a payment choice that is not offered is refused at the field, nothing written", async () => {
    const { cookie } = await signedIn("customer");
    const part = await createPart({ priceCents: 1_000, availableQuantity: 1_000, minOrderQuantity: 1 });
    const before = await snapshot({ partIds: [part.id] });
    for (const payment of ["cheque", "account"]) {
      const refused = await orderFromPart(
        part.id,
        { quantity: "100", phone: "555-0100", ...DELIVERY_FORM, payment },
        cookie,
      );
      expect(refused.status, payment).toBeGreaterThanOrEqual(400);
      expect(refused.status, payment).toBeLessThan(500);
      await expectFieldError(
        refused,
        "payment",
        /Choose card, bank transfer or on account|no payment terms/,
        refused.status,
      );
    }
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });
});

/** The order's whole amount as the payment form takes it, quoting `reference`. */
function pay_(cents: number, reference: string) {
  return pay((cents / 100).toFixed(2), { reference });
}
