/**
 * POST /webhooks/stripe on the running shop: events signed with the Stripe library's test header
 * generator (the same signature scheme Stripe uses), sent over HTTP like Stripe sends them.
 */
import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Payment, StripeEvent } from "~/orders/model/card-payment.server";
import { handleStripeEvent } from "~/orders/card-payments.server";
import { getStripe } from "~/services/stripe.server";
import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import * as orderCurrency from "../../scripts/migrations/20261129120000-order-currency.js";

const SHOP_URL = process.env.SHOP_URL!;
const SECRET = process.env.STRIPE_WEBHOOK_SECRET!;

afterEach(() => {
  vi.restoreAllMocks();
});

const id = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 20)}`;

type OrderLike = { id: string; totalCents: number };

function event(type: string, object: Record<string, unknown>) {
  return {
    id: id("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

function paymentIntentSucceeded(order: OrderLike, overrides: Record<string, unknown> = {}) {
  return event("payment_intent.succeeded", {
    id: id("pi"),
    object: "payment_intent",
    amount: order.totalCents,
    amount_received: order.totalCents,
    currency: "usd",
    status: "succeeded",
    metadata: { orderId: order.id },
    ...overrides,
  });
}

function checkoutSessionCompleted(order: OrderLike, overrides: Record<string, unknown> = {}) {
  return event("checkout.session.completed", {
    id: id("cs_test"),
    object: "checkout.session",
    mode: "payment",
    status: "complete",
    payment_status: "paid",
    amount_total: order.totalCents,
    currency: "usd",
    client_reference_id: order.id,
    metadata: { orderId: order.id },
    payment_intent: id("pi"),
    ...overrides,
  });
}

async function postEvent(
  body: unknown,
  { secret = SECRET, signature }: { secret?: string; signature?: string | null } = {},
) {
  const payload = JSON.stringify(body);
  const header = signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret }) : signature;
  return fetch(`${SHOP_URL}/webhooks/stripe`, {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", ...(header ? { "Stripe-Signature": header } : {}) },
  });
}

async function customerOrder() {
  const customer = await createUser();
  const order = await createOrder({ user: customer });
  return { customer, order };
}

const orderDoc = (orderId: string) => Order.findById(orderId).lean();

describe("POST /webhooks/stripe", () => {
  test("a valid payment_intent.succeeded marks the order paid and records the payment", async () => {
    const { customer, order } = await customerOrder();
    const body = paymentIntentSucceeded(order);
    const response = await postEvent(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, result: "paid" });

    const paid = await orderDoc(order.id);
    expect(paid?.status).toBe("paid");
    expect(paid?.transactionId).toBe(body.data.object.id);
    expect(paid?.paidAt).toBeInstanceOf(Date);
    const payment = await Payment.findOne({ myOrder: order.id }).lean();
    expect(payment).toMatchObject({
      transactionId: body.data.object.id,
      for: customer.email,
      status: "paid",
      amountCents: order.totalCents,
      currency: "usd",
    });
    expect(await StripeEvent.exists({ _id: body.id })).toBeTruthy();
  });

  test("a completed Checkout Session marks the order paid with its PaymentIntent as the transaction id", async () => {
    const { order } = await customerOrder();
    const body = checkoutSessionCompleted(order);
    const response = await postEvent(body);
    expect(response.status).toBe(200);
    const paid = await orderDoc(order.id);
    expect(paid?.status).toBe("paid");
    expect(paid?.transactionId).toBe(body.data.object.payment_intent);
  });

  test("a forged signature gets 400 and changes nothing", async () => {
    const { order } = await customerOrder();
    const body = paymentIntentSucceeded(order);
    const forged = await postEvent(body, { secret: `whsec_${randomBytes(24).toString("hex")}` });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: "Invalid signature" });

    // A valid signature over another body does not cover this one either.
    const header = Stripe.webhooks.generateTestHeaderString({ payload: "{}", secret: SECRET });
    expect((await postEvent(body, { signature: header })).status).toBe(400);
    expect((await postEvent(body, { signature: null })).status).toBe(400);
    expect((await postEvent(body, { signature: "t=1,v1=deadbeef" })).status).toBe(400);

    expect((await orderDoc(order.id))?.status).toBe("unpaid");
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(0);
    expect(await StripeEvent.exists({ _id: body.id })).toBeNull();
  });

  test("the same event delivered twice records one payment", async () => {
    const { order } = await customerOrder();
    const body = paymentIntentSucceeded(order);
    const [first, second] = [await postEvent(body), await postEvent(body)];
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ result: "already_processed" });
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(1);

    // Deliveries racing each other: still one payment.
    const other = (await customerOrder()).order;
    const racing = paymentIntentSucceeded(other);
    const answers = await Promise.all(Array.from({ length: 5 }, () => postEvent(racing)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await Payment.countDocuments({ myOrder: other.id })).toBe(1);
  });

  test("both events of one Checkout payment (session completed, intent succeeded) record one payment", async () => {
    const { order } = await customerOrder();
    const session = checkoutSessionCompleted(order);
    const intent = paymentIntentSucceeded(order, { id: session.data.object.payment_intent });
    expect(await (await postEvent(session)).json()).toMatchObject({ result: "paid" });
    expect(await (await postEvent(intent)).json()).toMatchObject({ result: "already_paid" });
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(1);
  });

  test("an amount or currency that does not match the order leaves it unpaid", async () => {
    const { order } = await customerOrder();
    const short = paymentIntentSucceeded(order, { amount: 50, amount_received: 50 });
    expect(await (await postEvent(short)).json()).toMatchObject({ result: "mismatch" });
    const euros = paymentIntentSucceeded(order, { currency: "eur" });
    expect(await (await postEvent(euros)).json()).toMatchObject({ result: "mismatch" });
    const session = checkoutSessionCompleted(order, { amount_total: order.totalCents + 1 });
    expect(await (await postEvent(session)).json()).toMatchObject({ result: "mismatch" });

    expect((await orderDoc(order.id))?.status).toBe("unpaid");
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(0);
  });

  test("an order sold in euros is paid by a payment in euros, not by the same figure in dollars; one kept before currencies is a dollar order", async () => {
    const { order } = await customerOrder();
    await Order.updateOne({ _id: order.id }, { $set: { currency: "EUR" } });
    const dollars = paymentIntentSucceeded(order, { currency: "usd" });
    expect(await (await postEvent(dollars)).json()).toMatchObject({ result: "mismatch" });
    expect((await orderDoc(order.id))?.status).toBe("unpaid");
    const euros = paymentIntentSucceeded(order, { currency: "eur" });
    expect(await (await postEvent(euros)).json()).toMatchObject({ result: "paid" });
    expect((await orderDoc(order.id))?.status).toBe("paid");

    const { order: kept } = await customerOrder();
    await Order.updateOne({ _id: kept.id }, { $unset: { currency: "" } });
    expect(await (await postEvent(paymentIntentSucceeded(kept))).json()).toMatchObject({ result: "paid" });
    // Every order names its currency once the migration ran; a second run changes nothing.
    await Order.updateOne({ _id: kept.id }, { $unset: { currency: "" } });
    const db = Order.db.db!;
    await orderCurrency.up(db);
    expect((await orderDoc(kept.id))?.currency).toBe("USD");
    expect((await orderDoc(order.id))?.currency).toBe("EUR");
    const before = await Order.find({}, { currency: 1, updatedAt: 1 }).lean();
    await orderCurrency.up(db);
    expect(await Order.find({}, { currency: 1, updatedAt: 1 }).lean()).toEqual(before);
  });

  test("events that are not a completed payment of one of our orders change nothing", async () => {
    const { order } = await customerOrder();
    const cases = [
      paymentIntentSucceeded(order, { status: "processing" }),
      paymentIntentSucceeded(order, { metadata: {} }),
      checkoutSessionCompleted(order, { payment_status: "unpaid" }),
      checkoutSessionCompleted(order, { client_reference_id: "000000000000000000000000" }),
      event("payment_intent.payment_failed", {
        id: id("pi"),
        object: "payment_intent",
        status: "requires_payment_method",
        metadata: { orderId: order.id },
      }),
      event("customer.created", { id: id("cus"), object: "customer" }),
    ];
    for (const body of cases) {
      const response = await postEvent(body);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ result: "ignored" });
    }
    const missing = paymentIntentSucceeded({ id: "0123456789abcdef01234567", totalCents: 500 });
    expect(await (await postEvent(missing)).json()).toMatchObject({ result: "not_found" });
    expect((await orderDoc(order.id))?.status).toBe("unpaid");
  });

  test("a paid order cannot be paid again: it keeps its transaction and the second payment is refunded", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "paid", transactionId: "pi_first_payment" });
    const refund = vi.spyOn(getStripe()!.refunds, "create");
    const second = paymentIntentSucceeded(order);
    // Called in-process so that the refund request (to stripe-mock) can be observed.
    expect(await handleStripeEvent(second as unknown as Stripe.Event)).toBe("paid_by_other");
    expect(refund).toHaveBeenCalledWith(
      expect.objectContaining({ payment_intent: second.data.object.id, reason: "duplicate" }),
      expect.objectContaining({ idempotencyKey: `refund-${second.data.object.id}` }),
    );
    const after = await orderDoc(order.id);
    expect(after?.status).toBe("paid");
    expect(after?.transactionId).toBe("pi_first_payment");
  });

  test("a payment for a cancelled order does not revive it and is refunded", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, status: "cancelled" });
    const refund = vi.spyOn(getStripe()!.refunds, "create");
    const late = paymentIntentSucceeded(order);
    expect(await handleStripeEvent(late as unknown as Stripe.Event)).toBe("not_payable");
    expect(refund).toHaveBeenCalledTimes(1);
    expect((await orderDoc(order.id))?.status).toBe("cancelled");
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(0);
  });

  test("an event that failed half-way is not marked processed, so Stripe's retry completes it", async () => {
    const { order } = await customerOrder();
    const body = paymentIntentSucceeded(order);
    // The order was marked paid, then storing the payment record failed.
    vi.spyOn(Payment, "updateOne").mockRejectedValueOnce(new Error("database unavailable"));
    await expect(handleStripeEvent(body as unknown as Stripe.Event)).rejects.toThrow("database unavailable");
    expect(await StripeEvent.exists({ _id: body.id })).toBeNull();
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(0);

    expect(await handleStripeEvent(body as unknown as Stripe.Event)).toBe("already_paid");
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(1);
    expect(await StripeEvent.exists({ _id: body.id })).toBeTruthy();
  });

  test("only POST is allowed, and an oversized body is refused before it is read", async () => {
    const get = await fetch(`${SHOP_URL}/webhooks/stripe`);
    expect(get.status).toBe(405);
    const big = await fetch(`${SHOP_URL}/webhooks/stripe`, {
      method: "POST",
      body: "x".repeat(300 * 1024),
      headers: { "Stripe-Signature": "t=1,v1=00" },
    });
    expect(big.status).toBe(413);
  });
});
