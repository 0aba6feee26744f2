/**
 * Backorders and parcels through the real services and actions against the local database: an
 * order beyond the shelf placed with the rest on backorder, stock that arrives allocated oldest
 * order first and atomically, parcels that never ship more than is on the shelf for the order,
 * two tabs shipping the same line, stock arriving while an order is cancelled, bad input refused
 * at the field with nothing written, and the stock check adding it all up.
 */
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { placeOrder } from "~/orders/checkout.server";
import { addToCart, getCart } from "~/models/cart.server";
import { DETROIT } from "../fixtures/addresses";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { action as adminOrderAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as manageProductsAction, loader as manageProductsLoader } from "~/routes/dashboard.manageProducts";
import { action as importAction } from "~/routes/dashboard.manageProducts_.import";
import { cancelCustomerOrder, recordPayment } from "~/orders/service.server";
import { allocateArrivedStock, shipOrder } from "~/orders/warehouse.server";
import { getOrderById } from "~/orders/model/reads.server";
import { orderTimeline } from "~/domain/order-timeline";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { loader as documentLoader } from "~/routes/documents.$id.$kind";
import { snapshot, toastOf } from "./ordering.helpers";

const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "1 Backorder Street" } };

async function backorderablePart(availableQuantity: number, minOrderQuantity = 100) {
  const part = await createPart({ availableQuantity, minOrderQuantity });
  await Part.updateOne({ _id: part.id }, { $set: { backorderable: true, leadTimeDays: 14 } });
  return part;
}

async function place(partId: string, quantity: number) {
  const user = await createUser();
  const placed = await placeOrder({ lines: [{ partId, quantity }], ...delivery, user });
  if (!placed.ok) throw new Error(`not placed: ${placed.refusal ?? JSON.stringify(placed.failures)}`);
  return { user, order: placed.order };
}

async function pay(orderId: string) {
  const order = (await getOrderById(orderId))!;
  const paid = await recordPayment(
    orderId,
    { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "TEST" },
    { actor: { id: "000000000000000000000000", email: "staff@example.com" } },
  );
  if (!paid.ok) throw new Error(paid.message);
}

const actor = { id: "000000000000000000000000", email: "staff@example.com" };
const partDoc = async (id: string) => (await Part.findById(id).lean())!;
const stockProblems = async (partId: string) =>
  (await checkStock({ settleMs: 0 })).problems.filter((problem) => problem.partId === partId);

async function restock(partId: string, to: number) {
  const before = (await partDoc(partId)).availableQuantity;
  await Part.updateOne({ _id: partId }, { $set: { availableQuantity: to }, $inc: { onHand: to - before } });
  await allocateArrivedStock([partId]);
}

describe("backorders", () => {
  test("an order beyond the shelf holds what is there and backorders the rest; a part that may not be backordered is refused", async () => {
    const part = await backorderablePart(300);
    const { order } = await place(part.id, 500);
    expect(order.lines[0]).toMatchObject({ quantity: 500, backorderedQuantity: 200 });
    expect(order.lines[0].backorderExpectedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(order.backorderedUnits).toBe(200);
    expect(order.totalCents).toBeGreaterThan(0);
    const doc = await partDoc(part.id);
    expect(doc.availableQuantity).toBe(0);
    expect(doc.holds?.[0]).toMatchObject({ quantity: 500, backordered: 200 });
    expect(await stockProblems(part.id)).toEqual([]);

    // The cart says it before checkout too.
    const shopper = await createUser();
    const more = await backorderablePart(120);
    expect((await addToCart(shopper.id, more.id, 300)).ok).toBe(true);
    const [line] = (await getCart(shopper.id)).lines;
    expect(line.problem).toBeNull();
    expect(line.backorder).toMatch(/^120 now, 180 on backorder, expected [A-Z][a-z]{2} \d{1,2}, \d{4}$/);

    const plain = await createPart({ availableQuantity: 300, minOrderQuantity: 100 });
    const user = await createUser();
    const refused = await placeOrder({ lines: [{ partId: plain.id, quantity: 500 }], ...delivery, user });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.failures[0].message).toBe("Only 300 units are available");
  });

  test("stock that arrives goes to the oldest order first, atomically, and each is mailed", async () => {
    const part = await backorderablePart(0);
    const first = await place(part.id, 300);
    const second = await place(part.id, 200);
    // Two restocks at once: every unit goes to one hold once, oldest first.
    const before = (await partDoc(part.id)).availableQuantity;
    await Part.updateOne({ _id: part.id }, { $set: { availableQuantity: before + 400 }, $inc: { onHand: 400 } });
    const given = (await Promise.all([allocateArrivedStock([part.id]), allocateArrivedStock([part.id])])).flat();
    // What each call gave, per order with its number: together, 300 and 100.
    const units = (orderId: string) =>
      given.filter((entry) => entry.orderId === orderId).reduce((sum, entry) => sum + entry.quantity, 0);
    expect([units(first.order.id), units(second.order.id)]).toEqual([300, 100]);
    expect(new Set(given.map((entry) => [entry.partId, entry.orderNumber].join(" ")))).toEqual(
      new Set([`${part.id} ${first.order.number}`, `${part.id} ${second.order.number}`]),
    );
    const [a, b] = await Promise.all([getOrderById(first.order.id), getOrderById(second.order.id)]);
    expect(a!.lines[0].backorderedQuantity).toBe(0);
    expect(b!.lines[0].backorderedQuantity).toBe(100);
    expect((await partDoc(part.id)).availableQuantity).toBe(0);
    expect(await stockProblems(part.id)).toEqual([]);
    const mail = await Outbox.find({
      _id: { $regex: `^order:(${first.order.id}|${second.order.id}):allocated` },
    }).lean();
    expect(mail.map((entry) => entry._id).sort()).toEqual(
      [`order:${first.order.id}:allocated:0`, `order:${second.order.id}:allocated:100`].sort(),
    );
  });

  test("the stock check reports an order showing fewer units on backorder than its hold, and stock left while a backorder waits", async () => {
    const part = await backorderablePart(100);
    const { order } = await place(part.id, 300);
    expect(await stockProblems(part.id)).toEqual([]);
    // What a bug (not a crash: allocation lowers the hold first) would leave: the order says allocated, the hold does not.
    await Order.updateOne({ _id: order.id }, { $set: { "lines.0.backorderedQuantity": 50 } });
    await Part.updateOne({ _id: part.id }, { $inc: { availableQuantity: 10, onHand: 10 } });
    const kinds = (await stockProblems(part.id)).map((problem) => [problem.kind, problem.message]);
    expect(kinds).toEqual([
      ["backorder-mismatch", `order ${order.id} shows 50 units on backorder, its hold 200`],
      ["unallocated", "has 10 units available while 200 units wait on backorder"],
    ]);
  });

  test("an admin's restock on Manage Products allocates to the waiting orders and says where the stock went", async () => {
    // 200 units on backorder over 3 orders, the shelf empty.
    const part = await backorderablePart(0, 50);
    const orders = [];
    for (const quantity of [100, 50, 50]) orders.push((await place(part.id, quantity)).order);
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const columns = async () => {
      const { parts } = await (
        await settle(manageProductsLoader(loaderArgs(getRequest("/dashboard/manageProducts", { cookie }))))
      ).json();
      const row = parts.find((entry: { id: string }) => entry.id === part.id);
      const { onShelf, held, available, backordered, waiting } = row.stock;
      return { onShelf, held, available, backordered, waiting };
    };
    expect(await columns()).toEqual({ onShelf: 0, held: 0, available: 0, backordered: 200, waiting: 3 });

    const response = await settle(
      manageProductsAction(
        actionArgs(
          postRequest(
            "/dashboard/manageProducts",
            { intent: "update", partId: part.id, price: "12", stock: "300", expectedStock: "0" },
            { cookie },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    const numbers = orders.map((order) => order.number).join(", ");
    expect((await toastOf(response))?.message).toBe(
      `${part.name}: price and stock saved; 300 received: 200 allocated to 3 backorders (${numbers}), 100 now available`,
    );
    for (const order of orders) expect((await getOrderById(order.id))!.lines[0].backorderedQuantity).toBe(0);
    expect(await columns()).toEqual({ onShelf: 300, held: 200, available: 100, backordered: 0, waiting: 0 });
    expect(await stockProblems(part.id)).toEqual([]);

    // A restock with nothing waiting says what arrived is available.
    const more = await settle(
      manageProductsAction(
        actionArgs(
          postRequest(
            "/dashboard/manageProducts",
            { intent: "update", partId: part.id, price: "12", stock: "150", expectedStock: "100" },
            { cookie },
          ),
        ),
      ),
    );
    expect((await toastOf(more))?.message).toBe(`${part.name}: price and stock saved; 50 received, 150 now available`);
  });

  test("the CSV import's summary says the same for each line whose stock went to backorders", async () => {
    const part = await backorderablePart(0, 50);
    const plain = await createPart({ availableQuantity: 10, minOrderQuantity: 100 });
    const orders = [];
    for (const quantity of [100, 50, 50]) orders.push((await place(part.id, quantity)).order);
    const admin = await createUser({ role: "admin" });
    const body = new FormData();
    body.append("intent", "apply");
    // What the dry run of "part number,stock" lines 2 and 3 hands to Apply.
    body.append(
      "changes",
      JSON.stringify([
        [part.id, 2, 0, 300, null, null, null, null, null, null],
        [plain.id, 3, 10, 500, null, null, null, null, null, null],
      ]),
    );
    const request = new Request("http://localhost/dashboard/manageProducts/import", {
      method: "POST",
      body,
      headers: { Cookie: await sessionCookieHeader(admin.id) },
    });
    const applied = await settle(importAction(actionArgs(request)));
    expect(applied.status).toBe(302);
    const numbers = orders.map((order) => order.number).join(", ");
    expect((await toastOf(applied))?.message).toBe(
      `Import applied: 2 parts updated; Line 2, ${part.partNumber}: 300 received: 200 allocated to 3 backorders (${numbers}), 100 now available`,
    );
    for (const order of orders) expect((await getOrderById(order.id))!.lines[0].backorderedQuantity).toBe(0);
    expect(await stockProblems(part.id)).toEqual([]);
  });

  test("stock arriving while an order is cancelled: the stock ends with the next order or on the shelf, never twice", async () => {
    const part = await backorderablePart(100);
    const cancelled = await place(part.id, 300); // 100 now, 200 backordered
    const next = await place(part.id, 150); // all backordered
    const before = (await partDoc(part.id)).availableQuantity;
    await Part.updateOne({ _id: part.id }, { $set: { availableQuantity: before + 250 }, $inc: { onHand: 250 } });
    const [ended] = await Promise.all([
      cancelCustomerOrder(cancelled.order.id, { id: cancelled.user.id, companyId: cancelled.user.companyId ?? null }),
      allocateArrivedStock([part.id]),
    ]);
    expect(ended?.status).toBe("cancelled");
    // Whichever came first, the cancelled order holds nothing and the other order got its 150.
    const doc = await partDoc(part.id);
    expect(doc.holds?.map((hold) => hold.orderId.toString())).toEqual([next.order.id]);
    expect(doc.holds?.[0].backordered ?? 0).toBe(0);
    expect(doc.availableQuantity).toBe(100 + 250 - 150);
    expect((await getOrderById(next.order.id))!.lines[0].backorderedQuantity).toBe(0);
    expect(await stockProblems(part.id)).toEqual([]);
  });
});

describe("parcels", () => {
  test("part-shipped, then the rest once stock arrives; never more than is on the shelf for the order", async () => {
    const part = await backorderablePart(300);
    const { order } = await place(part.id, 500);
    await pay(order.id);

    const tooMany = await shipOrder(
      order.id,
      { carrier: "ups", trackingNumber: "1Z999", lines: [{ lineIndex: 0, quantity: 301 }] },
      { actor, current: null },
    );
    expect(tooMany).toMatchObject({ ok: false, status: 422, lineIndex: 0 });
    if (!tooMany.ok) expect(tooMany.message).toMatch(/At most 300 units .* can ship now .*200 on backorder/);

    const first = await shipOrder(order.id, { carrier: "ups", trackingNumber: "1Z1" }, { actor, current: null });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.complete).toBe(false);
    expect(first.order.state).toBe("part-shipped");
    expect(first.order.lines[0]).toMatchObject({ shippedQuantity: 300, backorderedQuantity: 200 });
    expect((await partDoc(part.id)).onHand).toBe(0);
    expect(await stockProblems(part.id)).toEqual([]);

    const nothing = await shipOrder(order.id, { carrier: "ups", trackingNumber: "1Z2" }, { actor, current: null });
    expect(nothing).toMatchObject({ ok: false, status: 422 });

    await restock(part.id, 250);
    const rest = await shipOrder(order.id, { carrier: "dhl", trackingNumber: "JD2" }, { actor, current: null });
    expect(rest.ok).toBe(true);
    if (!rest.ok) return;
    expect(rest.complete).toBe(true);
    expect(rest.order.state).toBe("shipped");
    expect(rest.order.shipments.map((s) => [s.number, s.lines[0].quantity, s.trackingNumber])).toEqual([
      [1, 300, "1Z1"],
      [2, 200, "JD2"],
    ]);
    expect(
      orderTimeline(rest.order, "customer")
        .filter((event) => event.event === "parcel" || event.event === "shipped")
        .map((event) => event.label),
    ).toEqual([`Parcel 1 shipped: 300 × ${part.name}`, `Parcel 2 shipped: 200 × ${part.name}`, "Shipped"]);
    const doc = await partDoc(part.id);
    expect(doc.holds ?? []).toEqual([]);
    expect(doc).toMatchObject({ availableQuantity: 50, onHand: 50 });
    expect(await stockProblems(part.id)).toEqual([]);
    // A mail per parcel, and a webhook event per parcel's id.
    const mail = await Outbox.find({ _id: { $regex: `^order:${order.id}:shipment:` } }).lean();
    expect(mail.map((entry) => entry.subject)).toEqual([
      `Parcel 1 of your PartsWorks order ${rest.order.number} has shipped`,
      `Parcel 2 of your PartsWorks order ${rest.order.number} has shipped`,
    ]);
  });

  test("two tabs shipping the same line at once: one parcel is recorded, the other is told why", async () => {
    const part = await createPart({ availableQuantity: 400, minOrderQuantity: 100 });
    const { order } = await place(part.id, 200);
    await pay(order.id);
    const tab = () =>
      shipOrder(
        order.id,
        { carrier: "ups", trackingNumber: "1Z3", lines: [{ lineIndex: 0, quantity: 200 }] },
        { actor, current: null },
      );
    const outcomes = await Promise.all([tab(), tab()]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
    const lost = outcomes.find((outcome) => !outcome.ok);
    expect(lost).toBeDefined();
    if (lost && !lost.ok) expect(lost.message).toMatch(/just now|can ship now|Only paid orders/);
    const doc = await Order.findById(order.id).lean();
    expect(doc!.shipments).toHaveLength(1);
    expect(doc!.lines[0].shippedQuantity).toBe(200);
    expect((await partDoc(part.id)).onHand).toBe(200);
    expect(await stockProblems(part.id)).toEqual([]);
  });

  test("the ship form refuses negative units, too many units and a 10,000-character note at the field, writing nothing", async () => {
    const part = await createPart({ availableQuantity: 400, minOrderQuantity: 100 });
    const { order } = await place(part.id, 200);
    await pay(order.id);
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const post = (fields: Record<string, string>) =>
      settle(
        adminOrderAction(
          actionArgs(postRequest(`/dashboard/manageOrders/${order.id}`, fields, { cookie }), { id: order.id }),
        ),
      );
    const base = { intent: "ship", carrier: "ups", trackingNumber: "1Z4" };
    const before = await snapshot({ partIds: [part.id], orderIds: [order.id] });
    const cases: [Record<string, string>, string, number, RegExp][] = [
      [{ ...base, "lines[0].quantity": "-5" }, "lines[0].quantity", 400, /cannot be negative/],
      [{ ...base, "lines[0].quantity": "2.5" }, "lines[0].quantity", 400, /whole number/],
      [{ ...base, "lines[0].quantity": "201" }, "lines[0].quantity", 422, /At most 200 units/],
      [{ ...base, "lines[0].quantity": "100", note: "x".repeat(10_000) }, "note", 400, /at most 500 characters/],
      [{ ...base, "lines[0].quantity": "0" }, "", 422, /at least one line/],
    ];
    for (const [fields, field, status, message] of cases) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(status);
      const reply = (await response.json()).result;
      const errors: string[] = reply.error?.[field] ?? [];
      expect(
        errors.some((error) => message.test(error)),
        `${field}: ${JSON.stringify(reply.error)}`,
      ).toBe(true);
    }
    expect(await snapshot({ partIds: [part.id], orderIds: [order.id] })).toEqual(before);

    const shipped = await post({ ...base, "lines[0].quantity": "120", note: "Fragile" });
    expect(shipped.status).toBe(302);
    const after = (await getOrderById(order.id))!;
    expect(after.state).toBe("part-shipped");
    expect(after.shipments[0]).toMatchObject({ note: "Fragile", lines: [{ quantity: 120 }] });

    // The parcel's own packing slip: its units and its tracking; a parcel that does not exist is a 404.
    const slip = async (query: string) =>
      settle(
        documentLoader(
          loaderArgs(getRequest(`/documents/${order.id}/packing-slip${query}`, { cookie }), {
            id: order.id,
            kind: "packing-slip",
          }),
        ),
      );
    const parcel = await (await slip("?parcel=1")).json();
    expect(parcel.data.order.lines.map((line: { quantity: number }) => line.quantity)).toEqual([120]);
    expect(parcel.data.order.shipment).toEqual({ carrier: "ups", trackingNumber: "1Z4" });
    expect(parcel.pdf).toMatch(/\?parcel=1$/);
    expect((await slip("?parcel=2")).status).toBe(404);
  });
});
