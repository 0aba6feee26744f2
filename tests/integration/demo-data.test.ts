/**
 * The demo shows the shop at work on first start: seeded into a database of its own, as
 * `npm run demo` seeds a new one, it has an order in every state and a statement with an overdue invoice.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { listKeysFor } from "~/services/api-keys.server";
import { listMembers } from "~/models/company-member.server";
import { listAwaitingApproval } from "~/orders/model/approvals.server";
import { listOverdue } from "~/orders/model/payments.server";
import { Order } from "~/orders/model/schema.server";
import { listOpenReturns } from "~/orders/model/returns.server";
import { toOrderView } from "~/orders/model/view.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { User, getUserByEmail } from "~/models/user.server";
import { ensureDemoData } from "~/demo/data.server";
import { DEMO_PUBLIC_BUYER } from "~/demo/public-buyer.server";
import { getCompany } from "~/models/company.server";
import { Audit } from "~/models/audit.server";
import { orderTimeline } from "~/domain/order-timeline";
import { listsOf } from "~/services/saved-lists.server";
import { acceptNotes, quotesForCustomer } from "~/orders/quotes.server";

let logins: Awaited<ReturnType<typeof ensureDemoData>>;
beforeAll(async () => {
  logins = await ensureDemoData();
});

describe("the demo data", () => {
  test("holds orders awaiting card payment, on account, overdue, part-paid, paid to ship, shipped and cancelled", async () => {
    const demo = await Order.find({
      userEmail: { $in: ["customer@partsworks.test", "trade@partsworks.test"] },
    }).lean();
    const statuses = new Set(demo.map((order) => order.status));
    for (const status of ["unpaid", "account", "paid", "shipped", "cancelled"]) expect(statuses).toContain(status);
    expect(demo.some((order) => order.shipment?.trackingNumber)).toBe(true);
    // Part-paid: money recorded, less than the total.
    expect(demo.some((order) => (order.paidCents ?? 0) > 0 && (order.paidCents ?? 0) < order.totalCents)).toBe(true);

    const overdue = await listOverdue(100);
    expect(overdue.orders.map((order) => order.userEmail)).toContain("trade@partsworks.test");
  });

  test("shows a company with an owner, a buyer with a limit, an accounts person and an order awaiting approval", async () => {
    const owner = await User.findOne({ email: "trade@partsworks.test" }).lean();
    const members = await listMembers(String(owner!.companyId));
    expect(members.map((member) => [member.email, member.role])).toEqual([
      ["trade@partsworks.test", "owner"],
      ["buyer@partsworks.test", "buyer"],
      ["accounts@partsworks.test", "accounts"],
    ]);
    expect(members.find((member) => member.role === "buyer")?.spendingLimitCents).toBe(150_000);
    const awaiting = await listAwaitingApproval(String(owner!.companyId));
    expect(awaiting).toHaveLength(1);
    expect(awaiting[0]).toMatchObject({ userEmail: "buyer@partsworks.test", state: "approval" });
    expect(awaiting[0].totalCents).toBeGreaterThan(150_000);
    // And one the owner approved through the approval service: invoiced on account, with its record.
    const approved = await Order.findOne({ userEmail: "buyer@partsworks.test", "approval.outcome": "approved" }).lean();
    expect(approved).toMatchObject({ status: "account", approval: { decidedByName: owner!.name } });
    expect(approved?.invoiceNumber).toBeTruthy();
    expect(orderTimeline(toOrderView(approved!), "colleague").map((event) => event.label)).toContain(
      `Approved by ${owner!.name}: “Fine for the spring service run”`,
    );
    expect(await Audit.exists({ action: "order.approve", targetId: String(approved!._id) })).toBeTruthy();
    // The logins printed at start name each member's part.
    expect(logins.map((login) => [login.email, login.role])).toEqual(
      expect.arrayContaining([
        ["buyer@partsworks.test", "buyer"],
        ["accounts@partsworks.test", "accounts"],
      ]),
    );
    // The held order's stock adds up, and a second run adds nothing.
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);
    await ensureDemoData();
    expect(await Order.countDocuments({ userEmail: "buyer@partsworks.test" })).toBe(2);
  });
  test("shows a return in each step on Casey's shipped order, the received one in two conditions and credited, Shop Today's two to act on, the stock adding up", async () => {
    const withReturns = await Order.find({
      userEmail: "customer@partsworks.test",
      "returns.0": { $exists: true },
    }).lean();
    expect(withReturns).toHaveLength(1);
    const order = toOrderView(withReturns[0]);
    expect(order.returns.map((entry) => entry.status).sort()).toEqual([
      "approved",
      "declined",
      "received",
      "requested",
    ]);
    expect(order.returns.filter((entry) => entry.number).map((entry) => entry.number)).toEqual([
      expect.stringMatching(/^RMA-\d{6}$/),
      expect.stringMatching(/^RMA-\d{6}$/),
    ]);
    expect((await listOpenReturns()).map(({ entry }) => entry.status).sort()).toEqual(["approved", "requested"]);
    // The received return is credited: a numbered credit note, its card money refunded.
    const received = order.returns.find((entry) => entry.status === "received")!;
    expect(order.creditNotes).toEqual([
      expect.objectContaining({
        number: expect.stringMatching(/^CN-\d{6}$/),
        reason: "return",
        returnId: received.id,
        lines: [expect.objectContaining({ quantity: 4 }), expect.objectContaining({ quantity: 2 })],
      }),
    ]);
    // Received in two conditions: the filters back to stock, the cracked discs scrapped.
    expect(received.lines.map((line) => [line.partNumber, line.receivedQuantity, line.condition])).toEqual([
      ["PW-1003", 4, "restock"],
      ["PW-1002", 2, "scrap"],
    ]);
    expect(order.creditNotes[0].totalCents).toBeGreaterThan(0);
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);
    await ensureDemoData();
    expect((await Order.findById(order.id).lean())!.returns).toHaveLength(4);
    expect((await Order.findById(order.id).lean())!.creditNotes).toHaveLength(1);
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);
  });

  test("shows a restock that filled a backorder, made through the restock service: the order's stock, its mail, the audit entry", async () => {
    const { Part, stockOf } = await import("~/models/part.server");
    const { Audit } = await import("~/models/audit.server");
    const part = (await Part.findOne({ partNumber: "PW-1010" }).lean())!;
    expect(stockOf(part)).toMatchObject({ held: 850, available: 250, backordered: 0, onShelf: 1100 });
    const [order] = await Order.find({ userEmail: "customer@partsworks.test", "lines.partId": part._id }).lean();
    expect(toOrderView(order).lines[0]).toMatchObject({ quantity: 850, backorderedQuantity: 0 });
    const entry = await Audit.findOne({ action: "part.update", targetId: part._id.toString() }).lean();
    expect(entry?.after).toMatchObject({ availableQuantity: 400 });
    expect((await checkStock({ settleMs: 0 })).problems).toEqual([]);
    await ensureDemoData();
    expect(await Order.countDocuments({ "lines.partId": part._id })).toBe(1);
  });

  test("the trade company shares a monthly restock list its buyer sees, made once however often the demo starts", async () => {
    await ensureDemoData();
    const [owner, buyer] = await Promise.all([
      getUserByEmail("trade@partsworks.test"),
      getUserByEmail("buyer@partsworks.test"),
    ]);
    const seen = await listsOf(buyer!);
    const restock = seen.filter((list) => list.name === "Monthly workshop restock");
    expect(restock).toEqual([
      expect.objectContaining({ shared: true, mine: false, ownerName: owner!.name, lineCount: 6 }),
    ]);
  });

  test("the trade company has a quote in each state, through the services, made once however often the demo starts", async () => {
    await ensureDemoData();
    const owner = (await getUserByEmail("trade@partsworks.test"))!;
    const { quotes } = await quotesForCustomer(owner);
    const inState = (status: string) => quotes.filter((quote) => quote.status === status);
    expect(quotes).toHaveLength(4);
    // Accepted, with the order it placed at the quoted price.
    const [accepted] = inState("accepted");
    const order = await Order.findById(accepted.orderId).lean();
    expect(order?.lines[0]).toMatchObject({
      partNumber: "PW-1003",
      unitPriceCents: accepted.current!.lines[0].unitPriceCents,
    });
    expect(order).toMatchObject({ quoteNumber: accepted.number, quoteVersion: 1 });
    // Waiting for the shop's answer, no version yet.
    expect(inState("requested")).toEqual([expect.objectContaining({ versions: [] })]);
    // Expired: its one version was valid until a day now past.
    expect(inState("expired")).toEqual([expect.objectContaining({ versions: [expect.anything()] })]);
    // Quoted in a second version, still valid: the owner can accept it now.
    const [open] = inState("quoted");
    expect(open.versions).toHaveLength(2);
    expect(new Date(open.current!.validUntil).getTime()).toBeGreaterThan(Date.now());
    expect(await acceptNotes(open)).toEqual(open.current!.lines.map(() => expect.objectContaining({ kind: "stock" })));
  });

  test("the trade company's API keys screen lists its keys with who made them, once however often the demo starts", async () => {
    await ensureDemoData();
    const trade = await getUserByEmail("trade@partsworks.test");
    const keys = await listKeysFor(trade!);
    expect(keys.map((key) => [key.name, key.scopes, key.createdBy]).sort()).toEqual([
      ["Counter tablet", ["read"], "Blake Buyer"],
      ["Purchasing system", ["read", "order"], trade!.name],
    ]);
    // The buyer sees only their own.
    const buyer = await getUserByEmail("buyer@partsworks.test");
    expect((await listKeysFor(buyer!)).map((key) => key.name)).toEqual(["Counter tablet"]);
  });
});

describe("the demo's prices and tax", () => {
  test("has parts with volume breaks, a distributor in a price group and an EU company with a valid VAT number whose goods are intra-community supplies", async () => {
    const { Part } = await import("~/models/part.server");
    const { User, getUserById } = await import("~/models/user.server");
    const { priceLines } = await import("~/services/pricing.server");
    const { validVat } = await import("~/domain/tax");
    const { DEMO_USERS } = await import("~/demo/content.server");

    const withBreaks = await Part.find({ "volumeBreaks.0": { $exists: true } }).lean();
    expect(withBreaks.length).toBeGreaterThanOrEqual(2);

    const distributor = (await getUserById(
      String((await User.findOne({ email: "distributor@partsworks.test" }).lean())!._id),
    ))!;
    expect(distributor.pricing.priceGroupId).not.toBeNull();
    const plug = (await Part.findOne({ partNumber: "PW-1005" }).lean())!;
    const theirs = await priceLines({ id: distributor.id }, [{ partId: plug._id.toString(), quantity: 100 }]);
    const list = await priceLines(null, [{ partId: plug._id.toString(), quantity: 100 }]);
    expect(theirs.lines[0].unitPriceCents).toBeLessThan(list.lines[0].unitPriceCents);

    const eu = (await getUserById(String((await User.findOne({ email: "eu@partsworks.test" }).lean())!._id)))!;
    expect(eu.pricing.tax && validVat(eu.pricing.tax)).toBe(true);
    // Intra-community supplies: the shipped one invoiced the day it shipped, the one waiting to ship not yet.
    const shipped = await Order.findOne({ userEmail: "eu@partsworks.test", status: "shipped" }).lean();
    expect(shipped?.taxLines?.[0]).toMatchObject({ kind: "intra-community", amountCents: 0 });
    expect(shipped?.invoiceNumber).toBeTruthy();
    expect(shipped?.invoicedAt?.toISOString()).toBe(shipped?.shippedAt?.toISOString());
    const waiting = await Order.findOne({ userEmail: "eu@partsworks.test", status: "paid" }).lean();
    expect(waiting?.taxLines?.[0]).toMatchObject({ kind: "intra-community" });
    expect(waiting?.invoiceNumber).toBeUndefined();
    // A German public buyer with its Leitweg-ID and an invoiced order: its e-invoices are XRechnung.
    const publicBuyer = await Order.findOne({ userEmail: DEMO_PUBLIC_BUYER.email }).lean();
    expect(publicBuyer?.invoiceNumber).toBeTruthy();
    expect((await getCompany(String(publicBuyer?.companyId)))?.company.leitwegId).toBe(DEMO_PUBLIC_BUYER.leitwegId);

    // The logins the demo prints: one line each, naming the distributor and the EU company.
    const notes = DEMO_USERS.map((user) => `${user.email} ${user.note ?? ""}`);
    expect(notes.some((line) => /distributor/i.test(line) && line.includes("distributor@"))).toBe(true);
    expect(notes.some((line) => /\bEU\b/.test(line) && line.includes("eu@"))).toBe(true);
  });
});
