import type { Page } from "@playwright/test";
import Stripe from "stripe";
import { Order } from "~/orders/model/schema.server";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

/**
 * Paying an order, in both projects (JavaScript on and off). The shop's server talks to stripe-mock.
 * The browser has no internet here, so Stripe's own sites are stood in for per test: Stripe.js is
 * either blocked (the page must fall back to Checkout) or replaced by a small stand-in that records
 * what the page asks of it; Stripe Checkout's hosted page is a stub that proves the redirect landed.
 */

const STRIPE_JS = "https://js.stripe.com/**";
const CHECKOUT = "https://checkout.stripe.com/**";

async function blockStripeJs(page: Page) {
  await page.route(STRIPE_JS, (route) => route.abort());
}

/** A stand-in for Stripe.js: mounts a placeholder Payment Element and declines every card. */
const FAKE_STRIPE_JS = `
(() => {
  const calls = (window.__stripeCalls = []);
  window.Stripe = function (key) {
    calls.push({ call: "Stripe", key });
    return {
      elements(options) {
        calls.push({ call: "elements", options });
        return {
          create(type, options) {
            calls.push({ call: "create", type, options });
            const handlers = {};
            let mounted = false;
            const fire = (event) => (handlers[event] || []).forEach((handler) => setTimeout(() => handler({ elementType: type })));
            return {
              mount(node) {
                node.innerHTML = '<p data-testid="fake-payment-element">Card number, expiry, CVC (test stand-in)</p>';
                mounted = true;
                fire("ready");
              },
              on(event, handler) {
                (handlers[event] = handlers[event] || []).push(handler);
                if (event === "ready" && mounted) setTimeout(() => handler({ elementType: type }));
              },
              off(event, handler) {
                handlers[event] = (handlers[event] || []).filter((h) => h !== handler);
              },
              update() {},
              destroy() {},
              unmount() {},
            };
          },
          update() {},
          getElement() { return null; },
        };
      },
      createToken() {},
      createPaymentMethod() {},
      confirmCardPayment() {},
      async confirmPayment(params) {
        calls.push({ call: "confirmPayment", confirmParams: params.confirmParams, hasElements: Boolean(params.elements) });
        return { error: { type: "card_error", code: "card_declined", message: "Your card was declined." } };
      },
    };
  };
  window.Stripe.version = "endive";
})();
`;

async function fakeStripeJs(page: Page) {
  await page.route(STRIPE_JS, (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_STRIPE_JS }),
  );
}

async function stubCheckout(page: Page) {
  await page.route(CHECKOUT, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>Stripe Checkout</title><h1>Stripe Checkout (test stand-in)</h1>",
    }),
  );
}

function signedWebhook(order: { id: string; totalCents: number }, transactionId: string) {
  const payload = JSON.stringify({
    id: `evt_${transactionId}`,
    object: "event",
    type: "payment_intent.succeeded",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: transactionId,
        object: "payment_intent",
        status: "succeeded",
        amount: order.totalCents,
        amount_received: order.totalCents,
        currency: "usd",
        metadata: { orderId: order.id },
      },
    },
  });
  const secret = process.env.STRIPE_WEBHOOK_SECRET!;
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

test("the pay screen shows one's own unpaid order, reached from My Orders", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  const user = await login();
  const part = await createPart({ name: `Brake Caliper ${Date.now()}`, priceCents: 1250 });
  const order = await createOrder({ user, part, quantity: 200 });
  if (javaScriptEnabled) await blockStripeJs(page);

  const stripeRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("stripe")) stripeRequests.push(request.url());
  });
  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${order.id}`);
  await expect(row).toContainText(part.name);
  // Stripe.js is not loaded on other pages.
  expect(stripeRequests).toEqual([]);

  const document = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/dashboard/payment/${order.id}`) && response.request().resourceType() === "document",
  );
  await row.getByRole("link", { name: new RegExp(`^Pay for SO-\\d+: ${part.name}$`) }).click();
  await expect(page).toHaveURL(`/dashboard/payment/${order.id}`);
  // Even with JavaScript, the pay screen is a full page load: its own CSP admits Stripe.
  expect((await document).headers()["content-security-policy"]).toContain("https://js.stripe.com");

  await expect(page.getByRole("heading", { level: 1, name: "Pay for your order" })).toBeVisible();
  await expect(page.getByTestId("pay-part")).toHaveText(part.name);
  await expect(page.getByTestId("pay-quantity")).toHaveText("200");
  await expect(page.getByTestId("pay-price")).toHaveText("$2,500.00");
  await expect(page.getByRole("button", { name: "Pay with card" })).toBeVisible();
  if (javaScriptEnabled) {
    // Stripe.js could not load (blocked here): the page says so and keeps Checkout available.
    await expect(page.getByText("The card form could not load.")).toBeVisible();
    await checkA11y(); // axe runs inside the page
  }
});

test("someone else's order is a 404 on the pay screen and on the return page", async ({ page, login }) => {
  const owner = await login();
  const order = await createOrder({ user: owner });
  await page.context().clearCookies();
  await login();
  for (const path of [
    `/dashboard/payment/${order.id}`,
    `/dashboard/payment/${order.id}/success?payment_intent=pi_123`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not find that page");
  }
  expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
});

test("a paid order has no pay link, shows its transaction id, and its pay screen sends back to My Orders", async ({
  page,
  login,
}) => {
  const user = await login();
  const order = await createOrder({ user, status: "paid", transactionId: "pi_e2e_already_paid" });
  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${order.id}`);
  await expect(row).toContainText("Transaction id: pi_e2e_already_paid");
  await expect(row.getByRole("link", { name: /^Pay/ })).toHaveCount(0);

  await page.goto(`/dashboard/payment/${order.id}`);
  await expect(page).toHaveURL("/dashboard/orders");
  await expect(page.getByTestId("toast")).toContainText("This order is already paid.");
});

test("Pay with card redirects to the Checkout Session's URL on Stripe", async ({ page, login }) => {
  const user = await login();
  const order = await createOrder({ user });
  await blockStripeJs(page);
  await stubCheckout(page);
  await page.goto(`/dashboard/payment/${order.id}`);
  await page.getByRole("button", { name: "Pay with card" }).click();
  // stripe-mock's Checkout Session URL: Stripe's hosted page.
  await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.com\/pay\/c\/cs_test_\w+/);
  await expect(page.getByRole("heading", { name: "Stripe Checkout (test stand-in)" })).toBeVisible();
  expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
});

// Tagged @js-on: the Payment Element needs JavaScript.
test(
  "with JavaScript, the Payment Element confirms with the billing name and email and shows card errors in red",
  { tag: "@js-on" },
  async ({ page, login, checkA11y }) => {
    const user = await login({ name: "Petra Payer" });
    const order = await createOrder({ user });
    await fakeStripeJs(page);
    await page.goto(`/dashboard/payment/${order.id}`);

    await expect(page.getByTestId("fake-payment-element")).toBeVisible();
    await expect(page.getByRole("button", { name: "Pay with card" })).toHaveCount(0);
    const pay = page.getByRole("button", { name: `Pay $${(order.totalCents / 100).toLocaleString("en-US")}` });
    await expect(pay).toBeEnabled();
    await pay.click();

    const error = page.getByText("Your card was declined.");
    await expect(error).toBeVisible();
    await expect(error).toHaveCSS("color", "rgb(185, 28, 28)");
    await checkA11y();

    const calls = await page.evaluate(
      () => (window as unknown as { __stripeCalls: Record<string, unknown>[] }).__stripeCalls,
    );
    expect(calls[0]).toEqual({ call: "Stripe", key: process.env.STRIPE_PUBLISHABLE_KEY });
    expect(calls.find((call) => call.call === "elements")).toMatchObject({
      options: { clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/) },
    });
    expect(calls.find((call) => call.call === "create")).toMatchObject({ type: "payment" });
    expect(calls.find((call) => call.call === "confirmPayment")).toEqual({
      call: "confirmPayment",
      hasElements: true,
      confirmParams: {
        return_url: new URL(`/dashboard/payment/${order.id}/success`, page.url()).href,
        payment_method_data: { billing_details: { name: "Petra Payer", email: user.email } },
      },
    });
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  },
);

test("after Stripe's signed webhook, My Orders and the return page show the order paid with its transaction id", async ({
  page,
  login,
  request,
  checkA11y,
  javaScriptEnabled,
}) => {
  const user = await login();
  const order = await createOrder({ user });

  // Coming back before Stripe has confirmed anything: not paid (stripe-mock's intent is unpaid).
  await page.goto(`/dashboard/payment/${order.id}/success?payment_intent=pi_123&redirect_status=succeeded`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your payment was not completed");

  const transactionId = `pi_e2e_${order.id}`;
  const { payload, signature } = signedWebhook(order, transactionId);
  const answer = await request.post("/webhooks/stripe", {
    data: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
  });
  expect(answer.status()).toBe(200);

  await page.goto(`/dashboard/payment/${order.id}/success`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Congrats! Your payment is completed.");
  await expect(page.getByTestId("transaction-id")).toHaveText(transactionId);
  if (javaScriptEnabled) await checkA11y();

  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${order.id}`);
  await expect(row).toContainText(`Transaction id: ${transactionId}`);
  await expect(row.getByRole("link", { name: /^Pay/ })).toHaveCount(0);
});
