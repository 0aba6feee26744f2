/**
 * Shop Today, the admin's home, against the real database through its loader: the orders waiting
 * for payment and for shipment oldest first, the parts below their own low-stock threshold, and the
 * sales of the last 30 days by the day they were paid: a figure a currency, never their sum.
 */
import { describe, expect, test } from "vitest";
import { lowStockParts } from "~/orders/model/admin-home.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { loader } from "~/routes/dashboard.admin";
import { action as editAction } from "~/routes/dashboard.manageProducts_.$id.edit";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { formatCents } from "~/format";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SalesChart } from "~/components/sales-chart";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, snapshot } from "./ordering.helpers";

const DAY_MS = 24 * 60 * 60 * 1000;

async function load(cookie: string) {
  const response = await settle(loader(loaderArgs(getRequest("/dashboard/admin", { cookie }))));
  expect(response.status).toBe(200);
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  return response.json();
}

/** Orders placed long ago (older than anything other tests write), so they lead their lists. */
async function backdate(orderId: string, createdAt: Date) {
  await Order.collection.updateOne({ _id: new Order.base.Types.ObjectId(orderId) }, { $set: { createdAt } });
}

describe("what needs doing now", () => {
  test("orders waiting for payment and paid ones waiting for shipment, oldest first, with their counts", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser();
    const part = await createPart();
    const year = 1990 + Math.floor(Math.random() * 8); // old, and apart from the browser tests' orders
    const at = (day: number) => new Date(Date.UTC(year, 0, day));
    const unpaid: string[] = [];
    for (const day of [3, 1, 2]) {
      const order = await createOrder({ user: customer, part, status: "unpaid" });
      await backdate(order.id, at(day));
      unpaid[day - 1] = order.id;
    }
    const paid: string[] = [];
    for (const day of [2, 1]) {
      const order = await createOrder({ user: customer, part, status: "paid" });
      await backdate(order.id, at(day));
      paid[day - 1] = order.id;
    }
    const shipped = await createOrder({ user: customer, part, status: "shipped" });
    await backdate(shipped.id, at(1));

    const home = await load(cookie);
    const ids = (list: { orders: { id: string }[] }) => list.orders.map((order) => order.id);
    expect(ids(home.awaitingPayment).filter((id: string) => unpaid.includes(id))).toEqual(unpaid);
    expect(ids(home.awaitingShipment).filter((id: string) => paid.includes(id))).toEqual(paid);
    expect(ids(home.awaitingShipment)).not.toContain(shipped.id);
    expect(home.awaitingPayment.total).toBe(await Order.countDocuments({ status: "unpaid" }));
    // To ship: paid, or confirmed on account.
    expect(home.awaitingShipment.total).toBe(await Order.countDocuments({ status: { $in: ["paid", "account"] } }));
    for (const list of [home.awaitingPayment, home.awaitingShipment]) {
      const times = list.orders.map((order: { createdAt: string }) => order.createdAt);
      expect(times).toEqual([...times].sort());
      expect(list.orders.length).toBeLessThanOrEqual(10);
    }
    expect(home.awaitingShipment.orders.find((order: { id: string }) => order.id === paid[0])).toMatchObject({
      userEmail: customer.email,
      totalCents: part.priceCents * 100,
      currency: "USD",
    });
  });
});

describe("low stock", () => {
  test("a part is low below its own threshold, or below its minimum order when it has none", async () => {
    const { cookie } = await signedIn("admin");
    const belowMinimum = await createPart({ availableQuantity: 50, minOrderQuantity: 100 });
    const belowOwn = await createPart({ availableQuantity: 500, minOrderQuantity: 100 });
    const aboveOwn = await createPart({ availableQuantity: 500, minOrderQuantity: 100 });
    const ownBelowMinimum = await createPart({ availableQuantity: 50, minOrderQuantity: 100 });
    await Part.updateOne({ _id: belowOwn.id }, { $set: { lowStockThreshold: 600 } });
    await Part.updateOne({ _id: aboveOwn.id }, { $set: { lowStockThreshold: 400 } });
    await Part.updateOne({ _id: ownBelowMinimum.id }, { $set: { lowStockThreshold: 10 } });

    const all = await lowStockParts(1_000_000);
    const low = new Map(all.parts.map((part) => [part.id, part]));
    expect(low.get(belowMinimum.id)).toMatchObject({
      availableQuantity: 50,
      threshold: 100,
      partNumber: belowMinimum.partNumber,
    });
    expect(low.get(belowOwn.id)).toMatchObject({ availableQuantity: 500, threshold: 600 });
    expect(low.has(aboveOwn.id)).toBe(false);
    expect(low.has(ownBelowMinimum.id)).toBe(false);
    expect(all.total).toBe(all.parts.length);

    const home = await load(cookie);
    expect(home.lowStock.total).toBe((await lowStockParts(1_000_000)).total);
    expect(home.lowStock.parts.length).toBe(Math.min(20, home.lowStock.total));
    const stock = home.lowStock.parts.map((part: { availableQuantity: number }) => part.availableQuantity);
    expect(stock).toEqual([...stock].sort((a, b) => a - b));
  });

  test("Edit Product sets a part's own threshold and clears it; a bad one is refused next to the field", async () => {
    const { cookie } = await signedIn("admin");
    const part = await createPart({ availableQuantity: 500, minOrderQuantity: 100 });
    const form = {
      name: part.name,
      description: part.description,
      img: part.img,
      price: String(part.priceCents / 100),
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
    const isLow = async () => (await lowStockParts(1_000_000)).parts.some((low) => low.id === part.id);

    expect((await save({ ...form, lowStockThreshold: "501" })).status).toBe(302);
    expect((await Part.findById(part.id).lean())?.lowStockThreshold).toBe(501);
    expect(await isLow()).toBe(true);
    const before = await snapshot({ partIds: [part.id] });
    await expectFieldError(
      await save({ ...form, lowStockThreshold: "-1" }),
      "lowStockThreshold",
      "Low-stock threshold must be 0 or more",
    );
    await expectFieldError(
      await save({ ...form, lowStockThreshold: "2.5" }),
      "lowStockThreshold",
      "Low-stock threshold must be a whole number",
    );
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect((await save({ ...form, lowStockThreshold: "" })).status).toBe(302);
    expect((await Part.findById(part.id).lean())?.lowStockThreshold ?? null).toBe(null);
    expect(await isLow()).toBe(false);
  });
});

type DaySales = { day: string; totalCents: number; orders: number };
type Home = { sales: { currency: string; totalCents: number; orders: number; days: DaySales[] }[] };
/** The days of the dollar series (the other tests' orders are in dollars). */
const dollarDays = (home: Home) => home.sales.find((series) => series.currency === "USD")!.days;

describe("sales of the last 30 days", () => {
  test("paid and shipped orders by the UTC day they were paid, today included, nothing older", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser();
    const before = await load(cookie);
    // The home currency's series comes first, whether or not anything sold in it.
    expect(before.sales[0].currency).toBe("USD");
    const days = dollarDays(before);
    expect(days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.at(-1)?.day).toBe(today);
    for (let i = 1; i < 30; i++) {
      expect(Date.parse(days[i].day) - Date.parse(days[i - 1].day)).toBe(DAY_MS);
    }

    const paidDaysAgo = async (days: number, priceCents: number, status: "paid" | "shipped" | "cancelled" = "paid") => {
      const part = await createPart({ priceCents });
      const order = await createOrder({
        user: customer,
        part,
        quantity: 1,
        status: status === "cancelled" ? "unpaid" : status,
      });
      await Order.collection.updateOne(
        { _id: new Order.base.Types.ObjectId(order.id) },
        { $set: { paidAt: new Date(Date.now() - days * DAY_MS), ...(status === "cancelled" ? { status } : {}) } },
      );
    };
    await paidDaysAgo(3, 1234);
    await paidDaysAgo(3, 766, "shipped");
    await paidDaysAgo(12, 5000);
    await paidDaysAgo(12, 9999, "cancelled");
    await paidDaysAgo(31, 7000);

    const after = await load(cookie);
    const delta = (day: string) => {
      const was = dollarDays(before).find((entry) => entry.day === day)!;
      const now = dollarDays(after).find((entry) => entry.day === day)!;
      return { orders: now.orders - was.orders, totalCents: now.totalCents - was.totalCents };
    };
    const dayAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
    expect(delta(dayAgo(3))).toEqual({ orders: 2, totalCents: 2000 });
    expect(delta(dayAgo(12))).toEqual({ orders: 1, totalCents: 5000 });
    expect(dollarDays(after).some((entry: { day: string }) => entry.day === dayAgo(31))).toBe(false);
  });

  test("a figure a currency: euro sales are their own series and total, never added to the dollars", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser();
    const seriesOf = (home: Home, currency: string) => home.sales.find((series) => series.currency === currency);
    const before = await load(cookie);
    const paidTwoDaysAgo = async (priceCents: number, currency: "USD" | "EUR") => {
      const order = await createOrder({
        user: customer,
        part: await createPart({ priceCents }),
        quantity: 1,
        status: "paid",
      });
      await Order.updateOne({ _id: order.id }, { $set: { currency, paidAt: new Date(Date.now() - 2 * DAY_MS) } });
    };
    await paidTwoDaysAgo(4_321, "EUR");
    await paidTwoDaysAgo(1_000, "USD");

    const after = await load(cookie);
    const euros = seriesOf(after, "EUR")!;
    const dollars = seriesOf(after, "USD")!;
    expect(euros.totalCents - (seriesOf(before, "EUR")?.totalCents ?? 0)).toBe(4_321);
    expect(dollars.totalCents - seriesOf(before, "USD")!.totalCents).toBe(1_000);
    expect(euros.days).toHaveLength(30);
    const day = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10);
    const onDay = (home: Home, currency: string) =>
      seriesOf(home, currency)?.days.find((entry) => entry.day === day)?.totalCents ?? 0;
    expect(onDay(after, "EUR") - onDay(before, "EUR")).toBe(4_321);
    expect(onDay(after, "USD") - onDay(before, "USD")).toBe(1_000);

    // What the page draws: each currency's total in its own sign, and no figure that adds them.
    const page = renderToStaticMarkup(createElement(SalesChart, { sales: after.sales }))
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    const eur = formatCents(euros.totalCents, { currency: "EUR" });
    const usd = formatCents(dollars.totalCents);
    expect(page).toContain(`${usd} from ${dollars.orders} paid`);
    expect(page).toContain(`${eur} from ${euros.orders} paid`);
    expect(page).toContain(`In euros: ${eur}`);
    expect(page).toContain("Sales in euros by day, last 30 days");
    for (const currency of ["USD", "EUR"] as const)
      expect(page).not.toContain(formatCents(euros.totalCents + dollars.totalCents, { currency }));
  });
});

describe("admins only", () => {
  test("a customer is signed out and sent to sign in", async () => {
    const { cookie } = await signedIn();
    const response = await settle(loader(loaderArgs(getRequest("/dashboard/admin", { cookie }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });
});
