/**
 * The order emails, read from the suite's mail catcher: each step of an order writes its message
 * once (a double submit or a repeated confirmation mails nothing more), the links work, customers
 * can turn the non-essential ones off (receipts and shipping notices stay), an order placed while
 * the mail server is down succeeds and its mail arrives once the server is back, and a step whose
 * mail was never written (a crash between the change and the outbox) still mails, once.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import Stripe from "stripe";
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Outbox } from "~/models/outbox.server";
import { User } from "~/models/user.server";
import { sweepOrderEvents } from "~/orders/event-sweep.server";
import { action as manageOrdersAction } from "~/routes/dashboard.manageOrders";
import { action as orderPageAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as cancelAction } from "~/routes/dashboard.orders_.$id.cancel";
import { action as orderAction } from "~/routes/parts.$id";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/unsubscribe";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { caughtMail, linkIn, setMailServer, waitForMail, type CaughtMail } from "../setup/mail";
import { settledMailTo } from "../setup/mail-settled";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DELIVERY_FORM } from "../fixtures/addresses";

const shopUrl = process.env.SHOP_URL!;
const goodOrder = { phone: "+1 555 0100", ...DELIVERY_FORM, poNumber: "PO-77/A" };
/** Ships an order from its admin page, collected by the customer. */
function shipFromOrderPage(orderId: string, cookie: string) {
  return settle(
    orderPageAction(
      actionArgs(
        postRequest(`/dashboard/manageOrders/${orderId}`, { intent: "ship", carrier: "collected" }, { cookie }),
        {
          id: orderId,
        },
      ),
    ),
  );
}

/** The order's number as its emails name it (SO-100042). */
const orderNumber = async (id: string) => `SO-${(await Order.findById(id, { number: 1 }).lean())!.number}`;

async function customer(name = "Olga Orderer") {
  const user = await createUser({ name, email: `order-mail-${randomUUID().slice(0, 8)}@example.com` });
  return { user, cookie: await sessionCookieHeader(user.id) };
}

function postOrder(partId: string, quantity: number, cookie: string, extra: Record<string, string> = {}) {
  return settle(
    orderAction(
      actionArgs(postRequest(`/parts/${partId}`, { ...goodOrder, quantity: String(quantity), ...extra }, { cookie }), {
        id: partId,
      }),
    ),
  );
}

/** How often `text` is in the mail's HTML and in its plain-text part: the PO number is named once in each. */
function timesIn(mail: CaughtMail, text: string) {
  const count = (haystack: string) => haystack.split(text).length - 1;
  return { html: count(mail.html), text: count(mail.text) };
}

async function newestOrderOf(userId: string) {
  const doc = await Order.findOne({ userId }).sort({ createdAt: -1, _id: -1 }).lean();
  return doc!._id.toString();
}

/** Every message to `to`, once no more can be on its way (a duplicate included). */
function allMailTo(to: string) {
  return settledMailTo(to);
}

function postWebhook(order: { id: string; totalCents: number }, paymentIntent: string) {
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: "payment_intent.succeeded",
    data: {
      object: {
        id: paymentIntent,
        object: "payment_intent",
        amount: order.totalCents,
        amount_received: order.totalCents,
        currency: "usd",
        status: "succeeded",
        metadata: { orderId: order.id },
      },
    },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: process.env.STRIPE_WEBHOOK_SECRET! });
  return fetch(`${shopUrl}/webhooks/stripe`, {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": header },
  });
}

describe("order emails", () => {
  test("order placed: the lines, the total and a payment link that works; the admins hear of stock below the minimum", async () => {
    const { user, cookie } = await customer();
    const admin = await createUser({ role: "admin", email: `admin-mail-${randomUUID().slice(0, 8)}@example.com` });
    const part = await createPart({
      name: "Mail Brake Pad",
      priceCents: 250,
      minOrderQuantity: 100,
      availableQuantity: 250,
    });

    const response = await postOrder(part.id, 200, cookie, { poNumber: "PO-77/B" });
    expect(response.status).toBe(302);
    const orderId = await newestOrderOf(user.id);

    const [mail] = await waitForMail(user.email, {
      subject: `Your PartsWorks order ${await orderNumber(orderId)} is placed`,
    });
    expect(mail.text).toContain(`200 × Mail Brake Pad (${part.partNumber}) at $2.50 each: $500.00`);
    expect(mail.text).toContain("Your PO number: PO-77/B");
    expect(timesIn(mail, "PO-77/B")).toEqual({ html: 1, text: 1 });
    // A customer without recorded tax details, an address that names no other place: the seller's own state's tax.
    expect(mail.text).toContain("Net: $500.00");
    expect(mail.text).toContain("MI sales tax 6%: $30.00");
    expect(mail.text).not.toContain("not recorded");
    expect(mail.text).toContain("Total with tax: $530.00 for 200 units");
    expect(mail.html).toContain("Mail Brake Pad");
    expect(mail.html).not.toMatch(/<img/i);
    const payLink = linkIn(mail, `${shopUrl}/dashboard/payment/`);
    expect(payLink).toBe(`${shopUrl}/dashboard/payment/${orderId}`);
    const payPage = await fetch(payLink, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(payPage.status).toBe(200);
    expect(await payPage.text()).toContain("Mail Brake Pad");
    expect(mail.text).toContain(`${shopUrl}/unsubscribe?token=`);

    // 50 left of a minimum order of 100: nobody can order it until it is restocked.
    const [low] = await waitForMail(admin.email, { subject: /^Low stock: Mail Brake Pad/ });
    expect(low.text).toContain("fell to 50 units, below its minimum order of 100");
    expect(linkIn(low, `${shopUrl}/dashboard/manageProducts/`)).toBe(
      `${shopUrl}/dashboard/manageProducts/${part.id}/edit`,
    );
    expect(await allMailTo(admin.email)).toHaveLength(1);
  }, 30_000);

  test("payment received: one receipt with Stripe's transaction id and one notice to the admins, however often Stripe confirms", async () => {
    const { user } = await customer("Paula Payer");
    const admin = await createUser({ role: "admin", email: `admin-paid-${randomUUID().slice(0, 8)}@example.com` });
    const order = await createOrder({ user, poNumber: "PO-88/C" });
    const paymentIntent = `pi_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    for (let i = 0; i < 3; i++) expect((await postWebhook(order, paymentIntent)).status).toBe(200);

    const [receipt] = await waitForMail(user.email, {
      subject: `Receipt for your PartsWorks order ${await orderNumber(order.id)}`,
    });
    expect(receipt.text).toContain(`Transaction id: ${paymentIntent}`);
    expect(receipt.text).toContain(`100 × ${order.lines[0].productName}`);
    expect(receipt.text).toContain("Your PO number: PO-88/C");
    expect(timesIn(receipt, "PO-88/C")).toEqual({ html: 1, text: 1 });
    const [toShip] = await waitForMail(admin.email, {
      subject: `Paid order ${await orderNumber(order.id)} to ship: Paula Payer`,
    });
    expect(toShip.text).toContain(paymentIntent);
    expect(toShip.text).toContain("Customer’s PO number: PO-88/C");
    expect(timesIn(toShip, "PO-88/C")).toEqual({ html: 1, text: 1 });
    expect(linkIn(toShip, `${shopUrl}/dashboard/manageOrders`)).toBe(
      `${shopUrl}/dashboard/manageOrders?status=pending`,
    );
    expect(await allMailTo(user.email)).toHaveLength(1);
    expect((await caughtMail()).filter((mail) => mail.to.includes(admin.email))).toHaveLength(1);
  }, 30_000);

  test("shipped, cancelled by the customer, removed by the shop: each mailed once, saying who", async () => {
    const { user, cookie } = await customer("Sven Status");
    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieHeader(admin.id);
    const paid = await createOrder({ user, status: "paid" });
    const toCancel = await createOrder({ user });
    const toRemove = await createOrder({ user });
    const manage = (fields: Record<string, string>) =>
      settle(manageOrdersAction(actionArgs(postRequest("/dashboard/manageOrders", fields, { cookie: adminCookie }))));

    // Submitted twice: the second changes nothing and mails nothing.
    for (let i = 0; i < 2; i++) await shipFromOrderPage(paid.id, adminCookie);
    for (let i = 0; i < 2; i++) {
      await settle(
        cancelAction(
          actionArgs(postRequest(`/dashboard/orders/${toCancel.id}/cancel`, { confirm: "cancel" }, { cookie }), {
            id: toCancel.id,
          }),
        ),
      );
    }
    await manage({ intent: "remove", orderId: toRemove.id, reason: "Ordered twice by mistake" });

    const [shipped] = await waitForMail(user.email, {
      subject: `Your PartsWorks order ${await orderNumber(paid.id)} has shipped`,
    });
    expect(shipped.text).toContain("has shipped to 1 Test Street, Springfield");
    expect(linkIn(shipped, `${shopUrl}/dashboard/orders/`)).toBe(`${shopUrl}/dashboard/orders/${paid.id}`);
    const [cancelled] = await waitForMail(user.email, {
      subject: `You cancelled your PartsWorks order ${await orderNumber(toCancel.id)}`,
    });
    expect(cancelled.text).toContain("You cancelled your order");
    const [removed] = await waitForMail(user.email, {
      subject: `PartsWorks removed your unpaid order ${await orderNumber(toRemove.id)}`,
    });
    expect(removed.text).toContain("We removed your unpaid order");
    expect(await allMailTo(user.email)).toHaveLength(3);
  }, 30_000);
});

describe("turning order updates off", () => {
  test("the unsubscribe link works signed out; later updates are not sent, receipts and shipping notices still are", async () => {
    const { user } = await customer("Ulla Unsub");
    const first = await createOrder({ user });
    const [cancelMail] = await (async () => {
      await settle(
        cancelAction(
          actionArgs(
            postRequest(
              `/dashboard/orders/${first.id}/cancel`,
              { confirm: "cancel" },
              { cookie: await sessionCookieHeader(user.id) },
            ),
            { id: first.id },
          ),
        ),
      );
      return waitForMail(user.email);
    })();
    const link = new URL(linkIn(cancelMail, `${shopUrl}/unsubscribe?token=`));
    expect(cancelMail.headers["list-unsubscribe"]).toBe(`<${link.href}>`);

    // A forged token changes nothing.
    const forged = `${user.id}.${"A".repeat(43)}`;
    const refused = await settle(unsubscribeAction(actionArgs(postRequest("/unsubscribe", { token: forged }))));
    expect(refused.status).toBe(400);
    expect((await User.findById(user.id).lean())?.orderUpdateEmails).toBeUndefined();

    // Signed out: the page asks, the button turns them off.
    const page = await settle(unsubscribeLoader(loaderArgs(getRequest(`${link.pathname}${link.search}`))));
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ email: user.email, on: true });
    const done = await settle(
      unsubscribeAction(
        actionArgs(postRequest(`${link.pathname}${link.search}`, { token: link.searchParams.get("token")! })),
      ),
    );
    expect(done.status).toBe(200);
    expect((await User.findById(user.id).lean())?.orderUpdateEmails).toBe(false);

    const admin = await createUser({ role: "admin" });
    const next = await createOrder({ user });
    const toShip = await createOrder({ user, status: "paid" });
    const adminCookie = await sessionCookieHeader(admin.id);
    await settle(
      manageOrdersAction(
        actionArgs(
          postRequest(
            "/dashboard/manageOrders",
            { intent: "remove", orderId: next.id, reason: "Ordered twice by mistake" },
            { cookie: adminCookie },
          ),
        ),
      ),
    );
    await shipFromOrderPage(toShip.id, adminCookie);
    await waitForMail(user.email, { subject: `Your PartsWorks order ${await orderNumber(toShip.id)} has shipped` });
    // A receipt of money taken is not an update: it comes too, with no unsubscribe link.
    const toPay = await createOrder({ user });
    expect((await postWebhook(toPay, `pi_${randomUUID().replace(/-/g, "").slice(0, 20)}`)).status).toBe(200);
    const [receipt] = await waitForMail(user.email, {
      subject: `Receipt for your PartsWorks order ${await orderNumber(toPay.id)}`,
    });
    expect(receipt.text).not.toContain("/unsubscribe");
    expect(receipt.headers["list-unsubscribe"]).toBeUndefined();
    const mails: CaughtMail[] = await allMailTo(user.email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      [
        `You cancelled your PartsWorks order ${await orderNumber(first.id)}`,
        `Your PartsWorks order ${await orderNumber(toShip.id)} has shipped`,
        `Receipt for your PartsWorks order ${await orderNumber(toPay.id)}`,
      ].sort(),
    );
    expect(await Outbox.exists({ _id: `order:${next.id}:removed` })).toBeNull();
  }, 40_000);
});

describe("the mail server down during an order", () => {
  test("the order succeeds, and its mail arrives once the server is back", async () => {
    const { user, cookie } = await customer("Dora Downtime");
    const part = await createPart({ name: "Outage Gasket" });
    await setMailServer("down");
    let orderId: string;
    try {
      const response = await postOrder(part.id, 150, cookie);
      expect(response.status).toBe(302);
      orderId = await newestOrderOf(user.id);
      const key = `order:${orderId}:placed`;
      await expect
        .poll(async () => (await Outbox.findById(key).lean())?.lastError ?? null, { timeout: 20_000 })
        .not.toBeNull();
    } finally {
      await setMailServer("up");
    }
    const [mail] = await waitForMail(user.email, { timeoutMs: 40_000 });
    expect(mail.subject).toBe(`Your PartsWorks order ${await orderNumber(orderId)} is placed`);
    expect(mail.text).toContain("150 × Outage Gasket");
  }, 90_000);
});

describe("a step whose mail was never written", () => {
  const crashed = async (orderId: string, event: string, at = new Date()) => {
    // What a crash right after the change leaves: the event noted on the order, no outbox entry.
    await Order.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(orderId) },
      { $addToSet: { eventsPending: event }, $set: { updatedAt: at } },
    );
  };

  test("an order placed just before a crash gets its mail from the sweep job, once", async () => {
    const { user } = await customer("Carl Crash");
    // Placed two minutes ago; the process stopped before the mail was written.
    const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
    const order = await createOrder({ user });
    await Order.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(order.id) },
      { $set: { createdAt: twoMinutesAgo } },
    );
    await crashed(order.id, "placed", twoMinutesAgo);
    expect(await Outbox.exists({ _id: `order:${order.id}:placed` })).toBeNull();

    // The shop's own sweep job (every MAIL_SWEEP_MS: a minute by default, 5 s in the suite) finds it.
    const [mail] = await waitForMail(user.email, { timeoutMs: 150_000 });
    expect(mail.subject).toBe(`Your PartsWorks order ${await orderNumber(order.id)} is placed`);
    expect(linkIn(mail, `${shopUrl}/dashboard/payment/`)).toBe(`${shopUrl}/dashboard/payment/${order.id}`);
    await expect.poll(async () => (await Order.findById(order.id).lean())?.eventsPending).toEqual([]);
    await sweepOrderEvents({ graceMs: 0 });
    expect(await allMailTo(user.email)).toHaveLength(1);
  }, 180_000);

  test("the sweep writes a shipping notice and a receipt left unwritten, and never a mail already sent", async () => {
    const { user, cookie } = await customer("Stella Sweep");
    const admin = await createUser({ role: "admin", email: `admin-sweep-${randomUUID().slice(0, 8)}@example.com` });
    const part = await createPart({ name: "Sweep Spring" });

    // Placed the ordinary way: its mail is written with it, and sent.
    expect((await postOrder(part.id, 100, cookie)).status).toBe(302);
    const placedId = await newestOrderOf(user.id);
    await waitForMail(user.email, { subject: `Your PartsWorks order ${await orderNumber(placedId)} is placed` });
    expect((await Order.findById(placedId).lean())?.eventsPending).toEqual([]);
    // A crash after the mail was written but before the order heard of it: nothing more is sent.
    await crashed(placedId, "placed");

    // Shipped, and paid, each with the process stopping before its mail was written.
    const shipped = await createOrder({ user, status: "shipped" });
    await crashed(shipped.id, "shipped");
    const paid = await createOrder({ user, status: "paid", transactionId: "pi_sweep_receipt" });
    await crashed(paid.id, "paid");

    expect(await sweepOrderEvents({ graceMs: 0 })).toBeGreaterThanOrEqual(3);
    for (const id of [placedId, shipped.id, paid.id]) {
      expect((await Order.findById(id).lean())?.eventsPending).toEqual([]);
    }
    // Twice more, as a second instance's sweep would: nothing new.
    await Promise.all([sweepOrderEvents({ graceMs: 0 }), sweepOrderEvents({ graceMs: 0 })]);

    await waitForMail(user.email, { count: 3 });
    const mails = await allMailTo(user.email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(
      [
        `Your PartsWorks order ${await orderNumber(placedId)} is placed`,
        `Your PartsWorks order ${await orderNumber(shipped.id)} has shipped`,
        `Receipt for your PartsWorks order ${await orderNumber(paid.id)}`,
      ].sort(),
    );
    expect(mails.find((mail) => mail.subject.startsWith("Receipt"))?.text).toContain(
      "Transaction id: pi_sweep_receipt",
    );
    const [toShip] = await waitForMail(admin.email, {
      subject: `Paid order ${await orderNumber(paid.id)} to ship: Stella Sweep`,
    });
    expect(toShip.text).toContain("pi_sweep_receipt");
  }, 60_000);
});
