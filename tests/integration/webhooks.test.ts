/**
 * The Webhooks screen through its real action, and the order-event subscriber against the real
 * database: bad URLs refused by the field with nothing written, the secret shown once, endpoints
 * owned by their user, and one delivery per event per endpoint however often the event is raised.
 * (Deliveries over HTTP, signatures and restarts: faults/webhooks.test.ts.)
 */
import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { WebhookDelivery, WebhookEndpoint } from "~/models/webhook.server";
import { action as webhooksAction, loader as webhooksLoader } from "~/routes/dashboard.webhooks/route";
import { raiseOrderEvent } from "~/orders/events.server";
import { eventBody } from "~/orders/webhook-events.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { endpointUrlProblem, signatureHeader } from "~/services/webhooks.server";
import { createPart } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { expectFieldError, signedIn, toastOf } from "./ordering.helpers";
import { DETROIT } from "../fixtures/addresses";

const post = (fields: Record<string, string>, cookie: string) =>
  settle(webhooksAction(actionArgs(postRequest("/dashboard/webhooks", fields, { cookie }))));

async function addEndpoint(cookie: string, url: string) {
  const response = await post({ intent: "add", url }, cookie);
  expect(response.status).toBe(200);
  return (await response.json()) as { created: { url: string; secret: string } };
}

describe("the Webhooks screen", () => {
  test.each([
    ["", /Enter the URL of your endpoint/],
    ["erp.example.com/hook", /Enter a full URL/],
    ["http://erp.example.com/hook", /must start with https:\/\//],
    ["http://127.0.0.1:9999/hook", /must start with https:\/\//],
    ["https://127.0.0.1/hook", /public server/],
    ["https://192.168.1.20/hook", /public server/],
    ["https://localhost/hook", /public server/],
    ["https://[::1]/hook", /public server/],
    // Carrier-grade NAT, benchmarking and reserved ranges, and names kept for inside a network.
    ["https://100.64.0.1/hook", /public server/],
    ["https://198.18.0.1/hook", /public server/],
    ["https://240.0.0.1/hook", /public server/],
    ["https://[fd00::1]/hook", /public server/],
    ["https://localhost./hook", /public server/],
    ["https://erp.localhost/hook", /public server/],
    ["https://printer.local./hook", /public server/],
    ["https://metadata.google.internal/hook", /public server/],
    ["https://user:pass@erp.example.com/hook", /user name and password/],
    [`https://erp.example.com/${"x".repeat(600)}`, /at most 500 characters/],
  ])("%s is refused by the field, nothing written", async (url, message) => {
    const { user, cookie } = await signedIn();
    await expectFieldError(await post({ intent: "add", url }, cookie), "url", message);
    expect(await WebhookEndpoint.countDocuments({ ownerId: user.id })).toBe(0);
  });

  test("plain http://127.0.0.1 is allowed only by the named setting", () => {
    expect(endpointUrlProblem("http://127.0.0.1:4000/hook", false)).toMatch(/https/);
    expect(endpointUrlProblem("http://127.0.0.1:4000/hook", true)).toBeNull();
    expect(endpointUrlProblem("http://localhost:4000/hook", true)).toMatch(/https/);
  });

  test("an endpoint is added with its secret shown once, audited, owned: another customer can neither see nor remove it", async () => {
    const alice = await signedIn("customer", "Alice Owner");
    const bob = await signedIn("customer", "Bob Other");
    const { created } = await addEndpoint(alice.cookie, "https://erp.example.com/partsworks");
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    const endpoint = await WebhookEndpoint.findOne({ ownerId: alice.user.id }).lean();
    expect(endpoint).toMatchObject({ url: "https://erp.example.com/partsworks", scope: "own" });
    expect(await Audit.exists({ action: "webhook.create", targetId: endpoint!._id.toString() })).toBeTruthy();

    // Later loads never show the secret again.
    const page = await settle(webhooksLoader(loaderArgs(getRequest("/dashboard/webhooks", { cookie: alice.cookie }))));
    const data = await page.json();
    expect(JSON.stringify(data)).not.toContain(created.secret);
    expect(data.endpoints).toHaveLength(1);
    const bobsPage = await settle(
      webhooksLoader(loaderArgs(getRequest("/dashboard/webhooks", { cookie: bob.cookie }))),
    );
    expect((await bobsPage.json()).endpoints).toEqual([]);

    const endpointId = endpoint!._id.toString();
    expect((await post({ intent: "remove", endpointId }, bob.cookie)).status).toBe(404);
    expect(await WebhookEndpoint.exists({ _id: endpointId })).toBeTruthy();
    const removed = await post({ intent: "remove", endpointId }, alice.cookie);
    expect(removed.status).toBe(302);
    expect((await toastOf(removed))?.message).toMatch(/is removed/);
    expect(await WebhookEndpoint.exists({ _id: endpointId })).toBeNull();
    expect(
      await Audit.exists({ action: "webhook.remove", targetId: endpointId, actorEmail: alice.user.email }),
    ).toBeTruthy();
  });

  test("at most 5 endpoints per company; forged intents are a 400", async () => {
    const { user, cookie } = await signedIn();
    for (let i = 0; i < 5; i++) await addEndpoint(cookie, `https://erp${i}.example.com/hook`);
    await expectFieldError(
      await post({ intent: "add", url: "https://erp9.example.com/hook" }, cookie),
      "url",
      /the most one company may have/,
    );
    expect((await post({ intent: "drop-table", url: "x" }, cookie)).status).toBe(400);
    expect((await post({ intent: "remove", endpointId: "nope" }, cookie)).status).toBe(400);
    expect(await WebhookEndpoint.countDocuments({ ownerId: user.id })).toBe(5);
  });
});

describe("the order-event subscriber", () => {
  test("one delivery per event per endpoint: the customer's own and every admin's, however often the event is raised", async () => {
    const alice = await signedIn("customer", "Alice Buyer");
    const bob = await signedIn("customer", "Bob Buyer");
    const admin = await signedIn("admin");
    await addEndpoint(alice.cookie, "https://alice.example.com/hook");
    await addEndpoint(bob.cookie, "https://bob.example.com/hook");
    await addEndpoint(admin.cookie, "https://shop-erp.example.com/hook");
    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await placeCustomerOrder({
      user: { id: alice.user.id },
      lines: [{ partId: part.id, quantity: 3 }],
      phone: "555-0100",
      delivery: DETROIT,
    });
    if (!placed.ok) throw new Error("not placed");
    const order = placed.order;
    // The sweep (or a retried confirmation) raising it again writes nothing new.
    await raiseOrderEvent({ type: "orderPlaced", order, belowMinimum: [] });
    await raiseOrderEvent({ type: "orderPlaced", order, belowMinimum: [] });
    const deliveries = await WebhookDelivery.find({ orderId: order.id }).lean();
    expect(deliveries.map((d) => [d.eventId, d.type, d.ownerId.toString()]).sort()).toEqual(
      [
        [`evt_${order.id}_placed`, "order.placed", alice.user.id],
        [`evt_${order.id}_placed`, "order.placed", admin.user.id],
      ].sort(),
    );
    const body = JSON.parse(deliveries[0].body);
    expect(body).toMatchObject({
      id: `evt_${order.id}_placed`,
      type: "order.placed",
      data: { order: { number: order.number, currency: "usd", totalCents: order.totalCents } },
    });
    expect(body.data.order.lines[0]).toMatchObject({ partNumber: part.partNumber, quantity: 3 });
    // Redeliver: the owner's delivery only, back to pending with fresh attempts.
    const alicesDelivery = deliveries.find((d) => d.ownerId.toString() === alice.user.id)!;
    await WebhookDelivery.updateOne({ _id: alicesDelivery._id }, { $set: { status: "failed", attempts: 14 } });
    expect((await post({ intent: "redeliver", deliveryId: alicesDelivery._id }, bob.cookie)).status).toBe(404);
    const again = await post({ intent: "redeliver", deliveryId: alicesDelivery._id }, alice.cookie);
    expect(again.status).toBe(302);
    expect(await WebhookDelivery.findById(alicesDelivery._id).lean()).toMatchObject({ status: "pending", attempts: 0 });
    // A demoted admin's endpoint for every order hears of no more orders.
    const { User } = await import("~/models/user.server");
    await User.updateOne({ _id: admin.user.id }, { $set: { role: "customer" } });
    await raiseOrderEvent({ type: "orderPaid", order });
    expect(
      (await WebhookDelivery.find({ eventId: `evt_${order.id}_paid` }).lean()).map((d) => d.ownerId.toString()),
    ).toEqual([alice.user.id]);
    // The order's pending note is off once every subscriber wrote its entries.
    expect((await Order.findById(order.id).lean())?.eventsPending ?? []).not.toContain("placed");
  });

  test("an order sold in euros tells receivers so: the order's currency, and again beside the credit an event names", async () => {
    const { user } = await signedIn("customer");
    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await placeCustomerOrder({
      user: { id: user.id },
      lines: [{ partId: part.id, quantity: 2 }],
      phone: "555-0100",
      delivery: DETROIT,
    });
    if (!placed.ok) throw new Error("not placed");
    const use = {
      id: "use1",
      noteId: "n1",
      noteOrderId: "o1",
      noteNumber: "CN-000001",
      amountCents: 300,
      at: "",
      by: null,
    };
    const order = { ...placed.order, currency: "EUR" as const, creditUses: [use] };
    const body = JSON.parse(eventBody({ type: "creditApplied", order, useId: use.id }));
    expect(body.data.order).toMatchObject({ currency: "eur", totalCents: order.totalCents });
    expect(body.data.creditApplied).toMatchObject({ currency: "eur", amountCents: 300 });
  });

  test("the signature is HMAC-SHA256 of '<t>.<body>' with the endpoint's secret", () => {
    expect(signatureHeader("whsec_test", '{"id":"evt_1"}', 1700000000)).toBe(
      "t=1700000000,v1=" + createHmac("sha256", "whsec_test").update('1700000000.{"id":"evt_1"}').digest("hex"),
    );
  });
});
