/**
 * Selling in the buyer's currency through the real loaders, actions and checkout: a visitor's
 * "Show prices in" choice, a company buying in euros, and a part without a list in the currency
 * (shown, never converted, never ordered in it). Bad input changes nothing.
 */
import { describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Part } from "~/models/part.server";
import { Order } from "~/orders/model/schema.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { action as cartAction, loader as cartLoader } from "~/routes/dashboard.cart";
import { action as currencyAction } from "~/routes/currency";
import { loader as partLoader } from "~/routes/parts.$id";
import { loader as partsLoader } from "~/routes/parts._index";
import { PRIVATE_CACHE_CONTROL } from "~/services/cache.server";
import { createPart, updateCompanyOf } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DELIVERY_FORM, DETROIT } from "../fixtures/addresses";
import { signedIn } from "./ordering.helpers";

/** A part with a euro list (11.00 a unit, 5 % off from 500) and one sold in dollars only. */
async function euroAndDollarParts() {
  const euro = await createPart({ priceCents: 1250, availableQuantity: 5000 });
  await Part.updateOne(
    { _id: euro.id },
    {
      $set: {
        prices: [
          {
            currency: "EUR",
            priceCents: 1100,
            volumeBreaks: [{ minQuantity: 500, percentOff: 5, unitPriceCents: null }],
          },
        ],
      },
    },
  );
  const dollarsOnly = await createPart({ priceCents: 900, availableQuantity: 5000 });
  return { euro, dollarsOnly };
}

type Card = { id: string; priceCents: number; currency: string; unpriced?: boolean };

describe("a visitor's display currency", () => {
  test("chosen without JavaScript, it is remembered and the catalogue shows each part's euro list or says it has none; the page is never shared", async () => {
    const { euro, dollarsOnly } = await euroAndDollarParts();
    const back = `/parts?q=${encodeURIComponent(euro.name)}`;
    const chosen = await settle(
      currencyAction(actionArgs(postRequest("/currency", { currency: "EUR", redirectTo: back }))),
    );
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("Location")).toBe(back);
    const cookie = chosen.headers.get("Set-Cookie")!.split(";")[0];
    expect(cookie).toMatch(/^__currency=/);

    const cardsOf = async (q: string) => {
      const page = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${encodeURIComponent(q)}`, { cookie }))));
      expect(page.headers.get("Cache-Control")).toBe(PRIVATE_CACHE_CONTROL);
      return ((await page.json()) as { parts: Card[] }).parts;
    };
    expect((await cardsOf(euro.name))[0]).toMatchObject({ id: euro.id, priceCents: 1100, currency: "EUR" });
    expect((await cardsOf(dollarsOnly.name))[0]).toMatchObject({
      id: dollarsOnly.id,
      currency: "EUR",
      unpriced: true,
    });

    // Without the cookie: dollars, as ever.
    const plain = await settle(partsLoader(loaderArgs(getRequest(`/parts?q=${encodeURIComponent(euro.name)}`))));
    expect(((await plain.json()) as { parts: Card[] }).parts[0]).toMatchObject({ priceCents: 1250, currency: "USD" });
  });

  test("a currency the shop does not keep is refused at the field with a 400 and remembers nothing; a foreign redirect goes to the catalogue", async () => {
    const refused = await settle(currencyAction(actionArgs(postRequest("/currency", { currency: "XYZ" }))));
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Set-Cookie")).toBeNull();
    expect((await refused.json()).result.error).toEqual({ currency: ["Choose a currency from the list"] });

    const away = await settle(
      currencyAction(actionArgs(postRequest("/currency", { currency: "GBP", redirectTo: "//evil.example/" }))),
    );
    expect(away.headers.get("Location")).toBe("/parts");
  });
});

describe("a company buying in euros", () => {
  test("the part page prices in euros; a part without a euro list is shown, not sold, and cannot go into the cart", async () => {
    const { euro, dollarsOnly } = await euroAndDollarParts();
    const { user, cookie } = await signedIn();
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });

    const page = await (
      await settle(partLoader(loaderArgs(getRequest(`/parts/${euro.id}`, { cookie }), { id: euro.id })))
    ).json();
    expect(page).toMatchObject({ currency: "EUR", unpriced: false });
    expect(page.prices).toEqual([
      { minQuantity: 100, unitPriceCents: 1100, listPriceCents: 1100 },
      { minQuantity: 500, unitPriceCents: 1045, listPriceCents: 1100 },
    ]);
    const none = await (
      await settle(partLoader(loaderArgs(getRequest(`/parts/${dollarsOnly.id}`, { cookie }), { id: dollarsOnly.id })))
    ).json();
    expect(none).toMatchObject({ currency: "EUR", unpriced: true });

    const add = (partId: string) =>
      settle(
        cartAction(actionArgs(postRequest("/dashboard/cart", { intent: "add", partId, quantity: "100" }, { cookie }))),
      );
    expect((await add(euro.id)).status).toBe(302);
    const refused = await add(dollarsOnly.id);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain(`${dollarsOnly.partNumber} has no price in euros yet`);
    const stored = (await Cart.findOne({ userId: user.id }).lean())!.lines.map((line) => line.partId.toString());
    expect(stored).toEqual([euro.id]);
  });

  test("a cart line left from dollar days says it has no euro price and the checkout is held back; checkout refuses it and writes nothing", async () => {
    const { euro, dollarsOnly } = await euroAndDollarParts();
    const { user, cookie } = await signedIn();
    await Cart.create({
      userId: user.id,
      lines: [
        { partId: euro.id, quantity: 100 },
        { partId: dollarsOnly.id, quantity: 100 },
      ],
    });
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });

    const { cart } = await (await settle(cartLoader(loaderArgs(getRequest("/dashboard/cart", { cookie }))))).json();
    expect(cart.ok).toBe(false);
    expect(cart.currency).toBe("EUR");
    expect(cart.netCents).toBe(1100 * 100);
    const line = cart.lines.find((each: { partId: string }) => each.partId === dollarsOnly.id);
    expect(line.problem.message).toBe(`${dollarsOnly.partNumber} has no price in euros yet: ask us for one.`);

    const before = {
      orders: await Order.countDocuments(),
      stock: (await Part.findById(euro.id).lean())!.availableQuantity,
    };
    const checkout = await settle(
      cartAction(
        actionArgs(
          postRequest("/dashboard/cart", { intent: "checkout", phone: "+1 555 0100", ...DELIVERY_FORM }, { cookie }),
        ),
      ),
    );
    expect(checkout.status).toBeGreaterThanOrEqual(400);
    expect(await Order.countDocuments()).toBe(before.orders);
    expect((await Part.findById(euro.id).lean())!.availableQuantity).toBe(before.stock);

    // The order service itself refuses the line, whoever calls it (the API, the quick-order pad).
    const placed = await placeCustomerOrder({
      lines: [
        { partId: euro.id, quantity: 100 },
        { partId: dollarsOnly.id, quantity: 100 },
      ],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: user.id },
    });
    expect(placed).toMatchObject({ ok: false, failures: [{ partId: dollarsOnly.id, reason: "no-price", index: 1 }] });
    expect(await Order.countDocuments()).toBe(before.orders);
    expect((await Part.findById(euro.id).lean())!.availableQuantity).toBe(before.stock);
  });

  test("an order of euro-priced parts is placed in euros at the euro list and break, and the caps count only euro orders", async () => {
    const { euro } = await euroAndDollarParts();
    const { user } = await signedIn();
    // One open dollar order of a large total: in euros it is not added to the unpaid value cap.
    await updateCompanyOf(user.id, { $set: { unpaidValueCapCents: 700_000 } });
    const dollars = await placeCustomerOrder({
      lines: [{ partId: euro.id, quantity: 500 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: user.id },
    });
    expect(dollars).toMatchObject({ ok: true, order: { currency: "USD" } });
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });

    const placed = await placeCustomerOrder({
      lines: [{ partId: euro.id, quantity: 500 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      user: { id: user.id },
    });
    expect(placed.ok).toBe(true);
    if (!placed.ok) return;
    expect(placed.order.currency).toBe("EUR");
    expect(placed.order.lines[0]).toMatchObject({
      unitPriceCents: 1045,
      listUnitPriceCents: 1100,
      priceSource: "break",
    });
    expect(placed.order.netCents).toBe(1045 * 500);
    expect((await Order.findById(placed.order.id).lean())!.currency).toBe("EUR");
  });
});
