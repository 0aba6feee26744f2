/**
 * Outbound webhooks against a running shop and a local receiver that checks every signature and
 * counts deliveries: each order event (placed, paid, shipped with tracking, cancelled, expired)
 * reaches the customer's endpoint and the admin's exactly once; a receiver that is down while
 * the shop is SIGKILLed mid-retry gets the event exactly once after both come back; a
 * redelivery sends the same event id again.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Types } from "mongoose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { WebhookDelivery } from "~/models/webhook.server";
import { expireOrder } from "~/orders/stock-jobs.server";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import {
  deliveriesSettled,
  killShop,
  ownDatabase,
  postForm,
  sleep,
  spawnShop,
  stablePort,
  waitHealthy,
  type ShopProcess,
} from "./fault-helpers";
import { DELIVERY_FORM } from "../../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-webhooks-"));
let db: Awaited<ReturnType<typeof ownDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const shops: ShopProcess[] = [];

type Body = { id: string; type: string; data: { order: Record<string, unknown>; cancelledBy?: string } };
type Received = { path: string; eventId: string; type: string; signed: boolean; body: Body };

/** A receiver on 127.0.0.1 that checks each delivery's signature with its endpoint's secret. */
async function startReceiver(port: number) {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  let server: http.Server | null = null;
  function verify(secret: string | undefined, header: string, raw: string) {
    const parts = Object.fromEntries(header.split(",").map((pair) => pair.split("=") as [string, string]));
    const t = Number(parts.t);
    if (!secret || !parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
    const expected = createHmac("sha256", secret).update(`${t}.${raw}`).digest();
    const given = Buffer.from(parts.v1, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  const start = () =>
    new Promise<void>((resolve) => {
      server = http.createServer((req, res) => {
        let raw = "";
        req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
        req.on("end", () => {
          const path = req.url ?? "";
          const signed = verify(secrets.get(path), String(req.headers["partsworks-signature"] ?? ""), raw);
          const body = JSON.parse(raw) as Body;
          received.push({ path, eventId: String(req.headers["partsworks-event-id"]), type: body.type, signed, body });
          res.writeHead(signed ? 204 : 401).end();
        });
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await start();
  return {
    url: (endpoint: string) => `http://127.0.0.1:${port}${endpoint}`,
    received,
    secrets,
    start,
    /** Down: the port refuses connections. */
    stop: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
    count: (endpoint: string, eventId: string) =>
      received.filter((entry) => entry.path === endpoint && entry.eventId === eventId).length,
  };
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  db = await ownDatabase(work);
  receiver = await startReceiver(await stablePort());
}, 60_000);

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  await receiver?.stop();
  await db?.restore();
  rmSync(work, { recursive: true, force: true });
});

// Shortened: jobs looked for every 250 ms, a 4 s lock, a sweep every 2 s; local receivers allowed.
const fast = { WEBHOOKS_ALLOW_LOCAL_HTTP: "1", JOBS_POLL_MS: "250", MAIL_LOCK_MS: "4000", MAIL_SWEEP_MS: "2000" };

async function startShop() {
  const shop = await spawnShop(db.uri, fast);
  shops.push(shop);
  await waitHealthy(shop);
  return shop;
}

function as(shop: ShopProcess, cookie: string) {
  const origin = `http://localhost:${shop.port}`;
  return (path: string, fields: Record<string, string>) => postForm(`${shop.url}${path}`, fields, { cookie, origin });
}

/** Registers an endpoint through the screen; the receiver learns the secret the answer shows once. */
async function register(post: ReturnType<typeof as>, endpoint: string) {
  const answer = await post("/dashboard/webhooks", { intent: "add", url: receiver.url(endpoint) });
  expect(answer.status).toBe(200);
  const secret = /data-testid="webhook-secret"[^>]*>(whsec_[A-Za-z0-9_-]+)</.exec(answer.body)?.[1];
  expect(secret).toBeTruthy();
  receiver.secrets.set(endpoint, secret!);
}

async function placeOrder(post: ReturnType<typeof as>, partId: string, quantity = 1) {
  const answer = await post(`/parts/${partId}`, {
    quantity: String(quantity),
    phone: "555-0100",
    ...DELIVERY_FORM,
  });
  expect(answer.status).toBe(302);
  const order = await Order.findOne({ "lines.partId": partId }).sort({ createdAt: -1 }).lean();
  return order!;
}

const eventId = (orderId: unknown, what: string) => `evt_${String(orderId)}_${what}`;

describe("webhooks of order events", () => {
  test("placed, paid, shipped (with tracking), cancelled and expired each reach the customer's and the admin's endpoint once, signed", async () => {
    const shop = await startShop();
    const part = await createPart({ availableQuantity: 10_000, minOrderQuantity: 1, priceCents: 1500 });
    const [alice, bob, admin] = await Promise.all([
      createUser({ name: "Alice Hooks" }),
      createUser({ name: "Bob Hooks" }),
      createUser({ name: "Ada Admin", role: "admin" }),
    ]);
    const asAlice = as(shop, await sessionCookieHeader(alice.id));
    const asBob = as(shop, await sessionCookieHeader(bob.id));
    const asAdmin = as(shop, await sessionCookieHeader(admin.id));
    await register(asAlice, "/alice");
    await register(asAdmin, "/admin");
    expect(await Audit.countDocuments({ action: "webhook.create" })).toBe(2);

    const first = await placeOrder(asAlice, part.id, 2);
    const today = new Date().toISOString().slice(0, 10);
    const paid = await asAdmin(`/dashboard/manageOrders/${first._id}`, {
      intent: "record-payment",
      amount: "31.80", // $30 and Michigan's 6 % sales tax
      receivedOn: today,
      method: "bank-transfer",
    });
    expect(paid.status).toBe(302);
    const shipped = await asAdmin(`/dashboard/manageOrders/${first._id}`, {
      intent: "ship",
      carrier: "ups",
      trackingNumber: "1Z999AA10123456784",
    });
    expect(shipped.status).toBe(302);
    const bobs = await placeOrder(asBob, part.id);
    expect((await asBob(`/dashboard/orders/${bobs._id}/cancel`, { confirm: "cancel" })).status).toBe(302);
    const held = await placeOrder(asAlice, part.id);
    // The expiry job's service, as the stock sweep runs it once the hold has run out.
    expect(await expireOrder(held._id.toString(), new Date(Date.now() + 365 * 24 * 3600_000))).toBe(true);

    const alices = [
      eventId(first._id, "placed"),
      eventId(first._id, "paid"),
      eventId(first._id, "shipped"),
      eventId(held._id, "placed"),
      eventId(held._id, "expired"),
    ];
    const all = [...alices, eventId(bobs._id, "placed"), eventId(bobs._id, "cancelled")];
    await until("every delivery", () =>
      [...alices.map((id) => receiver.count("/alice", id)), ...all.map((id) => receiver.count("/admin", id))].every(
        (n) => n >= 1,
      ),
    );
    // Every delivery made and no job left for one: nothing more can come.
    await until("nothing more to send", () => deliveriesSettled("webhookdeliveries", { eventId: { $in: all } }));
    for (const id of alices) expect(receiver.count("/alice", id), id).toBe(1);
    for (const id of all) expect(receiver.count("/admin", id), id).toBe(1);
    // Bob's orders are not Alice's business.
    expect(
      receiver.received.filter((entry) => entry.path === "/alice" && entry.eventId.includes(String(bobs._id))),
    ).toEqual([]);
    expect(receiver.received.every((entry) => entry.signed)).toBe(true);
    expect(receiver.received.every((entry) => entry.body.id === entry.eventId)).toBe(true);

    const shipping = receiver.received.find((entry) => entry.eventId === eventId(first._id, "shipped"))!;
    expect(shipping.type).toBe("order.shipped");
    expect(shipping.body.data.order).toMatchObject({
      number: first.number ? expect.stringMatching(/^SO-/) : expect.anything(),
      currency: "usd",
      totalCents: 3180,
      shipment: { carrier: "ups", trackingNumber: "1Z999AA10123456784" },
    });
    const cancelled = receiver.received.find((entry) => entry.eventId === eventId(bobs._id, "cancelled"))!;
    expect(cancelled.type).toBe("order.cancelled");
    expect(cancelled.body.data.cancelledBy).toBe("customer");
    expect(receiver.received.find((entry) => entry.eventId === eventId(held._id, "expired"))?.type).toBe(
      "order.expired",
    );

    // The screen lists the deliveries as delivered; another customer cannot remove Alice's endpoint.
    const page = await fetch(`${shop.url}/dashboard/webhooks`, {
      headers: { Cookie: await sessionCookieHeader(alice.id) },
    });
    const html = await page.text();
    expect(html).toContain(receiver.url("/alice"));
    expect(html).toContain("Delivered");
    const endpointId = /name="endpointId" value="([a-f0-9]{24})"/.exec(html)![1];
    expect((await asBob("/dashboard/webhooks", { intent: "remove", endpointId })).status).toBe(404);
    expect((await asAlice("/dashboard/webhooks", { intent: "remove", endpointId })).status).toBe(302);
    expect(
      await Audit.exists({ action: "webhook.remove", targetId: endpointId, actorEmail: alice.email }),
    ).toBeTruthy();
    await killShop(shop);
  }, 120_000);

  test("receiver down, shop killed mid-retry, both back: the event arrives exactly once; Redeliver sends the same id again", async () => {
    let shop = await startShop();
    const part = await createPart({ availableQuantity: 10_000, minOrderQuantity: 1 });
    const carol = await createUser({ name: "Carol Retry" });
    const cookie = await sessionCookieHeader(carol.id);
    await register(as(shop, cookie), "/carol");

    await receiver.stop();
    const order = await placeOrder(as(shop, cookie), part.id);
    const id = eventId(order._id, "placed");
    // The admin's endpoint of the first test hears of it too: this test follows Carol's.
    const carols = { eventId: id, ownerId: carol.id };
    // Attempts fail against the closed port and wait for their next try; then the shop dies.
    await until("two failed attempts", async () =>
      Boolean(await WebhookDelivery.exists({ ...carols, attempts: { $gte: 2 }, status: "pending" })),
    );
    const failed = await WebhookDelivery.findOne(carols).lean();
    expect(failed?.lastError).toBe("not delivered: the endpoint could not be reached (no HTTP answer)");
    await killShop(shop);

    await receiver.start();
    shop = await startShop();
    await until("the delivery after the restart", () => receiver.count("/carol", id) >= 1);
    await until("nothing more to send", () =>
      deliveriesSettled("webhookdeliveries", { eventId: id, ownerId: new Types.ObjectId(carol.id) }),
    );
    expect(receiver.count("/carol", id)).toBe(1);
    expect((await WebhookDelivery.findOne(carols).lean())?.status).toBe("delivered");

    const redeliver = await as(shop, cookie)("/dashboard/webhooks", {
      intent: "redeliver",
      deliveryId: (await WebhookDelivery.findOne(carols).lean())!._id,
    });
    expect(redeliver.status).toBe(302);
    await until("the redelivery", () => receiver.count("/carol", id) === 2);
    expect(receiver.received.filter((entry) => entry.eventId === id).every((entry) => entry.signed)).toBe(true);
  }, 150_000);
});
