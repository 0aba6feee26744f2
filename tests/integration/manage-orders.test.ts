/**
 * Manage Orders' search, filters and pages (all in the URL, answered by the database), and the
 * order page for admins: the Stripe transaction id and who did each step of the timeline.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { action as ordersAction, loader as ordersLoader } from "~/routes/dashboard.manageOrders";
import { action as adminOrderAction, loader as adminOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { loader as customerOrderLoader } from "~/routes/dashboard.orders_.$id._index";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn } from "./ordering.helpers";

type Listed = {
  orders: { id: string; userEmail: string; status: string; createdAt: string }[];
  total: number;
  page: number;
  pageCount: number;
};

async function list(query: string, cookie: string, status = 200): Promise<Listed> {
  const response = await settle(ordersLoader(loaderArgs(getRequest(`/dashboard/manageOrders?${query}`, { cookie }))));
  expect(response.status, query).toBe(status);
  return response.json();
}

async function setCreated(orderId: string, createdAt: Date) {
  await Order.collection.updateOne({ _id: new Order.base.Types.ObjectId(orderId) }, { $set: { createdAt } });
}

describe("search, filters and pages", () => {
  test("by order number, by email or its start, by status and by the days placed, 20 a page, newest first", async () => {
    const { cookie } = await signedIn("admin");
    const tag = randomUUID().slice(0, 8);
    const customer = await createUser({ email: `buyer-${tag}@example.com` });
    const other = await createUser({ email: `buyer-${tag}x@example.org` });
    const part = await createPart();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const order = await createOrder({ user: customer, part, status: i % 2 === 0 ? "unpaid" : "paid" });
      await setCreated(order.id, new Date(Date.UTC(2025, 0, 1 + i, 12)));
      ids.push(order.id);
    }
    const theirs = await createOrder({ user: other, part, status: "shipped" });

    // An order number finds that order alone, in any case.
    const one = await list(`q=${ids[4].toUpperCase()}`, cookie);
    expect(one.orders.map((order) => order.id)).toEqual([ids[4]]);

    // The whole email, or its start in any case; newest first, 20 a page, the rest on page 2.
    const all = await list(`q=${encodeURIComponent(customer.email.toUpperCase())}`, cookie);
    expect(all).toMatchObject({ total: 23, page: 1, pageCount: 2 });
    expect(all.orders.map((order) => order.id)).toEqual([...ids].reverse().slice(0, 20));
    const second = await list(`q=${encodeURIComponent(customer.email)}&page=2`, cookie);
    expect(second.orders.map((order) => order.id)).toEqual([ids[2], ids[1], ids[0]]);
    const prefix = await list(`q=buyer-${tag}`, cookie);
    expect(prefix.total).toBe(24);
    expect(prefix.orders[0].id).toBe(theirs.id);

    // A page past the end shows the last page.
    expect((await list(`q=${encodeURIComponent(customer.email)}&page=9`, cookie)).page).toBe(2);

    // Status and days placed (whole UTC days, both ends included) narrow the search.
    const paid = await list(`q=buyer-${tag}%40&status=paid`, cookie);
    expect(paid.total).toBe(11);
    expect(paid.orders.every((order) => order.status === "paid")).toBe(true);
    const days = await list(`q=buyer-${tag}&from=2025-01-03&to=2025-01-05`, cookie);
    expect(days.orders.map((order) => order.id)).toEqual([ids[4], ids[3], ids[2]]);
    const daysPaid = await list(`q=buyer-${tag}&from=2025-01-03&to=2025-01-05&status=paid`, cookie);
    expect(daysPaid.orders.map((order) => order.id)).toEqual([ids[3]]);

    // Search text is text, never a pattern.
    expect((await list(`q=${encodeURIComponent(".*")}`, cookie)).total).toBe(0);
    expect((await list(`q=${encodeURIComponent("buyer-.*")}`, cookie)).total).toBe(0);
  });

  test("a bad filter is a 400 with its message next to the field, and lists nothing", async () => {
    const { cookie } = await signedIn("admin");
    const cases: [string, string, string][] = [
      ["status=lost", "status", "Choose a status from the list"],
      ["from=2025-1-1", "from", "Enter a date such as 2026-01-31"],
      ["from=2025-02-01&to=2025-01-01", "to", "The end date must not be before the start date"],
      [`q=${"a".repeat(300)}`, "q", "Search for at most 254 characters"],
    ];
    for (const [query, field, message] of cases) {
      const response = await settle(
        ordersLoader(loaderArgs(getRequest(`/dashboard/manageOrders?${query}`, { cookie }))),
      );
      const clone = response.clone();
      await expectFieldError(response, field, message);
      expect((await clone.json()).orders).toEqual([]);
    }
  });

  test("customers are signed out", async () => {
    const { cookie } = await signedIn();
    const response = await settle(ordersLoader(loaderArgs(getRequest("/dashboard/manageOrders?q=a", { cookie }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });
});

describe("the order page", () => {
  test("admins see any order with its Stripe transaction id and who did each step; the customer reads you and the shop", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser({ name: "Tina Timeline" });
    const order = await createOrder({ user: customer, status: "paid", transactionId: "pi_test_timeline123" });
    const shipped = await settle(
      adminOrderAction(
        actionArgs(
          postRequest(`/dashboard/manageOrders/${order.id}`, { intent: "ship", carrier: "collected" }, { cookie }),
          { id: order.id },
        ),
      ),
    );
    expect(shipped.status).toBe(302);

    const response = await settle(
      adminOrderLoader(loaderArgs(getRequest(`/dashboard/manageOrders/${order.id}`, { cookie }), { id: order.id })),
    );
    expect(response.status).toBe(200);
    const page = await response.json();
    expect(page.order).toMatchObject({ id: order.id, transactionId: "pi_test_timeline123", status: "shipped" });
    expect(page.timeline.map((event: { event: string; actor: string }) => [event.event, event.actor])).toEqual([
      ["placed", `Tina Timeline (${customer.email})`],
      ["paid", `Tina Timeline (${customer.email}), by card through Stripe`],
      ["parcel", `the shop (${admin.email})`],
      ["shipped", `the shop (${admin.email})`],
    ]);

    const own = await settle(
      customerOrderLoader(
        loaderArgs(getRequest(`/dashboard/orders/${order.id}`, { cookie: await sessionCookieHeader(customer.id) }), {
          id: order.id,
        }),
      ),
    );
    expect(
      (await own.json()).timeline.map((event: { event: string; actor: string }) => [event.event, event.actor]),
    ).toEqual([
      ["placed", "you"],
      ["paid", "you, by card through Stripe"],
      ["parcel", "the shop"],
      ["shipped", "the shop"],
    ]);
  });

  test("cancelled by the customer and removed by the shop", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser();
    const removed = await createOrder({ user: customer });
    const cancelled = await createOrder({ user: customer });
    await Order.updateOne({ _id: cancelled.id }, { $set: { status: "cancelled", cancelledAt: new Date() } });
    await settle(
      ordersAction(
        actionArgs(
          postRequest(
            "/dashboard/manageOrders",
            { intent: "remove", orderId: removed.id, reason: "Ordered twice by mistake" },
            { cookie },
          ),
        ),
      ),
    );

    const timelineOf = async (id: string) => {
      const response = await settle(
        adminOrderLoader(loaderArgs(getRequest(`/dashboard/manageOrders/${id}`, { cookie }), { id })),
      );
      const body = await response.json();
      return body.timeline.map((event: { event: string; actor: string }) => [event.event, event.actor]);
    };
    expect((await timelineOf(removed.id)).at(-1)).toEqual(["removed", `the shop (${admin.email})`]);
    expect((await timelineOf(cancelled.id)).at(-1)).toEqual(["cancelled", `${customer.name} (${customer.email})`]);
    const unpaid = await settle(
      adminOrderLoader(
        loaderArgs(getRequest(`/dashboard/manageOrders/${cancelled.id}`, { cookie }), { id: cancelled.id }),
      ),
    );
    expect((await unpaid.json()).order.transactionId).toBe(null);
  });

  test("an unknown order is a 404; a customer is signed out", async () => {
    const { cookie } = await signedIn("admin");
    for (const id of ["0".repeat(24), "not-an-id"]) {
      const response = await settle(
        adminOrderLoader(loaderArgs(getRequest(`/dashboard/manageOrders/${id}`, { cookie }), { id })),
      );
      expect(response.status).toBe(404);
    }
    const { cookie: customer } = await signedIn();
    const refused = await settle(
      adminOrderLoader(loaderArgs(getRequest(`/dashboard/manageOrders/x`, { cookie: customer }), { id: "x" })),
    );
    expect(refused.status).toBe(302);
  });
});
