/**
 * Fault tests of the shop's embedded database (no MONGODB_URI): killed, the shop starts it again
 * by itself; its disk full (a small tmpfs this test mounts), pages still show, changes answer 503
 * saying so (the page titled so too), Shop Today says so, and once space is freed the shop saves
 * again with no restart, its log JSON lines without a stack all along; a data directory that cannot
 * be written stops the start with one line.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectDb, disconnectDb } from "~/services/db.server";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import {
  killShop,
  linesSinceReady,
  localDbOf,
  postForm,
  spawnShop,
  titleOf,
  waitHealthy,
  type ShopProcess,
} from "./fault-helpers";
import { addressForm, DETROIT } from "../../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-heals-"));
const mountPoint = path.join(work, "disk");
mkdirSync(mountPoint);
// A small disk of the test's own: root can mount a tmpfs here (the suite runs as root in CI).
const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=160m", "tmpfs", mountPoint]).status === 0;
const shops: ShopProcess[] = [];
let usingShopDb = false;

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  if (usingShopDb) {
    await disconnectDb();
    await connectDb(process.env.MONGODB_URI!);
  }
  // The embedded database exits once its shop is gone (its standard input closes).
  if (mounted) {
    for (let i = 0; i < 50 && spawnSync("umount", [mountPoint]).status !== 0; i++) await sleep(100);
  }
  rmSync(work, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const health = async (shop: ShopProcess) => {
  const response = await fetch(`${shop.url}/healthz`);
  return { status: response.status, body: (await response.json()) as { status: string } };
};

describe.skipIf(!mounted)("the embedded database on a small disk of its own", () => {
  let shop: ShopProcess;
  beforeAll(async () => {
    shop = await spawnShop(null, {
      DATA_DIR: path.join(mountPoint, "data"),
      LOG_LEVEL: "info",
      LOCAL_DB_MIN_FREE_MB: "16",
    });
    shops.push(shop);
    await waitHealthy(shop, 90_000);
  }, 120_000);

  test("killed, it is started again by the shop, which serves again with no restart", async () => {
    const before = localDbOf(shop);
    process.kill(before.pid, "SIGKILL");
    await expect.poll(async () => (await health(shop)).status, { timeout: 5000, interval: 100 }).toBe(503);
    // A new database process: a JVM starting on a busy machine may take a while.
    await expect.poll(async () => (await health(shop)).status, { timeout: 45_000, interval: 200 }).toBe(200);
    expect((await fetch(`${shop.url}/parts`)).status).toBe(200);
    expect(shop.child.exitCode).toBeNull();
    const attempts = shop.output().match(/Local database stopped \(killed by SIGKILL\); starting it again/g) ?? [];
    expect(attempts).toHaveLength(1);
    expect(shop.output()).toMatch(/Local database running again \(pid \d+\)/);
  }, 60_000);

  test("a full disk: pages show, changes answer 503 saying so, and it saves again once space is freed", async () => {
    const { uri } = localDbOf(shop);
    await disconnectDb();
    usingShopDb = true;
    await connectDb(uri);
    const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 1 });
    const buyer = await createUser({ name: "Full Disk Buyer" });
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(buyer.id);
    const adminCookie = await sessionCookieHeader(admin.id);
    const origin = `http://localhost:${shop.port}`;
    const order = (line1: string) =>
      postForm(
        `${shop.url}/parts/${part.id}`,
        { quantity: "1", phone: "555-0100", ...addressForm({ ...DETROIT, line1 }) },
        { cookie, origin },
      );
    expect((await order("1 Before Street")).status).toBe(302);

    // Fill the disk until less than the database's minimum (16 MB) is left.
    const stats = statfsSync(mountPoint);
    const free = stats.bavail * stats.bsize;
    const filler = path.join(mountPoint, "filler");
    writeFileSync(filler, Buffer.alloc(Math.max(0, free - 8 * 1024 * 1024)));

    await expect.poll(async () => (await health(shop)).body.status, { timeout: 5000 }).toBe("database disk full");
    expect((await health(shop)).status).toBe(503);
    const refused = await order("2 Full Street");
    expect(refused.status).toBe(503);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(refused.body).toContain("disk is full");
    expect(refused.body).toContain("My Orders");
    // The page and its title say what happened (not "Part not found").
    expect(titleOf(refused.body)).toBe("We cannot save changes right now — PartsWorks");
    expect(refused.body).toContain("We cannot save changes right now</h1>");
    // Reading goes on.
    expect((await fetch(`${shop.url}/parts/${part.id}`)).status).toBe(200);
    const today = await fetch(`${shop.url}/dashboard/admin`, { headers: { Cookie: adminCookie } });
    expect(today.status).toBe(200);
    expect(await today.text()).toContain("The database&#x27;s disk is full");
    expect(shop.output().match(/database disk full/g)).toHaveLength(1);

    rmSync(filler);
    await expect.poll(async () => (await health(shop)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    await expect.poll(async () => (await order("3 Freed Street")).status, { timeout: 5000 }).toBe(302);
    expect(shop.output()).toContain("database disk has space again");
    expect(shop.child.exitCode).toBeNull();
    expect(shop.output()).not.toContain("unhandled rejection");
    // The order refused mid-way and the writes the sweeps tried meanwhile: JSON lines, none with a stack.
    const { json, notJson } = linesSinceReady(shop);
    expect(notJson).toEqual([]);
    expect(json.filter((line) => JSON.stringify(line).includes("\\n    at "))).toEqual([]);
  }, 60_000);
});

describe.skipIf(!mounted)("a data directory that cannot be written", () => {
  test("stops the start with one line, exit 1", async () => {
    const readOnly = path.join(work, "read-only");
    mkdirSync(readOnly);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", readOnly]).status).toBe(0);
    try {
      const shop = await spawnShop(null, { DATA_DIR: path.join(readOnly, "data") });
      shops.push(shop);
      const exit = await shop.exited;
      expect(exit.code).toBe(1);
      const lines = shop.stderr().trim().split("\n");
      expect(lines, shop.stderr()).toHaveLength(1);
      expect(lines[0]).toMatch(/^Cannot start: the data directory .* cannot be written \(EROFS\)$/);
    } finally {
      spawnSync("umount", [readOnly]);
    }
    // A shop's start on a loaded two-core machine (the whole suite beside it) takes most of 30 s.
  }, 60_000);
});
