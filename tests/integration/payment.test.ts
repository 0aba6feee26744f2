/**
 * The pay screen and the return from Stripe, called as loaders and actions with real Requests. The
 * Stripe library talks to stripe-mock. stripe-mock answers every retrieve with the same canned,
 * unpaid object, so the tests of a succeeded payment replace that one answer with a succeeded copy
 * of it (what Stripe returns once the customer has paid); everything else goes over HTTP to it.
 */
import type Stripe from "stripe";
import { afterEach, describe, expect, test, vi } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Payment } from "~/orders/model/card-payment.server";
import { action, loader } from "~/routes/dashboard.payment.$id";
import { loader as returnLoader } from "~/routes/dashboard.payment.$id_.success";
import { getStripe } from "~/services/stripe.server";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";

afterEach(() => {
  vi.restoreAllMocks();
});

const stripe = () => getStripe()!;

async function signedInCustomer() {
  const user = await createUser();
  return { user, cookie: await sessionCookieHeader(user.id) };
}

function payPage(orderId: string, cookie?: string, headers: Record<string, string> = {}) {
  const request = getRequest(`/dashboard/payment/${orderId}`, { cookie });
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return settle(loader(loaderArgs(request, { id: orderId })));
}

function payWithCard(orderId: string, cookie: string, fields: Record<string, string> = { intent: "checkout" }) {
  return settle(action(actionArgs(postRequest(`/dashboard/payment/${orderId}`, fields, { cookie }), { id: orderId })));
}

function returnPage(orderId: string, cookie: string, query: string) {
  const request = getRequest(`/dashboard/payment/${orderId}/success?${query}`, { cookie });
  return settle(returnLoader(loaderArgs(request, { id: orderId })));
}

describe("the pay screen /dashboard/payment/{id}", () => {
  test("shows the owner's unpaid order with a PaymentIntent created for the order's amount", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user, quantity: 150 });
    const create = vi.spyOn(stripe().paymentIntents, "create");

    const response = await payPage(order.id, cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await response.json();
    expect(data.order).toEqual({
      id: order.id,
      number: order.number,
      summary: order.summary,
      lines: order.lines,
      totalQuantity: 150,
      // The currency of the sale: the amounts and the bank account shown are its.
      currency: "USD",
      totalCents: order.lines[0].unitPriceCents * 150,
      // No account credit came off it: the whole total is asked.
      dueCents: order.lines[0].unitPriceCents * 150,
      creditUses: [],
      // An order with no tax lines (as the factory writes it) is all net.
      netCents: order.lines[0].unitPriceCents * 150,
      taxLines: [],
      paymentMethod: "card",
      // The pay screen says until when the order holds its stock.
      holdUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(data.billing).toEqual({ name: user.name, email: user.email });
    expect(data.payment.state).toBe("ready");
    expect(data.payment.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(data.payment.publishableKey).toBe(process.env.STRIPE_PUBLISHABLE_KEY);

    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ amount: order.totalCents, currency: "usd", metadata: { orderId: order.id } }),
      { idempotencyKey: `pi-${order.id}-${order.totalCents}` },
    );
    // A reload asks Stripe with the same idempotency key, so Stripe hands back the same intent.
    await payPage(order.id, cookie);
    expect(create.mock.calls[1][1]).toEqual(create.mock.calls[0][1]);
  });

  test("an order in euros is charged in euros: the PaymentIntent stripe-mock creates is in eur, for the order's euro cents", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user, quantity: 120 });
    await Order.updateOne({ _id: order.id }, { $set: { currency: "EUR" } });
    const create = vi.spyOn(stripe().paymentIntents, "create");

    const data = await (await payPage(order.id, cookie)).json();
    expect(data.order.currency).toBe("EUR");
    expect(data.payment.state).toBe("ready");
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ amount: order.totalCents, currency: "eur", metadata: { orderId: order.id } }),
      expect.anything(),
    );
    // What stripe-mock answered is a real PaymentIntent object of the library: in the currency asked.
    const intent = await create.mock.results[0].value;
    expect(intent.object).toBe("payment_intent");
  });

  test("someone else's order, a missing one and a malformed id are a 404", async () => {
    const { user: owner } = await signedInCustomer();
    const order = await createOrder({ user: owner });
    const { cookie: otherCookie } = await signedInCustomer();
    const create = vi.spyOn(stripe().paymentIntents, "create");

    expect((await payPage(order.id, otherCookie)).status).toBe(404);
    expect((await payPage("0123456789abcdef01234567", otherCookie)).status).toBe(404);
    expect((await payPage('{"$gt":""}', otherCookie)).status).toBe(404);
    expect((await payWithCard(order.id, otherCookie)).status).toBe(404);
    expect(create).not.toHaveBeenCalled();
  });

  test("a visitor who is not signed in goes to the login page and comes back here", async () => {
    const order = await createOrder({ user: (await signedInCustomer()).user });
    const response = await payPage(order.id);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(
      `/login?${new URLSearchParams({ redirectTo: `/dashboard/payment/${order.id}` })}`,
    );
  });

  test("a paid, shipped or cancelled order goes back to My Orders with a message", async () => {
    const { user, cookie } = await signedInCustomer();
    for (const status of ["paid", "shipped", "cancelled", "removed"] as const) {
      const order = await createOrder({ user, status });
      const response = await payPage(order.id, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard/orders");
      expect(response.headers.get("Set-Cookie")).toMatch(/^toast=/);
      expect((await payWithCard(order.id, cookie)).status).toBe(302);
    }
    expect(await Payment.countDocuments({ for: user.email })).toBe(0);
  });

  test("a client-side navigation to the pay screen becomes a full page load (for its CSP)", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const create = vi.spyOn(stripe().paymentIntents, "create");
    const response = await payPage(order.id, cookie, { "Sec-Fetch-Dest": "empty" });
    expect(response.status).toBe(302);
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
    expect(response.headers.get("Location")).toBe(`/dashboard/payment/${order.id}`);
    expect(create).not.toHaveBeenCalled();
  });

  test("Pay with card creates a Checkout Session for the order and redirects (303) to Stripe", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const create = vi.spyOn(stripe().checkout.sessions, "create");

    const response = await payWithCard(order.id, cookie);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    const [params, options] = create.mock.calls[0];
    const shop = process.env.PUBLIC_URL;
    expect(params).toMatchObject({
      mode: "payment",
      client_reference_id: order.id,
      metadata: { orderId: order.id },
      payment_intent_data: { metadata: { orderId: order.id } },
      customer_email: user.email,
      success_url: `${shop}/dashboard/payment/${order.id}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${shop}/dashboard/payment/${order.id}`,
    });
    expect(params?.line_items).toEqual([
      expect.objectContaining({
        quantity: 1,
        price_data: expect.objectContaining({ currency: "usd", unit_amount: order.totalCents }),
      }),
    ]);
    expect(options?.idempotencyKey).toMatch(new RegExp(`^cs-${order.id}-${order.totalCents}-\\d+$`));
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });

  test("a tampered form gets a 400 and creates nothing", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const create = vi.spyOn(stripe().checkout.sessions, "create");
    const tampered: Record<string, string>[] = [
      {},
      { intent: "refund" },
      { intent: '{"$gt":""}' },
      { intent: "checkout".repeat(1000) },
    ];
    for (const fields of tampered) {
      const response = await payWithCard(order.id, cookie, fields);
      expect(response.status).toBe(400);
    }
    expect(create).not.toHaveBeenCalled();
  });

  test("when Stripe cannot be reached, the customer gets a message instead of an error page", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    vi.spyOn(stripe().checkout.sessions, "create").mockRejectedValueOnce(new Error("connect ECONNREFUSED"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await payWithCard(order.id, cookie);
    expect(response.status).toBe(502);
    expect(JSON.stringify(await response.json())).toContain(
      "We could not reach the card payment service. Please try again in a moment.",
    );

    vi.spyOn(stripe().paymentIntents, "create").mockRejectedValueOnce(new Error("connect ECONNREFUSED"));
    const page = await payPage(order.id, cookie);
    expect(page.status).toBe(200);
    expect((await page.json()).payment).toEqual({ state: "unavailable" });
  });
});

describe("the return from Stripe /dashboard/payment/{id}/success", () => {
  /** The canned PaymentIntent stripe-mock returns, as Stripe returns it once this order is paid. */
  async function succeededIntent(
    order: { id: string; totalCents: number },
    overrides: Partial<Stripe.PaymentIntent> = {},
  ) {
    const canned = await stripe().paymentIntents.retrieve("pi_canned");
    return {
      ...canned,
      status: "succeeded",
      amount: order.totalCents,
      amount_received: order.totalCents,
      currency: "usd",
      metadata: { orderId: order.id },
      ...overrides,
    } as Stripe.Response<Stripe.PaymentIntent>;
  }

  test("an intent that Stripe does not report as succeeded leaves the order unpaid", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    // stripe-mock's own answer: requires_payment_method, for no order of ours.
    const response = await returnPage(order.id, cookie, "payment_intent=pi_123&redirect_status=succeeded");
    expect(response.status).toBe(200);
    expect((await response.json()).state).toBe("not_paid");
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });

  test("a succeeded intent for this order and amount marks it paid and shows the transaction id", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const intent = await succeededIntent(order, { id: "pi_return_ok" });
    const retrieve = vi.spyOn(stripe().paymentIntents, "retrieve").mockResolvedValueOnce(intent);

    const response = await returnPage(order.id, cookie, "payment_intent=pi_return_ok&redirect_status=succeeded");
    expect(retrieve).toHaveBeenCalledWith("pi_return_ok");
    const data = await response.json();
    expect(data.state).toBe("paid");
    expect(data.order.transactionId).toBe("pi_return_ok");
    expect((await Order.findById(order.id).lean())?.status).toBe("paid");
    expect(await Payment.findOne({ myOrder: order.id }).lean()).toMatchObject({
      transactionId: "pi_return_ok",
      for: user.email,
      status: "paid",
    });

    // Coming back again (a reload) neither asks Stripe nor records anything twice.
    const again = await returnPage(order.id, cookie, "payment_intent=pi_return_ok");
    expect((await again.json()).state).toBe("paid");
    expect(retrieve).toHaveBeenCalledTimes(1);
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(1);
  });

  test("a succeeded intent of another amount or for another order leaves the order unpaid", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const other = await createOrder({ user });
    vi.spyOn(stripe().refunds, "create");
    vi.spyOn(stripe().paymentIntents, "retrieve")
      .mockResolvedValueOnce(await succeededIntent(order, { id: "pi_short", amount: 100, amount_received: 100 }))
      .mockResolvedValueOnce(await succeededIntent(other, { id: "pi_other" }));

    expect((await (await returnPage(order.id, cookie, "payment_intent=pi_short")).json()).state).toBe("not_paid");
    expect((await (await returnPage(order.id, cookie, "payment_intent=pi_other")).json()).state).toBe("not_paid");
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
    expect((await Order.findById(other.id).lean())?.status).toBe("unpaid");
  });

  test("a paid Checkout Session for this order marks it paid", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const canned = await stripe().checkout.sessions.retrieve("cs_test_canned");
    const retrieve = vi.spyOn(stripe().checkout.sessions, "retrieve").mockResolvedValueOnce({
      ...canned,
      status: "complete",
      payment_status: "paid",
      amount_total: order.totalCents,
      currency: "usd",
      client_reference_id: order.id,
      metadata: { orderId: order.id },
      payment_intent: "pi_from_checkout",
    } as Stripe.Response<Stripe.Checkout.Session>);

    const data = await (await returnPage(order.id, cookie, "session_id=cs_test_paid")).json();
    expect(retrieve).toHaveBeenCalledWith("cs_test_paid");
    expect(data).toMatchObject({ state: "paid", order: { transactionId: "pi_from_checkout" } });
  });

  test("the query string alone proves nothing, and someone else's order is a 404", async () => {
    const { user, cookie } = await signedInCustomer();
    const order = await createOrder({ user });
    const retrieve = vi.spyOn(stripe().paymentIntents, "retrieve");
    for (const query of ["redirect_status=succeeded", "payment_intent=not-an-id", 'payment_intent={"$gt":""}']) {
      expect((await (await returnPage(order.id, cookie, query)).json()).state).toBe("not_paid");
    }
    expect(retrieve).not.toHaveBeenCalled();

    const { cookie: otherCookie } = await signedInCustomer();
    expect((await returnPage(order.id, otherCookie, "payment_intent=pi_123")).status).toBe(404);
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });
});

describe("the Content Security Policy", () => {
  test("admits Stripe's script, frames and API on the pay screen only", async () => {
    const csp = async (path: string) =>
      (await fetch(`${process.env.SHOP_URL}${path}`, { redirect: "manual" })).headers.get("content-security-policy") ??
      "";
    const pay = await csp("/dashboard/payment/0123456789abcdef01234567");
    expect(pay).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(pay).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com[^;]*https:\/\/hooks\.stripe\.com/);
    expect(pay).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
    expect(pay).toMatch(/form-action [^;]*https:\/\/checkout\.stripe\.com/);
    for (const path of ["/", "/parts", "/dashboard/payment/0123456789abcdef01234567/success", "/webhooks/stripe"]) {
      expect(await csp(path)).not.toContain("stripe.com");
    }
  });
});
