/**
 * The admin back office through the real route actions and loaders: Add Product, Manage Products
 * (edit price and stock, delete) and Manage Orders (ship, remove), with the role check, the
 * bad-input matrix and the conditional updates.
 */
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { getNewestParts, Part } from "~/models/part.server";
import { Session } from "~/models/session.server";
import { action as addAction, loader as addLoader } from "~/routes/dashboard.addProduct";
import { action as ordersAction, loader as ordersLoader } from "~/routes/dashboard.manageOrders";
import { loader as removeLoader } from "~/routes/dashboard.manageOrders_.$id.remove";
import { action as orderPageAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as productsAction, loader as productsLoader } from "~/routes/dashboard.manageProducts";
import { loader as deleteLoader } from "~/routes/dashboard.manageProducts_.$id.delete";
import { action as editAction } from "~/routes/dashboard.manageProducts_.$id.edit";
import { loader as myOrdersLoader } from "~/routes/dashboard.orders";
import { createPart } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { BAD_NUMBERS, badTexts, expectFieldError, signedIn, snapshot, toastOf, withField } from "./ordering.helpers";

type Value = string | { $gt: string } | undefined;
type Case = [field: string, label: string, value: Value, message: RegExp];

const post = (
  fn: typeof addAction | typeof productsAction | typeof ordersAction,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
) => settle(fn(actionArgs(postRequest(path, fields, { cookie }))));

/** A form posted to an order's admin page (ship, payments). */
const postToOrder = (orderId: string, fields: Record<string, string>, cookie: string) =>
  settle(
    orderPageAction(actionArgs(postRequest(`/dashboard/manageOrders/${orderId}`, fields, { cookie }), { id: orderId })),
  );

function goodPart() {
  return {
    name: `Brake Caliper ${Math.random().toString(36).slice(2, 8)}`,
    description: "Two-piston floating caliper, remanufactured.",
    img: "https://images.example.com/caliper.png",
    quantity: "800",
    price: "37",
    minOrderQuantity: "100",
    category: "brakes",
  };
}

describe("customers cannot reach the admin actions", () => {
  test.each([
    ["Add Product", addAction, "/dashboard/addProduct"],
    ["Manage Products", productsAction, "/dashboard/manageProducts"],
    ["Manage Orders", ordersAction, "/dashboard/manageOrders"],
  ] as const)(
    "posting to %s signs the customer out, sends them to /login and changes nothing",
    async (_name, fn, path) => {
      const part = await createPart({ availableQuantity: 500 });
      const { user, cookie } = await signedIn();
      const order = await createOrder({ user, part, status: "paid" });
      const unpaid = await createOrder({ user, part });
      const before = await snapshot({ partIds: [part.id], orderIds: [order.id, unpaid.id] });
      const attempts: Record<string, string>[] = [
        goodPart(),
        { intent: "update", partId: part.id, price: "1", stock: "0", expectedStock: "500" },
        { intent: "delete", partId: part.id },
        { intent: "ship", orderId: order.id },
        { intent: "remove", orderId: unpaid.id, reason: "Ordered twice by mistake" },
      ];
      for (const fields of attempts) {
        // A fresh session each time: the first refusal already signed the customer out.
        const { cookie: again } = await signedIn();
        const response = await post(fn, path, fields, again);
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/login");
        expect(response.headers.getSetCookie().join("\n")).toMatch(/__session=;/);
      }
      expect(await Session.countDocuments({ userId: user.id })).toBe(1);
      const response = await post(fn, path, attempts[0], cookie);
      expect(response.status).toBe(302);
      expect(await Session.countDocuments({ userId: user.id })).toBe(0);
      expect(await snapshot({ partIds: [part.id], orderIds: [order.id, unpaid.id] })).toEqual(before);
    },
  );

  test("the admin screens and confirmation pages turn customers away", async () => {
    const part = await createPart();
    const { user } = await signedIn();
    const order = await createOrder({ user, part });
    let cookie = "";
    const loaders = [
      () => addLoader(loaderArgs(getRequest("/dashboard/addProduct", { cookie }))),
      () => productsLoader(loaderArgs(getRequest("/dashboard/manageProducts", { cookie }))),
      () => ordersLoader(loaderArgs(getRequest("/dashboard/manageOrders", { cookie }))),
      () =>
        deleteLoader(
          loaderArgs(getRequest(`/dashboard/manageProducts/${part.id}/delete`, { cookie }), { id: part.id }),
        ),
      () =>
        removeLoader(
          loaderArgs(getRequest(`/dashboard/manageOrders/${order.id}/remove`, { cookie }), { id: order.id }),
        ),
    ];
    for (const load of loaders) {
      cookie = (await signedIn()).cookie;
      const response = await settle(load());
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/login");
    }
  });
});

describe("Add Product", () => {
  test("stores the part (price in cents, a generated part number) as the newest one", async () => {
    const { cookie } = await signedIn("admin");
    const fields = goodPart();
    const response = await post(addAction, "/dashboard/addProduct", fields, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/manageProducts");
    expect((await toastOf(response))?.message).toBe("Part added successfully");
    const [newest] = await getNewestParts(1);
    expect(newest).toMatchObject({
      name: fields.name,
      description: fields.description,
      img: fields.img,
      priceCents: 3700,
      availableQuantity: 800,
      minOrderQuantity: 100,
    });
    expect(newest.partNumber).toMatch(/^PW-[A-Z0-9]{6}$/);
  });

  test("a site path works as the image, and a chosen part number is kept", async () => {
    const { cookie } = await signedIn("admin");
    const partNumber = `QA-${Date.now()}`;
    const fields = { ...goodPart(), img: "/images/parts/pw-1001.svg", partNumber: partNumber.toLowerCase() };
    expect((await post(addAction, "/dashboard/addProduct", fields, cookie)).status).toBe(302);
    expect(await Part.exists({ partNumber })).toBeTruthy();
  });

  test("a part number already in use: 'Failed to add the part', and nothing is stored", async () => {
    const existing = await createPart();
    const { cookie } = await signedIn("admin");
    const before = await snapshot();
    const response = await post(
      addAction,
      "/dashboard/addProduct",
      { ...goodPart(), partNumber: existing.partNumber },
      cookie,
    );
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.error[""]).toEqual(["Failed to add the part"]);
    expect(body.error.partNumber).toEqual(["That part number is already in use"]);
    expect(await snapshot()).toEqual(before);
  });

  describe("bad input is a 400 with a message by the field, and nothing is stored", () => {
    const cases: Case[] = [
      ...badTexts("Name", 120).map(([l, v, m]): Case => ["name", l, v, m]),
      ...badTexts("Description", 2000).map(([l, v, m]): Case => ["description", l, v, m]),
      ...badTexts("Image URL", 2048).map(([l, v, m]): Case => ["img", l, v, m]),
      ["img", "not a URL", "caliper.png", /valid image URL/],
      ["img", "a script URL", "javascript:alert(1)", /valid image URL/],
      ["img", "protocol-relative", "//evil.example/x.png", /valid image URL/],
      ["img", "a query operator as text", '{"$gt": ""}', /valid image URL/],
      ...BAD_NUMBERS.map(([l, v, m]): Case => ["quantity", l, v, m]),
      ...BAD_NUMBERS.map(([l, v, m]): Case => ["price", l, v, m]),
      ["price", "zero dollars", "0", /Price must be at least 1/],
      ["price", "cents", "12.99", /whole number/],
      ...BAD_NUMBERS.map(([l, v, m]): Case => ["minOrderQuantity", l, v, m]),
      ["minOrderQuantity", "zero", "0", /at least 1/],
      ["partNumber", "spaces and symbols", "PW 1$", /letters, digits or dashes/],
      ["partNumber", "over-long", "P".repeat(33), /letters, digits or dashes/],
      ["partNumber", "a query-operator object", { $gt: "" }, /Part number must be text/],
    ];
    test.each(cases)("%s: %s", async (field, _label, value, message) => {
      const { cookie } = await signedIn("admin");
      const before = await snapshot();
      const response = await post(addAction, "/dashboard/addProduct", withField(goodPart(), field, value), cookie);
      await expectFieldError(response, field, message);
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe("Manage Products", () => {
  const update = (part: { id: string; availableQuantity: number }, fields: Record<string, string> = {}) => ({
    intent: "update",
    partId: part.id,
    price: "45",
    stock: "2500",
    expectedStock: String(part.availableQuantity),
    ...fields,
  });

  test("lists parts newest first, with image, name, price, stock and minimum", async () => {
    const part = await createPart({ priceCents: 900, availableQuantity: 42, minOrderQuantity: 10 });
    const { cookie } = await signedIn("admin");
    const response = await settle(productsLoader(loaderArgs(getRequest("/dashboard/manageProducts", { cookie }))));
    const data = await response.json();
    expect(data.parts[0]).toMatchObject({
      id: part.id,
      img: part.img,
      name: part.name,
      priceCents: 900,
      availableQuantity: 42,
      minOrderQuantity: 10,
    });
  });

  test("edits the price and restocks", async () => {
    const part = await createPart({ priceCents: 500, availableQuantity: 300 });
    const { cookie } = await signedIn("admin");
    const response = await post(productsAction, "/dashboard/manageProducts?page=1", update(part), cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/manageProducts?page=1");
    expect(await Part.findById(part.id).lean()).toMatchObject({ priceCents: 4500, availableQuantity: 2500 });
  });

  test("an edit made from an old stock figure is refused, so orders placed meanwhile are not overwritten", async () => {
    const part = await createPart({ priceCents: 500, availableQuantity: 300 });
    const { cookie } = await signedIn("admin");
    await Part.updateOne({ _id: part.id }, { $inc: { availableQuantity: -100 } }); // an order came in
    const before = await snapshot({ partIds: [part.id] });
    const response = await post(productsAction, "/dashboard/manageProducts", update(part), cookie);
    await expectFieldError(response, "stock", /changed the stock to 200/, 409);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test("a part stored with cents (before prices were whole dollars): saving only its stock works", async () => {
    const part = await createPart({ priceCents: 2450, availableQuantity: 300 });
    const { cookie } = await signedIn("admin");
    const response = await post(productsAction, "/dashboard/manageProducts", update(part, { price: "24.50" }), cookie);
    expect(response.status).toBe(302);
    expect(await Part.findById(part.id).lean()).toMatchObject({ priceCents: 2450, availableQuantity: 2500 });
  });

  test("a new price with cents is refused with what to type instead, even when the form claims it is unchanged", async () => {
    const part = await createPart({ priceCents: 2450, availableQuantity: 300 });
    const whole = await createPart({ priceCents: 2400, availableQuantity: 300 });
    const { cookie } = await signedIn("admin");
    const before = await snapshot({ partIds: [part.id, whole.id] });
    const changed = await post(productsAction, "/dashboard/manageProducts", update(part, { price: "24.75" }), cookie);
    await expectFieldError(changed, "price", "Prices are whole dollars: type 24 or 25, or leave 24.50 as it is");
    // The stored price decides what "unchanged" means, not a hidden field the browser sends.
    const forged = await post(
      productsAction,
      "/dashboard/manageProducts",
      update(part, { price: "24.75", currentPriceCents: "2475" }),
      cookie,
    );
    await expectFieldError(forged, "price", /Prices are whole dollars/);
    const fractional = await post(
      productsAction,
      "/dashboard/manageProducts",
      update(whole, { price: "24.50", currentPriceCents: "2450" }),
      cookie,
    );
    await expectFieldError(fractional, "price", "Price must be a whole number of dollars, such as 24 or 25");
    expect(await snapshot({ partIds: [part.id, whole.id] })).toEqual(before);
  });

  test("Edit Product of a part stored with cents: other fields save, a new price with cents says what to type", async () => {
    const part = await createPart({ priceCents: 2450 });
    const { cookie } = await signedIn("admin");
    const form = {
      name: `${part.name} v2`,
      description: part.description,
      img: part.img,
      price: "24.50",
      minOrderQuantity: "100",
      partNumber: part.partNumber,
      category: "filters",
    };
    const save = (fields: Record<string, string>) =>
      settle(
        editAction(
          actionArgs(postRequest(`/dashboard/manageProducts/${part.id}/edit`, fields, { cookie }), { id: part.id }),
        ),
      );
    expect((await save(form)).status).toBe(302);
    expect(await Part.findById(part.id).lean()).toMatchObject({ name: `${part.name} v2`, priceCents: 2450 });
    await expectFieldError(
      await save({ ...form, price: "19.99" }),
      "price",
      "Prices are whole dollars: type 19 or 20, or leave 24.50 as it is",
    );
    expect((await save({ ...form, price: "20" })).status).toBe(302);
    expect((await Part.findById(part.id).lean())?.priceCents).toBe(2000);
  });

  describe("bad input to the edit is a 400 with a message by the field, and nothing changes", () => {
    const cases: Case[] = [
      ...BAD_NUMBERS.map(([l, v, m]): Case => ["price", l, v, m]),
      ["price", "zero", "0", /Price must be at least 1/],
      ...BAD_NUMBERS.map(([l, v, m]): Case => ["stock", l, v, m]),
      ["partId", "missing", undefined, /Part is Required/],
      ["partId", "malformed", "abc", /Part is not valid/],
      ["partId", "a query operator as text", '{"$gt": ""}', /Part is not valid/],
      ["partId", "a query-operator object", { $gt: "" }, /Part is not valid/],
      ["intent", "unknown", "drop-table", /Choose update or delete/],
    ];
    test.each(cases)("%s: %s", async (field, _label, value, message) => {
      const part = await createPart({ priceCents: 500, availableQuantity: 300 });
      const { cookie } = await signedIn("admin");
      const before = await snapshot({ partIds: [part.id] });
      const response = await post(
        productsAction,
        "/dashboard/manageProducts",
        withField(update(part), field, value),
        cookie,
      );
      await expectFieldError(response, field, message);
      expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    });
  });

  test("delete removes the part with '{name} is deleted'; its orders keep their name and price", async () => {
    const part = await createPart({ priceCents: 700, availableQuantity: 500 });
    const { cookie } = await signedIn("admin");
    const customer = await signedIn();
    const order = await createOrder({ user: customer.user, part, quantity: 100 });

    const page = await settle(
      deleteLoader(loaderArgs(getRequest(`/dashboard/manageProducts/${part.id}/delete`, { cookie }), { id: part.id })),
    );
    expect(page.status).toBe(200);

    const response = await post(
      productsAction,
      "/dashboard/manageProducts",
      { intent: "delete", partId: part.id },
      cookie,
    );
    expect(response.status).toBe(302);
    expect((await toastOf(response))?.message).toBe(`${part.name} is deleted`);
    expect(await Part.exists({ _id: part.id })).toBeNull();

    const mine = await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie: customer.cookie }))));
    const { orders } = await mine.json();
    expect(orders.find((o: { id: string }) => o.id === order.id)).toMatchObject({
      summary: part.name,
      totalCents: 70000,
    });

    // Deleting again, or a part that never existed: 404 with a message, nothing changes.
    const before = await snapshot();
    const again = await post(
      productsAction,
      "/dashboard/manageProducts",
      { intent: "delete", partId: part.id },
      cookie,
    );
    await expectFieldError(again, "", /no longer exists/, 404);
    const gone = await settle(
      deleteLoader(loaderArgs(getRequest(`/dashboard/manageProducts/${part.id}/delete`, { cookie }), { id: part.id })),
    );
    expect(gone.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  test.each([
    ["missing", undefined, /Part is Required/],
    ["malformed", "123", /Part is not valid/],
    ["a query-operator object", { $gt: "" }, /Part is not valid/],
  ] as const)("delete with a %s part id is a 400 and deletes nothing", async (_label, value, message) => {
    await createPart();
    const { cookie } = await signedIn("admin");
    const before = await snapshot();
    const response = await post(
      productsAction,
      "/dashboard/manageProducts",
      withField({ intent: "delete" }, "partId", value),
      cookie,
    );
    await expectFieldError(response, "partId", message);
    expect(await snapshot()).toEqual(before);
  });
});

describe("Manage Orders", () => {
  async function setup() {
    const part = await createPart({ availableQuantity: 1000 });
    const customer = await signedIn();
    const { cookie } = await signedIn("admin");
    return { part, customer: customer.user, cookie };
  }

  test("lists all orders newest first, filters by status and pages", async () => {
    const { part, customer, cookie } = await setup();
    const other = await signedIn();
    const a = await createOrder({ user: customer, part, status: "paid" });
    const b = await createOrder({ user: other.user, part, status: "paid" });
    await createOrder({ user: customer, part, status: "unpaid" });
    const load = async (query: string) =>
      (await settle(ordersLoader(loaderArgs(getRequest(`/dashboard/manageOrders${query}`, { cookie }))))).json();

    // "paid" (the word of older links) lists the Pending orders.
    const paid = await load("?status=paid");
    expect(paid.status).toBe("pending");
    expect(paid.orders.every((o: { status: string }) => o.status === "paid")).toBe(true);
    expect(paid.orders.slice(0, 2).map((o: { id: string }) => o.id)).toEqual([b.id, a.id]);

    const all = await load("");
    const times = all.orders.map((o: { createdAt: string }) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.orders.length).toBeLessThanOrEqual(20);

    // Enough orders for a second page: the pages do not overlap.
    for (let i = 0; i < 21; i++) await createOrder({ user: customer, part, status: "shipped" });
    const first = await load("?status=shipped");
    const second = await load("?status=shipped&page=2");
    expect(first.pageCount).toBeGreaterThanOrEqual(2);
    expect(second.page).toBe(2);
    const firstIds = new Set(first.orders.map((o: { id: string }) => o.id));
    expect(second.orders.some((o: { id: string }) => firstIds.has(o.id))).toBe(false);

    // Unknown filters and pages fall back to all orders, page 1.
    const odd = await load('?status={"$gt":""}&page=-3');
    expect(odd.status).toBeNull();
    expect(odd.page).toBe(1);
  });

  test("Shipping moves a paid order to shipped and records when; twice changes nothing more", async () => {
    const { part, customer, cookie } = await setup();
    const order = await createOrder({ user: customer, part, status: "paid" });
    const ship = { intent: "ship", carrier: "fedex", trackingNumber: "7712 3456 7890" };
    const responses = await Promise.all([postToOrder(order.id, ship, cookie), postToOrder(order.id, ship, cookie)]);
    expect(responses.map((r) => r.status).sort()).toEqual([302, 409]);
    const ok = responses.find((r) => r.status === 302)!;
    expect(ok.headers.get("Location")).toBe(`/dashboard/manageOrders/${order.id}`);
    const shipped = await Order.findById(order.id).lean();
    expect(shipped?.status).toBe("shipped");
    expect(shipped?.shippedAt).toBeInstanceOf(Date);
    expect(shipped?.transactionId).toBe(order.transactionId);
    // Shipping keeps the stock out.
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
  });

  test("an unpaid order cannot be shipped, nor a paid one removed", async () => {
    const { part, customer, cookie } = await setup();
    const unpaid = await createOrder({ user: customer, part });
    const paid = await createOrder({ user: customer, part, status: "paid" });
    const before = await snapshot({ partIds: [part.id], orderIds: [unpaid.id, paid.id] });
    await expectFieldError(
      await postToOrder(unpaid.id, { intent: "ship", carrier: "collected" }, cookie),
      "",
      /Only paid orders, or orders on account/,
      409,
    );
    await expectFieldError(
      await post(
        ordersAction,
        "/dashboard/manageOrders",
        { intent: "remove", orderId: paid.id, reason: "Ordered twice by mistake" },
        cookie,
      ),
      "",
      /Only orders unpaid or awaiting approval, with no money received, can be removed/,
      409,
    );
    expect(await snapshot({ partIds: [part.id], orderIds: [unpaid.id, paid.id] })).toEqual(before);
  });

  test("Remove ends an unpaid order and gives its stock back exactly once, even when posted twice at once", async () => {
    const { part, customer, cookie } = await setup();
    const order = await createOrder({ user: customer, part, quantity: 250 });
    const page = await settle(
      removeLoader(loaderArgs(getRequest(`/dashboard/manageOrders/${order.id}/remove`, { cookie }), { id: order.id })),
    );
    expect(page.status).toBe(200);
    const responses = await Promise.all(
      Array.from({ length: 3 }, () =>
        post(
          ordersAction,
          "/dashboard/manageOrders",
          { intent: "remove", orderId: order.id, reason: "Ordered twice by mistake" },
          cookie,
        ),
      ),
    );
    expect(responses.filter((r) => r.status === 302)).toHaveLength(1);
    const removed = await Order.findById(order.id).lean();
    expect(removed?.status).toBe("removed");
    expect(removed?.removedAt).toBeInstanceOf(Date);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1250);
  });

  test("an order id that does not exist is a 404", async () => {
    const { cookie } = await signedIn("admin");
    const before = await snapshot();
    const response = await post(
      ordersAction,
      "/dashboard/manageOrders",
      { intent: "remove", orderId: "0123456789abcdef01234567", reason: "Ordered twice by mistake" },
      cookie,
    );
    await expectFieldError(response, "", /does not exist/, 404);
    const page = await settle(
      removeLoader(
        loaderArgs(getRequest("/dashboard/manageOrders/0123456789abcdef01234567/remove", { cookie }), {
          id: "0123456789abcdef01234567",
        }),
      ),
    );
    expect(page.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  describe("bad input is a 400 with a message by the field, and nothing changes", () => {
    const cases: [string, string, Value, RegExp][] = [
      ["orderId", "missing", undefined, /Order is Required/],
      ["orderId", "malformed", "42", /Order is not valid/],
      ["orderId", "a query operator as text", '{"$gt": ""}', /Order is not valid/],
      ["orderId", "a query-operator object", { $gt: "" }, /Order is not valid/],
      ["intent", "missing", undefined, /Choose remove/],
      ["intent", "unknown", "refund", /Choose remove/],
    ];
    test.each(cases)("%s: %s", async (field, _label, value, message) => {
      const { part, customer, cookie } = await setup();
      const order = await createOrder({ user: customer, part });
      const before = await snapshot({ orderIds: [order.id], partIds: [part.id] });
      const response = await post(
        ordersAction,
        "/dashboard/manageOrders",
        withField({ intent: "remove", orderId: order.id, reason: "Ordered twice by mistake" }, field, value),
        cookie,
      );
      await expectFieldError(response, field, message);
      expect(await snapshot({ orderIds: [order.id], partIds: [part.id] })).toEqual(before);
    });
  });
});
