/**
 * Ordering through the real route actions and loaders, against the local database: placing an
 * order (also 50 at once), the bad-input matrix, cancelling, ownership, and reviews.
 */
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { placeOrder } from "~/orders/checkout.server";
import { Part } from "~/models/part.server";
import { Review } from "~/models/review.server";
import { Session } from "~/models/session.server";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { action as cancelAction, loader as cancelLoader } from "~/routes/dashboard.orders_.$id.cancel";
import { loader as myOrdersLoader } from "~/routes/dashboard.orders";
import { action as reviewAction, loader as reviewLoader } from "~/routes/dashboard.review";
import { action as orderAction, loader as partLoader } from "~/routes/parts.$id";
import { createPart } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { BAD_NUMBERS, badTexts, expectFieldError, signedIn, snapshot, toastOf, withField } from "./ordering.helpers";
import { DELIVERY_FORM, DETROIT } from "../fixtures/addresses";

const goodOrder = { phone: "+1 555 0100", ...DELIVERY_FORM, quantity: "150" };

function postOrder(partId: string, fields: Record<string, string>, cookie?: string) {
  return settle(orderAction(actionArgs(postRequest(`/parts/${partId}`, fields, { cookie }), { id: partId })));
}

function postCancel(orderId: string, fields: Record<string, string>, cookie: string) {
  return settle(
    cancelAction(actionArgs(postRequest(`/dashboard/orders/${orderId}/cancel`, fields, { cookie }), { id: orderId })),
  );
}

describe("part details", () => {
  test("signed out, the page sends the visitor to log in and back to this part", async () => {
    const part = await createPart();
    const response = await settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`), { id: part.id })));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("redirectTo")).toBe(`/parts/${part.id}`);
  });

  test("a missing or malformed part id is a 404", async () => {
    const { cookie } = await signedIn();
    for (const id of ["0123456789abcdef01234567", "not-an-id", '{"$gt":""}']) {
      const response = await settle(partLoader(loaderArgs(getRequest(`/parts/${id}`, { cookie }), { id })));
      expect(response.status).toBe(404);
      const posted = await postOrder(id, goodOrder, cookie);
      expect(posted.status).toBe(404);
    }
  });

  test("shows the part and the buyer's name and email from the account", async () => {
    const part = await createPart({ priceCents: 1200, minOrderQuantity: 100, availableQuantity: 700 });
    const { user, cookie } = await signedIn("customer", "Olga Orders");
    const response = await settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id })));
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.part).toMatchObject({ id: part.id, priceCents: 1200, minOrderQuantity: 100, availableQuantity: 700 });
    expect(data.buyer).toMatchObject({ name: "Olga Orders", email: user.email });
  });
});

describe("placing an order", () => {
  test("reserves the stock, snapshots name and unit price, computes the price on the server", async () => {
    const part = await createPart({ priceCents: 1250, minOrderQuantity: 100, availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    // A forged price, name or email in the form changes nothing.
    const response = await postOrder(
      part.id,
      { ...goodOrder, price: "1", priceCents: "1", productName: "Free stuff", email: "someone@else.test" },
      cookie,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/orders");
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Your Order is Placed",
      // $1,875 and 6 % Michigan sales tax: the delivery address is in Michigan.
      description: `Order Placed Successfully! Total: $1,987.50 for 150 × ${part.name}.`,
    });

    const orders = await Order.find({ "lines.partId": part.id }).lean();
    expect(orders).toHaveLength(1);
    expect(orders[0].lines).toHaveLength(1);
    expect(orders[0].lines[0]).toMatchObject({
      partNumber: part.partNumber,
      productName: part.name,
      unitPriceCents: 1250,
      quantity: 150,
      lineTotalCents: 1250 * 150,
    });
    expect(orders[0]).toMatchObject({
      netCents: 1250 * 150,
      taxCents: Math.round(1250 * 150 * 0.06),
      totalCents: Math.round(1250 * 150 * 1.06),
      phone: "+1 555 0100",
      address: "Test Garage\n12 Gear Lane\nDetroit, MI 48209\nUnited States",
      deliveryAddress: DETROIT,
      userEmail: user.email,
      userName: user.name,
      status: "unpaid",
    });
    expect(orders[0].userId.toString()).toBe(user.id);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(350);
  });

  test("50 concurrent orders through the action for stock enough for 20: exactly 20 orders, stock 0", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 2000 });
    const { user, cookie } = await signedIn();
    // One customer places all 50: their own caps on unpaid orders let the stock decide.
    await setUnpaidCaps(user.id, { orders: 1000, valueCents: 1e12 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postOrder(part.id, { ...goodOrder, quantity: "100" }, cookie)),
    );
    const placed = responses.filter((response) => response.status === 302);
    expect(placed).toHaveLength(20);
    // The others are refused with a message by the quantity (400 if they saw the stock gone,
    // 409 if it went while they were being placed).
    for (const response of responses.filter((r) => r.status !== 302)) {
      expect([400, 409]).toContain(response.status);
      expect((await response.json()).error.quantity[0]).toMatch(/Only 0 units are available/);
    }
    expect(await Order.countDocuments({ "lines.partId": part.id })).toBe(20);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(0);
  });

  test("if the order cannot be stored after the stock was reserved, the stock goes back", async () => {
    const part = await createPart({ availableQuantity: 500 });
    const { user } = await signedIn();
    // The Order model refuses a phone over 40 characters: the insert fails after the reservation.
    await expect(
      placeOrder({ lines: [{ partId: part.id, quantity: 100 }], phone: "5".repeat(41), delivery: DETROIT, user }),
    ).rejects.toThrow();
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(500);
    expect(await Order.countDocuments({ "lines.partId": part.id })).toBe(0);
  });

  test("an order above the available stock or below the minimum is refused by the quantity", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 300 });
    const { cookie } = await signedIn();
    const before = await snapshot({ partIds: [part.id] });
    await expectFieldError(
      await postOrder(part.id, { ...goodOrder, quantity: "301" }, cookie),
      "quantity",
      "Only 300 units are available",
    );
    await expectFieldError(
      await postOrder(part.id, { ...goodOrder, quantity: "99" }, cookie),
      "quantity",
      "The minimum order is 100 units",
    );
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  describe("bad input is a 400 with a message by the field, and nothing is written", () => {
    const cases: [string, string, string | { $gt: string } | undefined, RegExp][] = [
      ...BAD_NUMBERS.map(
        ([label, value, message]) => ["quantity", label, value, message] as [string, string, typeof value, RegExp],
      ),
      ...badTexts("Phone", 40).map(
        ([label, value, message]) => ["phone", label, value, message] as [string, string, typeof value, RegExp],
      ),
      ["phone", "letters", "call me maybe", /Provide a valid phone number/],
      ["phone", "a query operator as text", '{"$gt": ""}', /Provide a valid phone number/],
      ...badTexts("Street address", 100).map(
        ([label, value, message]) =>
          ["delivery.line1", label, value, message] as [string, string, typeof value, RegExp],
      ),
      ["delivery.line1", "a 2,000-character line", "x".repeat(2000), /100 characters or fewer/],
      ["delivery.line2", "control characters", "Dock door\u0000\u001b[2J", /control characters/],
      ["delivery.city", "a line break", "Detroit\nOR 97201", /cannot contain line breaks, control characters/],
      ["delivery.country", "missing", undefined, /Choose a country/],
      ["delivery.country", "not an ISO country", "XX", /Choose a country from the list/],
      ["delivery.region", "a province of another country", "ON", /ON is not a state of United States/],
      ["delivery.region", "missing in the US", undefined, /Choose a state/],
      ["delivery.postalCode", "not a ZIP code", "4820", /4820 is not a zip code of United States/],
    ];
    test.each(cases)("%s: %s", async (field, _label, value, message) => {
      const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
      const { cookie } = await signedIn();
      const before = await snapshot({ partIds: [part.id] });
      const response = await postOrder(part.id, withField(goodOrder, field, value), cookie);
      await expectFieldError(response, field, message);
      expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    });
  });

  test("a body that is not a form is a 400 and writes nothing", async () => {
    const part = await createPart();
    const { cookie } = await signedIn();
    const before = await snapshot({ partIds: [part.id] });
    const request = new Request(`http://localhost/parts/${part.id}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ quantity: { $gt: "" }, phone: "1", address: "x" }),
    });
    const response = await settle(orderAction(actionArgs(request, { id: part.id })));
    expect(response.status).toBe(400);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test("signed out, posting an order redirects to login and writes nothing", async () => {
    const part = await createPart();
    const before = await snapshot({ partIds: [part.id] });
    const response = await postOrder(part.id, goodOrder);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login\?/);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test("an admin cannot place an order", async () => {
    const part = await createPart();
    const { cookie } = await signedIn("admin");
    const before = await snapshot({ partIds: [part.id] });
    const response = await postOrder(part.id, goodOrder, cookie);
    expect(response.status).toBe(403);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });
});

describe("My Orders and cancelling", () => {
  test("My Orders lists the customer's own orders only, newest first", async () => {
    const part = await createPart();
    const { user, cookie } = await signedIn();
    const other = await signedIn();
    const first = await createOrder({ user, part });
    const second = await createOrder({ user, part, status: "paid" });
    await createOrder({ user: other.user, part });
    const response = await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie }))));
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.orders.map((order: { id: string }) => order.id)).toEqual([second.id, first.id]);
    expect(data.orders[0]).toMatchObject({ status: "paid", transactionId: second.transactionId });
  });

  test("My Orders is for customers: signed out goes to login, an admin to the dashboard", async () => {
    const signedOut = await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders"))));
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/login/);
    const { cookie } = await signedIn("admin");
    const admin = await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie }))));
    expect(admin.status).toBe(302);
    expect(admin.headers.get("Location")).toBe("/dashboard");
  });

  test("an expired or revoked session on My Orders signs out and goes to the home page", async () => {
    const part = await createPart({ availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user, part });
    await Session.updateMany({ userId: user.id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    const before = await snapshot({ partIds: [part.id], orderIds: [order.id] });
    for (const response of [
      await settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie })))),
      await postCancel(order.id, { confirm: "cancel" }, cookie),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(response.headers.getSetCookie().join("\n")).toMatch(/__session=;/);
    }
    expect(await Session.countDocuments({ userId: user.id })).toBe(0);
    expect(await snapshot({ partIds: [part.id], orderIds: [order.id] })).toEqual(before);
  });

  test("another customer's order is a 404, on the confirmation page and on the action", async () => {
    const part = await createPart({ availableQuantity: 900 });
    const owner = await signedIn();
    const intruder = await signedIn();
    const order = await createOrder({ user: owner.user, part });
    const before = await snapshot({ partIds: [part.id], orderIds: [order.id] });

    const page = await settle(
      cancelLoader(
        loaderArgs(getRequest(`/dashboard/orders/${order.id}/cancel`, { cookie: intruder.cookie }), { id: order.id }),
      ),
    );
    expect(page.status).toBe(404);
    const posted = await postCancel(order.id, { confirm: "cancel" }, intruder.cookie);
    expect(posted.status).toBe(404);
    expect(await snapshot({ partIds: [part.id], orderIds: [order.id] })).toEqual(before);

    const own = await settle(
      cancelLoader(
        loaderArgs(getRequest(`/dashboard/orders/${order.id}/cancel`, { cookie: owner.cookie }), { id: order.id }),
      ),
    );
    expect(own.status).toBe(200);
  });

  describe("a wrong confirmation word is a 400 by the field and changes nothing", () => {
    test.each([
      ["missing", undefined, /Type cancel to confirm/],
      ["empty", "", /Type cancel to confirm/],
      ["wrong word", "drop", /Type exactly cancel/],
      ["capitalised", "Cancel", /Type exactly cancel/],
      ["padded", " cancel ", /Type exactly cancel/],
      ["a query-operator object", { $gt: "" }, /Type cancel to confirm/],
    ] as const)("%s", async (_label, value, message) => {
      const part = await createPart({ availableQuantity: 900 });
      const { user, cookie } = await signedIn();
      const order = await createOrder({ user, part });
      const before = await snapshot({ partIds: [part.id], orderIds: [order.id] });
      const response = await postCancel(order.id, withField({}, "confirm", value), cookie);
      await expectFieldError(response, "confirm", message);
      expect(await snapshot({ partIds: [part.id], orderIds: [order.id] })).toEqual(before);
    });
  });

  test("'cancel' cancels the unpaid order, records the time and gives the stock back once", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    expect((await postOrder(part.id, { ...goodOrder, quantity: "400" }, cookie)).status).toBe(302);
    const order = await Order.findOne({ "lines.partId": part.id, userId: user.id }).lean();
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(600);

    const response = await postCancel(order!._id.toString(), { confirm: "cancel" }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/orders");
    expect((await toastOf(response))?.message).toBe(`Your order SO-${order!.number} (${part.name}) is cancelled`);
    const cancelled = await Order.findById(order!._id).lean();
    expect(cancelled?.status).toBe("cancelled");
    expect(cancelled?.cancelledAt).toBeInstanceOf(Date);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);

    // A second (or concurrent) cancel is refused and gives nothing back again.
    const again = await Promise.all([
      postCancel(order!._id.toString(), { confirm: "cancel" }, cookie),
      postCancel(order!._id.toString(), { confirm: "cancel" }, cookie),
    ]);
    expect(again.map((r) => r.status)).toEqual([409, 409]);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
  });

  test("concurrent cancels of one order give its stock back exactly once", async () => {
    const part = await createPart({ availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user, part, quantity: 100 });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => postCancel(order.id, { confirm: "cancel" }, cookie)),
    );
    expect(responses.filter((r) => r.status === 302)).toHaveLength(1);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(600);
  });

  test("a paid order cannot be cancelled", async () => {
    const part = await createPart({ availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user, part, status: "paid" });
    const before = await snapshot({ partIds: [part.id], orderIds: [order.id] });
    const response = await postCancel(order.id, { confirm: "cancel" }, cookie);
    expect(response.status).toBe(409);
    expect((await response.json()).error[""]).toContain("Only unpaid orders can be cancelled.");
    expect(await snapshot({ partIds: [part.id], orderIds: [order.id] })).toEqual(before);
  });
});

describe("Add A Review", () => {
  const goodReview = { rating: "4", description: "Solid parts, quick pick-up." };

  function postReview(fields: Record<string, string>, cookie?: string) {
    return settle(reviewAction(actionArgs(postRequest("/dashboard/review", fields, { cookie }))));
  }

  test("posts with name, email and the default avatar from the account, newest first", async () => {
    const { user, cookie } = await signedIn("customer", "Rita Reviewer");
    const description = `Great pads ${Date.now()}`;
    const response = await postReview({ rating: "5", description, userName: "Forged", email: "x@y.z" }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/");
    const newest = await Review.findOne().sort({ createdAt: -1, _id: -1 }).lean();
    expect(newest).toMatchObject({
      userName: "Rita Reviewer",
      email: user.email,
      img: "/images/default-avatar.svg",
      rating: 5,
      description,
      verifiedBuyer: false,
    });
  });

  test("a reviewer with a paid order is a verified buyer", async () => {
    const part = await createPart();
    const { user, cookie } = await signedIn();
    await createOrder({ user, part, status: "shipped" });
    expect((await postReview(goodReview, cookie)).status).toBe(302);
    expect((await Review.findOne({ userId: user.id }).lean())?.verifiedBuyer).toBe(true);
  });

  test("the form starts at rating 2 and shows who is reviewing", async () => {
    const { user, cookie } = await signedIn("customer", "Vera Visible");
    const response = await settle(reviewLoader(loaderArgs(getRequest("/dashboard/review", { cookie }))));
    expect(await response.json()).toMatchObject({
      reviewer: { name: "Vera Visible", email: user.email, img: "/images/default-avatar.svg" },
    });
  });

  describe("bad input is a 400 with a message by the field, and nothing is written", () => {
    const cases: [string, string, string | { $gt: string } | undefined, RegExp][] = [
      ["rating", "missing", undefined, /Rating is Required/],
      ["rating", "zero", "0", /from 1 to 5/],
      ["rating", "six", "6", /from 1 to 5/],
      ["rating", "fractional", "2.5", /from 1 to 5/],
      ["rating", "huge", "99999999999999999999", /from 1 to 5/],
      ["rating", "non-numeric", "five", /from 1 to 5/],
      ["rating", "a query-operator object", { $gt: "" }, /from 1 to 5/],
      ...badTexts("Description", 1000).map(
        ([label, value, message]) => ["description", label, value, message] as [string, string, typeof value, RegExp],
      ),
    ];
    test.each(cases)("%s: %s", async (field, _label, value, message) => {
      const { cookie } = await signedIn();
      const before = await snapshot();
      await expectFieldError(await postReview(withField(goodReview, field, value), cookie), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  test("an admin posting a review directly is turned away and nothing is written", async () => {
    const { cookie } = await signedIn("admin");
    const before = await snapshot();
    const response = await postReview(goodReview, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await snapshot()).toEqual(before);
  });

  test("a revoked session cannot post", async () => {
    const { user, cookie } = await signedIn();
    await Session.deleteMany({ userId: user.id });
    const before = await snapshot();
    const response = await postReview(goodReview, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/login/);
    expect(await snapshot()).toEqual(before);
  });
});
