/** A shop started without Stripe keys: the pay screen says so plainly (no setting names); nothing is faked. */
import { describe, expect, test, vi } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Payment } from "~/orders/model/card-payment.server";
import { action, loader } from "~/routes/dashboard.payment.$id";
import { action as webhook } from "~/routes/webhooks.stripe";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";

vi.mock("~/services/env.server", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/services/env.server")>();
  return {
    ...actual,
    getEnv: () => ({
      ...actual.getEnv(),
      STRIPE_SECRET_KEY: undefined,
      STRIPE_PUBLISHABLE_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
    }),
  };
});

describe("without Stripe keys", () => {
  test("the pay screen says card payment is off and to pay by bank transfer, naming no setting", async () => {
    const user = await createUser();
    const cookie = await sessionCookieHeader(user.id);
    const order = await createOrder({ user });

    const request = getRequest(`/dashboard/payment/${order.id}`, { cookie });
    const response = await settle(loader(loaderArgs(request, { id: order.id })));
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.payment).toEqual({ state: "unconfigured" });
    expect(JSON.stringify(data)).not.toMatch(/secret_|pk_|STRIPE_/);

    const post = postRequest(`/dashboard/payment/${order.id}`, { intent: "checkout" }, { cookie });
    const paid = await settle(action(actionArgs(post, { id: order.id })));
    expect(paid.status).toBe(503);
    expect(JSON.stringify(await paid.json())).toContain(
      `Card payment is off in this shop, so ${order.number} cannot be paid by card: pay it by bank transfer instead, against its pro-forma invoice.`,
    );
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
    expect(await Payment.countDocuments({ myOrder: order.id })).toBe(0);
  });

  test("an order placed for bank transfer is told to pay by bank transfer, not that card payment comes later", async () => {
    const user = await createUser();
    const cookie = await sessionCookieHeader(user.id);
    const order = await createOrder({ user });
    await Order.updateOne({ _id: order.id }, { $set: { paymentMethod: "bank-transfer" } });

    const post = postRequest(`/dashboard/payment/${order.id}`, { intent: "checkout" }, { cookie });
    const paid = await settle(action(actionArgs(post, { id: order.id })));
    expect(paid.status).toBe(503);
    const said = JSON.stringify(await paid.json());
    expect(said).toContain(
      `Card payment is off in this shop: pay ${order.number} by bank transfer, against its pro-forma invoice.`,
    );
    expect(said).not.toMatch(/not available yet|STRIPE_/);
  });

  test("the webhook answers 503 and changes nothing", async () => {
    const order = await createOrder({ user: await createUser() });
    const body = JSON.stringify({
      id: "evt_unconfigured",
      type: "payment_intent.succeeded",
      data: {
        object: {
          object: "payment_intent",
          id: "pi_x",
          status: "succeeded",
          amount_received: order.totalCents,
          currency: "usd",
          metadata: { orderId: order.id },
        },
      },
    });
    const request = new Request("http://localhost/webhooks/stripe", {
      method: "POST",
      body,
      headers: { "Stripe-Signature": "t=1,v1=00" },
    });
    const response = await settle(webhook(actionArgs(request)));
    expect(response.status).toBe(503);
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });
});
