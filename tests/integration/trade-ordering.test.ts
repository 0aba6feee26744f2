/**
 * Ordering with the trade account: the order forms start from the profile's phone and default
 * delivery address, "Save to my address book" keeps a new address (once) and a missing phone, the
 * PO number is stored and shown (in the loaders' data and in the rendered pages), and bad input is
 * refused at the field with nothing written.
 */
import { describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Order } from "~/orders/model/schema.server";
import { action as cartAction, loader as cartLoader } from "~/routes/dashboard.cart";
import { loader as manageOrdersLoader } from "~/routes/dashboard.manageOrders";
import { loader as myOrdersLoader } from "~/routes/dashboard.orders";
import { loader as orderPageLoader } from "~/routes/dashboard.orders_.$id._index";
import { action as padAction, loader as padLoader } from "~/routes/dashboard.quick-order";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as orderAction, loader as partLoader } from "~/routes/parts.$id";
import { createPart, storedCustomer } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, fetchPage, getRequest, loaderArgs, pageText, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, snapshot } from "./ordering.helpers";
import { addressForm, DETROIT, DELIVERY_FORM, TOLEDO } from "../fixtures/addresses";

const postOrder = (partId: string, fields: Record<string, string>, cookie: string) =>
  settle(orderAction(actionArgs(postRequest(`/parts/${partId}`, fields, { cookie }), { id: partId })));
const postCart = (fields: Record<string, string>, cookie: string) =>
  settle(cartAction(actionArgs(postRequest("/dashboard/cart", fields, { cookie }))));
const postPad = (fields: Record<string, string>, cookie: string) =>
  settle(padAction(actionArgs(postRequest("/dashboard/quick-order", fields, { cookie }))));
const postProfile = (fields: Record<string, string>, cookie: string) =>
  settle(profileAction(actionArgs(postRequest("/dashboard?index", fields, { cookie }))));
const json = async (response: Promise<Response>) => (await response).json();
const stored = (id: string) => storedCustomer(id);

const fiftyLines = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
/** An address-book entry as My Profile's form posts it (`postal.line1`, …). */
const bookEntry = (address: typeof DETROIT) => addressForm(address, "postal");
const PLANT = { ...DETROIT, company: "", line1: "1 Plant Road", city: "Flint", postalCode: "48502" };
const DEPOT = { ...TOLEDO, line1: "2 Depot Lane" };

describe("the order forms start from the profile", () => {
  test("the default delivery address and the profile's phone; the profile's address when the book is empty", async () => {
    const part = await createPart();
    const { cookie } = await signedIn();
    // A profile's own address stays free text; an order form reads it into fields where that is certain.
    await postProfile(
      { intent: "profile", name: "Tara Trade", number: "+49 30 123456", address: "Old Street 1\nDetroit, MI 48209" },
      cookie,
    );
    const partPage = () =>
      json(settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id }))));
    expect((await partPage()).buyer).toMatchObject({
      phone: "+49 30 123456",
      delivery: { line1: "Old Street 1", city: "Detroit", region: "MI", postalCode: "48209", country: "US" },
      confirmAddress: null,
      addressId: null,
    });

    await postProfile({ intent: "address-save", label: "Plant", ...bookEntry(PLANT) }, cookie);
    await postProfile({ intent: "address-save", label: "Depot", ...bookEntry(DEPOT), makeDefault: "on" }, cookie);
    const { buyer: withBook } = await partPage();
    const depotId = withBook.addressId;
    expect(depotId).toEqual(expect.any(String));
    const buyer = { phone: "+49 30 123456", delivery: DEPOT, addressId: depotId, confirmAddress: null };
    expect(withBook).toMatchObject(buyer);
    expect((await json(settle(cartLoader(loaderArgs(getRequest("/dashboard/cart", { cookie })))))).buyer).toMatchObject(
      buyer,
    );
    expect((await json(settle(padLoader(loaderArgs(getRequest("/dashboard/quick-order", { cookie })))))).buyer).toEqual(
      buyer,
    );

    // Another saved address is offered too; choosing it (?deliverTo=id) starts the form with it.
    expect(withBook.saved.map((entry: { label: string }) => entry.label)).toEqual(["Plant", "Depot"]);
    const plant = withBook.saved[0].id;
    const chosen = await json(
      settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}?deliverTo=${plant}`, { cookie }), { id: part.id }))),
    );
    expect(chosen.buyer).toMatchObject({ delivery: PLANT, addressId: plant });
    // An id that is not in this buyer's book falls back to the default.
    const stranger = `/parts/${part.id}?deliverTo=0123456789abcdef01234567`;
    const other = await json(settle(partLoader(loaderArgs(getRequest(stranger, { cookie }), { id: part.id }))));
    expect(other.buyer).toMatchObject({ delivery: DEPOT, addressId: depotId });
  });
});

describe("ordering with a PO number and the address book", () => {
  test("the part page stores the PO number; a new address and a missing phone are saved once", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const order = { phone: "+1 555 0100", ...DELIVERY_FORM, quantity: "100", saveAddress: "on" };
    expect((await postOrder(part.id, { ...order, poNumber: " PO-4500/17 " }, cookie)).status).toBe(302);
    // The same address with other capitals and spacing is not added twice; a phone on the profile stays.
    expect(
      (
        await postOrder(
          part.id,
          { ...order, phone: "+1 555 0199", "delivery.line1": "12  gear LANE", "delivery.city": "detroit" },
          cookie,
        )
      ).status,
    ).toBe(302);

    const orders = await Order.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
    expect(orders.map((entry) => entry.poNumber)).toEqual(["PO-4500/17", undefined]);
    const profile = await stored(user.id);
    expect(profile?.addresses?.map((entry) => entry.postal)).toEqual([DETROIT]);
    expect(profile?.addresses?.[0].address).toBe("Test Garage\n12 Gear Lane\nDetroit, MI 48209\nUnited States");
    expect(profile?.number).toBe("+1 555 0100");
  });

  test("with the box unticked nothing reaches the profile", async () => {
    const part = await createPart();
    const { user, cookie } = await signedIn();
    expect(
      (await postOrder(part.id, { phone: "+1 555 0100", ...addressForm(TOLEDO), quantity: "100" }, cookie)).status,
    ).toBe(302);
    const profile = await stored(user.id);
    expect(profile?.addresses ?? []).toHaveLength(0);
    expect(profile?.number).toBeUndefined();
  });

  test("checkout and the quick-order pad store the PO number too; it shows in My Orders, Manage Orders and the order page", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const delivery = { phone: "+1 555 0100", ...addressForm(TOLEDO), saveAddress: "on" };
    await postCart({ intent: "add", partId: part.id, quantity: "100" }, cookie);
    expect((await postCart({ intent: "checkout", ...delivery, poNumber: "CART-1" }, cookie)).status).toBe(302);
    expect(
      (await postPad({ intent: "order", lines: `${part.partNumber} 100`, ...delivery, poNumber: "PAD-2" }, cookie))
        .status,
    ).toBe(302);
    expect((await stored(user.id))?.addresses?.map((entry) => entry.postal)).toEqual([TOLEDO]);

    const mine = await json(settle(myOrdersLoader(loaderArgs(getRequest("/dashboard/orders", { cookie })))));
    expect(mine.orders.map((order: { poNumber: string }) => order.poNumber)).toEqual(["PAD-2", "CART-1"]);
    const page = await json(
      settle(
        orderPageLoader(
          loaderArgs(getRequest(`/dashboard/orders/${mine.orders[1].id}`, { cookie }), { id: mine.orders[1].id }),
        ),
      ),
    );
    expect(page.order.poNumber).toBe("CART-1");
    const admin = await signedIn("admin");
    const all = await json(
      settle(manageOrdersLoader(loaderArgs(getRequest("/dashboard/manageOrders", { cookie: admin.cookie })))),
    );
    const ids = new Set(mine.orders.map((order: { id: string }) => order.id));
    expect(
      all.orders
        .filter((order: { id: string }) => ids.has(order.id))
        .map((order: { poNumber: string }) => order.poNumber),
    ).toEqual(["PAD-2", "CART-1"]);
  });
});

describe("the PO number on the pages as the shop renders them", () => {
  test("My Orders, the order page, Manage Orders and the admin's order page show it", async () => {
    const { user, cookie } = await signedIn();
    const order = await createOrder({ user, poNumber: "PO-HTML/9" });
    const admin = await signedIn("admin");
    const pages: [path: string, cookie: string, shows: string][] = [
      ["/dashboard/orders", cookie, "PO PO-HTML/9"],
      [`/dashboard/orders/${order.id}`, cookie, "Your PO number: PO-HTML/9"],
      [`/dashboard/manageOrders?q=${encodeURIComponent(user.email)}`, admin.cookie, "PO PO-HTML/9"],
      [`/dashboard/manageOrders/${order.id}`, admin.cookie, "Customer’s PO number PO-HTML/9"],
    ];
    for (const [path, who, shows] of pages) {
      const response = await fetchPage(path, who);
      expect(response.status, path).toBe(200);
      expect(await pageText(response), path).toContain(shows);
    }
  });
});

describe("bad input is refused at the field and changes nothing", () => {
  test("a 2,000-character or HTML PO number, a 50-line street, a bad city or ZIP code: on the part page, checkout and the pad", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    await postCart({ intent: "add", partId: part.id, quantity: "100" }, cookie);
    const cartBefore = (await Cart.findOne({ userId: user.id }).lean())?.lines.length;
    const profileBefore = JSON.stringify(await stored(user.id));
    const before = await snapshot({ partIds: [part.id] });
    const good = { phone: "+1 555 0100", ...DELIVERY_FORM, saveAddress: "on" };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ poNumber: "P".repeat(2000) }, "poNumber", /PO number must be 35 characters or fewer/],
      [{ poNumber: "<b>PO</b>" }, "poNumber", /plain text/],
      [{ "delivery.line1": fiftyLines }, "delivery.line1", /cannot contain line breaks, control characters/],
      [{ "delivery.line2": "x".repeat(2000) }, "delivery.line2", /100 characters or fewer/],
      [{ "delivery.city": "<script>alert(1)</script>" }, "delivery.city", /plain text/],
      [{ "delivery.postalCode": "SW1A 1AA" }, "delivery.postalCode", /not a zip code of United States/],
    ];
    for (const [bad, field, message] of cases) {
      await expectFieldError(await postOrder(part.id, { ...good, quantity: "100", ...bad }, cookie), field, message);
      await expectFieldError(await postCart({ intent: "checkout", ...good, ...bad }, cookie), field, message);
      await expectFieldError(
        await postPad({ intent: "order", lines: `${part.partNumber} 100`, ...good, ...bad }, cookie),
        field,
        message,
      );
    }
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect((await Cart.findOne({ userId: user.id }).lean())?.lines.length).toBe(cartBefore);
    expect(JSON.stringify(await stored(user.id))).toBe(profileBefore);
  });
});
