/**
 * "Order again": the order placed from a reordered cart names the order it came from in its
 * timeline, with a link, on the customer's and the admin's order pages.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { action as cartAction } from "~/routes/dashboard.cart";
import { loader as adminOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { loader as orderLoader } from "~/routes/dashboard.orders_.$id._index";
import { createPart } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";
import { DELIVERY_FORM } from "../fixtures/addresses";

const post = (fields: Record<string, string>, cookie: string) =>
  settle(cartAction(actionArgs(postRequest("/dashboard/cart", fields, { cookie }))));
const delivery = { phone: "+1 555 0100", ...DELIVERY_FORM };

type Event = { event: string; label: string; link?: { to: string; text: string } };

async function timelineOf(
  load: (args: LoaderFunctionArgs) => Promise<unknown>,
  path: string,
  id: string,
  cookie: string,
): Promise<Event[]> {
  const response = await settle(load(loaderArgs(getRequest(path, { cookie }), { id })));
  expect(response.status).toBe(200);
  return (await response.json()).timeline;
}

describe("reordered from", () => {
  test("the new order's timeline links the order it was reordered from, for the customer and the admin", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const { user, cookie } = await signedIn();
    const past = await createOrder({ user, part, status: "shipped" });
    expect((await post({ intent: "reorder", orderId: past.id }, cookie)).status).toBe(302);
    expect((await post({ intent: "checkout", ...delivery }, cookie)).status).toBe(302);
    const placed = (await Order.findOne({ userId: user.id, _id: { $ne: past.id } }).lean())!;
    const id = String(placed._id);
    expect(String(placed.reorderedFrom)).toBe(past.id);

    const mine = await timelineOf(orderLoader, `/dashboard/orders/${id}`, id, cookie);
    expect(mine.map((event) => event.event)).toEqual(["placed", "reordered"]);
    expect(mine[1]).toMatchObject({
      label: "Reordered from",
      link: { to: `/dashboard/orders/${past.id}`, text: past.number },
    });
    const { cookie: admin } = await signedIn("admin");
    const theirs = await timelineOf(adminOrderLoader, `/dashboard/manageOrders/${id}`, id, admin);
    expect(theirs[1].link?.to).toBe(`/dashboard/manageOrders/${past.id}`);

    // The rendered page carries the link too.
    const html = await (
      await fetch(`${process.env.SHOP_URL}/dashboard/orders/${id}`, { headers: { Cookie: cookie } })
    ).text();
    expect(html).toContain(`href="/dashboard/orders/${past.id}"`);
    expect(past.number).toMatch(/^SO-\d{6,}$/);
    expect(html).toMatch(new RegExp(`href="/dashboard/orders/${past.id}"[^>]*>${past.number}</a>`));
  });

  test("an order from a cart filled by hand says nothing of a reorder, even after an earlier reorder", async () => {
    const part = await createPart({ availableQuantity: 5000 });
    const { user, cookie } = await signedIn();
    const past = await createOrder({ user, part, status: "paid" });
    await post({ intent: "reorder", orderId: past.id }, cookie);
    await post({ intent: "checkout", ...delivery }, cookie);
    await post({ intent: "add", partId: part.id, quantity: "100" }, cookie);
    await post({ intent: "checkout", ...delivery }, cookie);
    const orders = await Order.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
    expect(orders.map((order) => (order.reorderedFrom ? String(order.reorderedFrom) : null))).toEqual([
      null,
      past.id,
      null,
    ]);
  });
});
