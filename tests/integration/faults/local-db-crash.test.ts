/**
 * Fault test: the embedded database (scripts/local-db/LocalMongo.java) is SIGKILLed while 200
 * orders are being placed. Every order the shop acknowledged is there after its restart: the
 * store commits each write before it answers. Each order form carries its one-time key, and every
 * one not acknowledged is sent again with it, as a customer would after the error page: none is
 * placed twice.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import { killShop, ownDatabase, postForm, sleep, spawnShop, waitHealthy, type ShopProcess } from "./fault-helpers";
import { addressForm, DETROIT } from "../../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-crash-"));
let db: Awaited<ReturnType<typeof ownDatabase>>;
let shop: ShopProcess | undefined;

beforeAll(async () => {
  db = await ownDatabase(work);
}, 60_000);

afterAll(async () => {
  await killShop(shop);
  await db?.restore();
  rmSync(work, { recursive: true, force: true });
});

describe("SIGKILL of the local database during 200 order placements", () => {
  test("every acknowledged order is there after the restart", async () => {
    shop = await spawnShop(db.uri);
    await waitHealthy(shop);
    const part = await createPart({ availableQuantity: 100_000, minOrderQuantity: 1 });
    const users = await Promise.all(Array.from({ length: 10 }, () => createUser({ name: "Crash Buyer" })));
    // Twenty orders each: their own caps on unpaid orders let the database, not the caps, decide.
    await Promise.all(users.map((user) => setUnpaidCaps(user.id, { orders: 100, valueCents: 1e10 })));
    const cookies = await Promise.all(users.map((user) => sessionCookieHeader(user.id)));
    const acknowledged: string[] = [];
    const unacknowledged: { address: string; key: string; cookie: string }[] = [];
    let answered = 0;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < 200; i = next++) {
        const address = `${i} Crash Lane`;
        const key = randomUUID();
        const cookie = cookies[i % cookies.length]!;
        try {
          const answer = await postForm(
            `${shop!.url}/parts/${part.id}`,
            { quantity: "1", phone: "555-0100", ...addressForm({ ...DETROIT, line1: address }), idempotencyKey: key },
            { cookie, origin: `http://localhost:${shop!.port}` },
          );
          if (answer.status === 302) acknowledged.push(address);
          else unacknowledged.push({ address, key, cookie });
        } catch {
          // no answer: not acknowledged
          unacknowledged.push({ address, key, cookie });
        }
        answered++;
      }
    };
    const workers = Promise.all(Array.from({ length: 10 }, worker));
    while (acknowledged.length < 60) await sleep(20);
    db.kill();
    await workers;
    expect(answered).toBe(200);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    await db.restart();
    await expect.poll(async () => Order.countDocuments({}).catch(() => -1), { timeout: 30_000 }).toBeGreaterThan(0);
    const stored = new Set(
      (await Order.find({ "lines.partId": part.id }).select({ deliveryAddress: 1 }).lean()).map(
        (order) => order.deliveryAddress?.line1,
      ),
    );
    const lost = acknowledged.filter((address) => !stored.has(address));
    expect(lost).toEqual([]);

    // The customers whose order got no answer send the same form again, once the shop serves again.
    await waitHealthy(shop);
    const retried = await Promise.all(
      unacknowledged.map(({ address, key, cookie }) =>
        postForm(
          `${shop!.url}/parts/${part.id}`,
          { quantity: "1", phone: "555-0100", ...addressForm({ ...DETROIT, line1: address }), idempotencyKey: key },
          { cookie, origin: `http://localhost:${shop!.port}` },
        ),
      ),
    );
    // Placed now, or the first attempt's outcome cannot be confirmed (409, which says to look in My Orders).
    for (const answer of retried) expect([302, 409]).toContain(answer.status);
    const placed = await Order.find({ "lines.partId": part.id }).select({ deliveryAddress: 1 }).lean();
    const perAddress = new Map<string, number>();
    for (const order of placed) {
      const line1 = order.deliveryAddress?.line1 ?? "";
      perAddress.set(line1, (perAddress.get(line1) ?? 0) + 1);
    }
    expect([...perAddress].filter(([, count]) => count > 1)).toEqual([]);
  }, 120_000);
});
