/**
 * Fault tests: the database goes away and comes back. While it is stopped, pages answer 503 with
 * Retry-After and the shop's error page within 1.5 s, and 200 again within 5 s of its return, with
 * no restart; at start the shop waits for a database that comes up late, and a database that never
 * comes (or an address that is not one) stops it with one line, never a stack.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { freePort, startLocalDb, type LocalDb } from "../../../server/local-db";
import { killShop, sleep, spawnShop, stablePort, waitHealthy, type ShopProcess } from "./fault-helpers";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-db-"));
const shops: ShopProcess[] = [];
const dbs: LocalDb[] = [];

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  for (const db of dbs) await db.stop();
  rmSync(work, { recursive: true, force: true });
});

async function timedGet(url: string) {
  const started = Date.now();
  const response = await fetch(url, { headers: { Accept: "text/html" } });
  const body = await response.text();
  return { status: response.status, ms: Date.now() - started, retryAfter: response.headers.get("retry-after"), body };
}

describe("a database stopped for 20 s under light traffic", () => {
  test("answers 503 with Retry-After within 1.5 s, and 200 again within 5 s of its return, with no restart", async () => {
    const dataFile = path.join(work, "outage", "db.mv");
    const db = await startLocalDb({ dataFile, database: "shop-outage", port: await stablePort() });
    dbs.push(db);
    const shop = await spawnShop(db.uri);
    shops.push(shop);
    await waitHealthy(shop);
    const pages = ["/", "/parts", "/blogs", "/login"];
    for (const page of pages) expect((await timedGet(`${shop.url}${page}`)).status, page).toBe(200);

    await db.stop();
    const outage: Awaited<ReturnType<typeof timedGet>>[] = [];
    const until = Date.now() + 20_000;
    for (let i = 0; Date.now() < until; i++) {
      outage.push(await timedGet(`${shop.url}${pages[i % pages.length]}`));
      await sleep(200);
    }
    // An order form posted during the outage is answered as fast, not after the driver's timeouts.
    const post = await fetch(`${shop.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://localhost:${shop.port}` },
      body: "email=someone%40example.com&password=whatever-it-is",
    });
    expect(post.status).toBe(503);
    expect((await fetch(`${shop.url}/healthz`)).status).toBe(503);

    expect(outage.length).toBeGreaterThan(10);
    for (const answer of outage) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(1500);
      expect(answer.retryAfter).toMatch(/^\d+$/);
    }
    const page = outage.find((answer) => answer.body.includes("<html"))!;
    expect(page.body).toContain("We&#x27;ll be right back");
    expect(page.body).toMatch(/data-request-id="[^"]+"/);

    const restarted = await startLocalDb({ dataFile, database: "shop-outage", port: db.port });
    dbs.push(restarted);
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 5000) {
      status = (await timedGet(`${shop.url}/parts`)).status;
      if (status === 200) break;
      await sleep(100);
    }
    expect(status).toBe(200);
    expect(shop.child.exitCode).toBeNull(); // the same process: no restart
    for (const page of pages) expect((await timedGet(`${shop.url}${page}`)).status, page).toBe(200);
  }, 90_000);
});

describe("start-up", () => {
  test("a database that comes up after the shop tried three times: the shop waits, says so, and starts", async () => {
    const port = await stablePort();
    const shop = await spawnShop(`mongodb://127.0.0.1:${port}/shop-late`, { LOG_LEVEL: "info" });
    shops.push(shop);
    // It has tried three times (about 15 s of waiting at the default settings) and is still there.
    await expect
      .poll(() => (shop.output().match(/not reachable yet \(attempt \d+/g) ?? []).length, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(3);
    expect(shop.child.exitCode).toBeNull();
    const db = await startLocalDb({ dataFile: path.join(work, "late", "db.mv"), database: "shop-late", port });
    dbs.push(db);
    await waitHealthy(shop, 30_000);
    const waits = shop.output().match(/not reachable yet \(attempt \d+/g) ?? [];
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(shop.output()).not.toContain("    at "); // no stack
  }, 90_000);

  test("a database that never comes: one line naming the problem, exit 1", async () => {
    const port = await freePort();
    const shop = await spawnShop(`mongodb://127.0.0.1:${port}/shop-never`, { DB_STARTUP_WAIT_MS: "3000" });
    shops.push(shop);
    const exit = await shop.exited;
    expect(exit.code).toBe(1);
    const lines = shop.stderr().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Cannot start: The database at mongodb:\/\/127\.0\.0\.1:\d+\/shop-never did not answer within 3 s/,
    );
  }, 30_000);

  test("a malformed MONGODB_URI: one line, exit 1, no retries", async () => {
    const shop = await spawnShop("mongodb://127.0.0.1:27017,:x/shop?replicaSet=", {});
    shops.push(shop);
    const exit = await shop.exited;
    expect(exit.code).toBe(1);
    const lines = shop.stderr().trim().split("\n");
    expect(lines, shop.stderr()).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start: MONGODB_URI is not a valid MongoDB address/);
    expect(shop.output()).not.toContain("not reachable yet");
  }, 30_000);
});
