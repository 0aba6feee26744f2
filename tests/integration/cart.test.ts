/**
 * The cart through its real route action against the local database: add, update, remove with
 * each part's rules checked every time, checkout into one order (once, even on a double submit),
 * reorder of a past order at today's price, minimum and stock, and bad input that changes nothing.
 */
import { Types } from "mongoose";
import { describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { action as cartAction, loader as cartLoader } from "~/routes/dashboard.cart";
import { action as padAction } from "~/routes/dashboard.quick-order";
import { loader as partsLoader } from "~/routes/parts._index";
import { createPart } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { BAD_NUMBERS, expectFieldError, signedIn, toastOf, withField } from "./ordering.helpers";
import { DELIVERY_FORM } from "../fixtures/addresses";

const post = (fields: Record<string, string>, cookie?: string) =>
  settle(cartAction(actionArgs(postRequest("/dashboard/cart", fields, { cookie }))));
const cartOf = async (cookie: string) =>
  (await (await settle(cartLoader(loaderArgs(getRequest("/dashboard/cart", { cookie }))))).json()).cart;
const linesOf = async (userId: string) =>
  ((await Cart.findOne({ userId }).lean())?.lines ?? []).map((line) => ({
    partId: line.partId.toString(),
    quantity: line.quantity,
  }));
const stockOf = async (id: string) => (await Part.findById(id).lean())?.availableQuantity;
const delivery = { phone: "+1 555 0100", ...DELIVERY_FORM };

describe("the cart", () => {
  test("a refused add posted without JavaScript goes back to the catalogue page and card, which shows the message once", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    const from = `/parts?q=${encodeURIComponent(part.name)}&sort=price-asc&stock=in`;
    const refused = await post({ intent: "add", partId: part.id, quantity: "20", redirectTo: from }, cookie);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(`${from}#part-${part.id}`);
    expect(await linesOf(user.id)).toEqual([]);
    const refusal = refused.headers.get("Set-Cookie")!.split(";")[0];

    const page = await settle(partsLoader(loaderArgs(getRequest(from, { cookie: `${cookie}; ${refusal}` }))));
    expect((await page.clone().json()).refusal).toEqual({
      partId: part.id,
      quantity: "20",
      message: "The minimum order is 100 units",
    });
    // Read once: the page's answer forgets it.
    expect(page.headers.get("Set-Cookie")).toMatch(/__cart_refusal=;.*Max-Age=0/);
    expect(page.headers.get("Cache-Control")).not.toMatch(/public/);

    // A page whose script runs (a fetcher) gets the answer itself, by the field.
    await expectFieldError(
      await post({ intent: "add", partId: part.id, quantity: "20", redirectTo: from, enhanced: "1" }, cookie),
      "quantity",
      "The minimum order is 100 units",
      409,
    );
    // A quantity that is no number comes back the same way; a redirect off the site never.
    const unreadable = await post({ intent: "add", partId: part.id, quantity: "many", redirectTo: from }, cookie);
    expect(unreadable.headers.get("Location")).toBe(`${from}#part-${part.id}`);
    await expectFieldError(
      await post({ intent: "add", partId: part.id, quantity: "20", redirectTo: "https://evil.example/" }, cookie),
      "quantity",
      "The minimum order is 100 units",
      409,
    );
  });

  test("add goes back where it came from with a toast; adding again adds up; the rules hold on the sum", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 300, priceCents: 250 });
    const { user, cookie } = await signedIn();
    const added = await post({ intent: "add", partId: part.id, quantity: "100", redirectTo: "/parts?page=2" }, cookie);
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/parts?page=2");
    expect((await toastOf(added))?.message).toBe(`100 × ${part.name} added to your cart`);
    expect(
      (
        await post({ intent: "add", partId: part.id, quantity: "150", redirectTo: "https://evil.example/" }, cookie)
      ).headers.get("Location"),
    ).toBe("/dashboard/cart");
    expect(await linesOf(user.id)).toEqual([{ partId: part.id, quantity: 250 }]);

    await expectFieldError(
      await post({ intent: "add", partId: part.id, quantity: "100" }, cookie),
      "quantity",
      "Only 300 units are available (250 already in your cart)",
      409,
    );
    const other = await createPart({ minOrderQuantity: 100 });
    await expectFieldError(
      await post({ intent: "add", partId: other.id, quantity: "99" }, cookie),
      "quantity",
      "The minimum order is 100 units",
      409,
    );
    await expectFieldError(
      await post({ intent: "add", partId: "0123456789abcdef01234567", quantity: "100" }, cookie),
      "quantity",
      "This part is no longer available",
      409,
    );
    expect(await linesOf(user.id)).toEqual([{ partId: part.id, quantity: 250 }]);

    const cart = await cartOf(cookie);
    // The net and Michigan's 6 % (the default delivery address names no other place).
    expect(cart).toMatchObject({ netCents: 250 * 250, totalCents: 66_250, totalQuantity: 250, ok: true });
    expect(cart.lines[0]).toMatchObject({ partId: part.id, quantity: 250, lineTotalCents: 62_500, problem: null });
    // Stock is not reserved by a cart.
    expect(await stockOf(part.id)).toBe(300);
  });

  test("update and remove check the part's rules; bad quantities and ids change nothing", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 500 });
    const { user, cookie } = await signedIn();
    await post({ intent: "add", partId: part.id, quantity: "100" }, cookie);
    expect((await post({ intent: "update", partId: part.id, quantity: "400" }, cookie)).status).toBe(302);
    expect(await linesOf(user.id)).toEqual([{ partId: part.id, quantity: 400 }]);

    await expectFieldError(
      await post({ intent: "update", partId: part.id, quantity: "501" }, cookie),
      "quantity",
      "Only 500 units are available",
      409,
    );
    await expectFieldError(
      await post({ intent: "update", partId: part.id, quantity: "50" }, cookie),
      "quantity",
      "The minimum order is 100 units",
      409,
    );
    for (const [, value, message] of BAD_NUMBERS) {
      const response = await post(
        withField({ intent: "update", partId: part.id }, "quantity", value) as Record<string, string>,
        cookie,
      );
      await expectFieldError(response, "quantity", message);
    }
    await expectFieldError(
      await post({ intent: "update", partId: "nope", quantity: "100" }, cookie),
      "partId",
      "Part is not valid",
    );
    expect((await post({ intent: "explode" }, cookie)).status).toBe(400);
    expect(await linesOf(user.id)).toEqual([{ partId: part.id, quantity: 400 }]);

    expect((await post({ intent: "remove", partId: part.id }, cookie)).status).toBe(302);
    expect(await linesOf(user.id)).toEqual([]);
    expect((await post({ intent: "remove", partId: part.id }, cookie)).status).toBe(409);
  });

  test("checkout places one order of every line with one total and goes to pay it; a double submit orders once", async () => {
    const parts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createPart({ priceCents: 100 + i, availableQuantity: 1000 })),
    );
    const { user, cookie } = await signedIn();
    for (const part of parts)
      expect((await post({ intent: "add", partId: part.id, quantity: "100" }, cookie)).status).toBe(302);

    const [first, second] = await Promise.all([
      post({ intent: "checkout", ...delivery }, cookie),
      post({ intent: "checkout", ...delivery }, cookie),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([302, 409]);
    const placed = first.status === 302 ? first : second;
    const orders = await Order.find({ userId: user.id }).lean();
    expect(orders).toHaveLength(1);
    expect(placed.headers.get("Location")).toBe(`/dashboard/payment/${orders[0]._id}`);
    expect(await toastOf(placed)).toMatchObject({
      message: "Your Order is Placed",
      description: "Order Placed Successfully!",
    });
    expect(orders[0].lines).toHaveLength(20);
    const net = parts.reduce((sum, part) => sum + part.priceCents * 100, 0);
    expect(orders[0].netCents).toBe(net);
    expect(orders[0].totalCents).toBe(net + Math.round(net * 0.06));
    expect(await linesOf(user.id)).toEqual([]);
    for (const part of parts) expect(await stockOf(part.id)).toBe(900);
  });

  test("checkout with a line that broke a rule since it was added places nothing and keeps the cart", async () => {
    const fine = await createPart({ availableQuantity: 1000 });
    const shrinking = await createPart({ availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    await post({ intent: "add", partId: fine.id, quantity: "200" }, cookie);
    await post({ intent: "add", partId: shrinking.id, quantity: "500" }, cookie);
    await Part.updateOne({ _id: shrinking.id }, { $set: { availableQuantity: 300 } });

    const cart = await cartOf(cookie);
    expect(cart.ok).toBe(false);
    expect(cart.lines[1].problem).toMatchObject({ message: "Only 300 units are available" });
    const response = await post({ intent: "checkout", ...delivery }, cookie);
    expect(response.status).toBe(409);
    expect((await response.json()).result.error[""]).toEqual(["Fix the line marked in your cart first"]);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
    expect(await linesOf(user.id)).toHaveLength(2);
    expect([await stockOf(fine.id), await stockOf(shrinking.id)]).toEqual([1000, 300]);

    await expectFieldError(
      await post({ intent: "checkout", phone: "x" }, cookie),
      "phone",
      "Provide a valid phone number",
    );
  });

  test("reorder puts a past order back at today's price, minimum and stock, and says what changed", async () => {
    const same = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const dearer = await createPart({ priceCents: 700, availableQuantity: 1000 });
    const raised = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const scarce = await createPart({ availableQuantity: 1000 });
    const gone = await createPart();
    const { user, cookie } = await signedIn();
    const order = await createOrder({
      user,
      status: "shipped",
      lines: [
        { part: same, quantity: 150 },
        { part: dearer, quantity: 100 },
        { part: raised, quantity: 100 },
        { part: scarce, quantity: 400 },
        { part: gone, quantity: 100 },
      ],
    });
    await Part.updateOne({ _id: dearer.id }, { $set: { priceCents: 800 } });
    await Part.updateOne({ _id: raised.id }, { $set: { minOrderQuantity: 200 } });
    await Part.updateOne({ _id: scarce.id }, { $set: { availableQuantity: 250 } });
    await Part.deleteOne({ _id: gone.id });

    const response = await post({ intent: "reorder", orderId: order.id }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/cart");
    expect((await toastOf(response))?.message).toBe("4 lines of your order added to your cart");
    expect(await linesOf(user.id)).toEqual([
      { partId: same.id, quantity: 150 },
      { partId: dearer.id, quantity: 100 },
      { partId: raised.id, quantity: 200 },
      { partId: scarce.id, quantity: 250 },
    ]);
    const cart = await cartOf(cookie);
    expect(cart.notices).toEqual([
      `${dearer.name} (${dearer.partNumber}): the price went up from $7.00 to $8.00 a unit.`,
      `${raised.name} (${raised.partNumber}): raised from 100 to the minimum order of 200 units.`,
      `${gone.name} (${gone.partNumber}) is no longer sold, so it was left out.`,
      `${scarce.name} (${scarce.partNumber}): lowered from 400 to 250 units, all that is available now.`,
    ]);
    expect(cart.ok).toBe(true);

    // Someone else's order, a malformed id: 404 / 400, the cart unchanged.
    const stranger = await signedIn();
    const theirs = await createOrder({ user: stranger.user });
    expect((await post({ intent: "reorder", orderId: theirs.id }, cookie)).status).toBe(404);
    await expectFieldError(await post({ intent: "reorder", orderId: "123" }, cookie), "orderId", "Order is not valid");
    expect(await linesOf(user.id)).toHaveLength(4);
  });

  test("a reorder of which nothing can go into the cart still says why, line by line", async () => {
    const dearerAndScarce = await createPart({ priceCents: 500, minOrderQuantity: 100, availableQuantity: 1000 });
    const held = await createPart({ minOrderQuantity: 100, availableQuantity: 300 });
    const gone = await createPart();
    const { user, cookie } = await signedIn();
    const order = await createOrder({
      user,
      status: "cancelled",
      lines: [
        { part: dearerAndScarce, quantity: 200 },
        { part: held, quantity: 100 },
        { part: gone, quantity: 100 },
      ],
    });
    await Part.updateOne({ _id: dearerAndScarce.id }, { $set: { priceCents: 600, availableQuantity: 50 } });
    await Part.deleteOne({ _id: gone.id });
    // All of `held` that is in stock is in the cart already.
    await post({ intent: "add", partId: held.id, quantity: "300" }, cookie);

    const response = await post({ intent: "reorder", orderId: order.id }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard/cart");
    expect((await toastOf(response))?.message).toBe("Nothing from that order could go into your cart");
    expect(await linesOf(user.id)).toEqual([{ partId: held.id, quantity: 300 }]);
    const cart = await cartOf(cookie);
    expect(cart.noticesFrom).toBe("reorder");
    expect(cart.notices).toEqual([
      `${dearerAndScarce.name} (${dearerAndScarce.partNumber}): the price went up from $5.00 to $6.00 a unit.`,
      `${gone.name} (${gone.partNumber}) is no longer sold, so it was left out.`,
      `${dearerAndScarce.name} (${dearerAndScarce.partNumber}): only 50 units are available now, below its minimum order of 100, so it was left out.`,
      `${held.name} (${held.partNumber}): your cart already holds 300 of the 300 available units, so nothing was added.`,
    ]);
  });

  test("a reorder that would take the cart past 200 lines puts nothing in and says so with the other reasons", async () => {
    const dearer = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user, status: "shipped", lines: [{ part: dearer, quantity: 100 }] });
    await Part.updateOne({ _id: dearer.id }, { $set: { priceCents: 450 } });
    // A full cart (lines of parts no longer sold count as lines too).
    const full = Array.from({ length: 200 }, () => ({ partId: new Types.ObjectId(), quantity: 1 }));
    await Cart.create({ userId: user.id, lines: full });

    const response = await post({ intent: "reorder", orderId: order.id }, cookie);
    expect((await toastOf(response))?.message).toBe("Nothing from that order could go into your cart");
    expect(await linesOf(user.id)).toHaveLength(200);
    const cart = await cartOf(cookie);
    expect(cart.noticesFrom).toBe("reorder");
    expect(cart.notices).toEqual([
      "Your cart would hold more than 200 lines, so none of these went in: make room first.",
      `${dearer.name} (${dearer.partNumber}): the price went down from $5.00 to $4.50 a unit.`,
    ]);
  });

  test("what the quick-order pad changed is kept on the cart as the pad's", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 500 });
    const { cookie } = await signedIn();
    await post({ intent: "add", partId: part.id, quantity: "300" }, cookie);
    const pad = await settle(
      padAction(
        actionArgs(
          postRequest("/dashboard/quick-order", { intent: "cart", lines: `${part.partNumber} 300` }, { cookie }),
        ),
      ),
    );
    expect(pad.status).toBe(302);
    const cart = await cartOf(cookie);
    expect(cart.noticesFrom).toBe("pad");
    expect(cart.notices).toEqual([
      `${part.name} (${part.partNumber}): lowered from 300 to 200 units, all that is available now.`,
    ]);
    // A later change without notices clears them, and where they came from.
    await post({ intent: "update", partId: part.id, quantity: "400" }, cookie);
    expect(await cartOf(cookie)).toMatchObject({ notices: [], noticesFrom: null });
  });

  test("admins have no cart, and a visitor without a session goes to sign in", async () => {
    const part = await createPart();
    const admin = await signedIn("admin");
    const response = await post({ intent: "add", partId: part.id, quantity: "100" }, admin.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const anonymous = await post({ intent: "add", partId: part.id, quantity: "100" });
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    expect(await Cart.countDocuments({ userId: admin.user.id })).toBe(0);
  });
});
