/**
 * The shop's one delivery mechanism (models/delivery-queue.server.ts), as mail's outbox and the
 * webhook deliveries both use it, against the real database: one attempt at a time, a stale
 * holder loses its claim, retries and the last attempt, and what the sweep hands a job again.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { addToOutbox, Outbox, outboxQueue } from "~/models/outbox.server";
import { Types } from "mongoose";
import { addDelivery, deliveryId, WebhookDelivery, webhookQueue } from "~/models/webhook.server";

async function pendingMessage() {
  const id = `test:queue:${randomUUID()}`;
  await addToOutbox({ _id: id, to: "queue@example.com", subject: "Queued", html: "<p>Hi</p>", text: "Hi" });
  return id;
}

describe("one delivery mechanism", () => {
  test("of ten attempts at once, one takes the entry; the others get nothing", async () => {
    const id = await pendingMessage();
    const claims = await Promise.all(Array.from({ length: 10 }, () => outboxQueue.claim(id, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const stored = await Outbox.findById(id).lean();
    expect(stored).toMatchObject({ status: "sending", attempts: 1 });
  });

  test("a holder gone stale loses the entry to the next attempt, and its late release changes nothing", async () => {
    const id = await pendingMessage();
    const first = (await outboxQueue.claim(id, 60_000))!;
    expect(await outboxQueue.claim(id, 60_000)).toBeNull(); // held, and not stale
    const second = (await outboxQueue.claim(id, 0))!; // held for longer than 0 ms: stale
    expect(second.entry.attempts).toBe(2);
    expect(await outboxQueue.release(id, first.token, { error: "late", final: false })).toBe(false);
    expect(await outboxQueue.release(id, second.token, { error: "421 try later", final: false })).toBe(true);
    expect(await Outbox.findById(id).lean()).toMatchObject({ status: "pending", lastError: "421 try later" });
  });

  test("the last failed attempt fails it for good; a done entry is never taken again", async () => {
    const failing = await pendingMessage();
    const claim = (await outboxQueue.claim(failing, 60_000))!;
    await outboxQueue.release(failing, claim.token, { error: "550 no such user", final: true });
    expect(await Outbox.findById(failing).lean()).toMatchObject({ status: "failed", lastError: "550 no such user" });
    expect(await outboxQueue.claim(failing, 0)).toBeNull();

    const sent = await pendingMessage();
    await outboxQueue.claim(sent, 60_000, { messageId: "<m@partsworks.test>" });
    await outboxQueue.markDone(sent);
    const stored = await Outbox.findById(sent).lean();
    expect(stored).toMatchObject({ status: "sent", messageId: "<m@partsworks.test>" });
    expect(stored?.sentAt).toBeInstanceOf(Date);
    expect(stored?.claimToken).toBeUndefined();
    expect(await outboxQueue.claim(sent, 0)).toBeNull();
  });

  test("the sweep lists entries waiting past the idle time and holders gone stale, not fresh ones", async () => {
    const idle = await pendingMessage();
    const held = await pendingMessage();
    await outboxQueue.claim(held, 60_000);
    // Nothing is old enough yet (an idle time of a minute) …
    const soon = await outboxQueue.listStranded({ idleMs: 60_000, staleMs: 60_000, limit: 10_000 });
    expect(soon).not.toContain(idle);
    expect(soon).not.toContain(held);
    // … and everything is, with both at 0 ms.
    await new Promise((resolve) => setImmediate(resolve));
    const later = await outboxQueue.listStranded({ idleMs: -1, staleMs: -1, limit: 10_000 });
    expect(later).toEqual(expect.arrayContaining([idle, held]));
  });

  test("webhook deliveries run on the same queue: done is 'delivered', with the receiver's status", async () => {
    const eventId = `test:queue:${randomUUID()}`;
    const endpointId = new Types.ObjectId().toString();
    await addDelivery({
      eventId,
      endpointId,
      ownerId: new Types.ObjectId().toString(),
      type: "order.paid",
      orderId: new Types.ObjectId().toString(),
      orderNumber: "SO-100001",
      body: "{}",
    });
    const id = deliveryId(eventId, endpointId);
    const claims = await Promise.all([webhookQueue.claim(id, 60_000), webhookQueue.claim(id, 60_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await webhookQueue.markDone(id, { lastStatusCode: 204 });
    const stored = await WebhookDelivery.findById(id).lean();
    expect(stored).toMatchObject({ status: "delivered", lastStatusCode: 204, attempts: 1 });
    expect(stored?.deliveredAt).toBeInstanceOf(Date);
  });
});
