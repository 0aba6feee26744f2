/**
 * One line, never a stack. What stops the start is one line on standard error: an invalid setting,
 * a data directory that cannot be written (without SESSION_SECRET too), a disk below the embedded
 * database's margin (named, with the setting that sets it). A database killed while it starts is
 * named with its signal. A database killed five times while orders come in leaves JSON lines only,
 * each fault the shop gets over by itself without a stack, and 503 pages titled for what happened.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectDb, disconnectDb } from "~/services/db.server";
import { startLocalDb } from "../../../server/local-db";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import { addressForm, DETROIT } from "../../fixtures/addresses";
import {
  killShop,
  linesSinceReady,
  localDbOf,
  parentOf,
  postForm,
  sleep,
  spawnShop,
  titleOf,
  waitHealthy,
  type ShopProcess,
} from "./fault-helpers";

const work = mkdtempSync(path.join(tmpdir(), "shop-one-line-"));
const shops: ShopProcess[] = [];
const mounts: string[] = [];
let usingShopDb = false;

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  if (usingShopDb) {
    await disconnectDb();
    await connectDb(process.env.MONGODB_URI!);
  }
  // An embedded database exits once its shop is gone (its standard input closes).
  for (const mount of mounts)
    for (let i = 0; i < 50 && spawnSync("umount", [mount]).status !== 0; i++) await sleep(100);
  rmSync(work, { recursive: true, force: true });
});

/** A tmpfs of the test's own (root can mount one: the suite runs as root in CI); false when it cannot. */
function mountTmpfs(name: string, options: string) {
  const where = path.join(work, name);
  mkdirSync(where);
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", where]).status === 0;
  if (ok) mounts.push(where);
  return ok ? where : null;
}
const readOnly = mountTmpfs("read-only", "ro,size=1m");
const small = mountTmpfs("small", "size=40m");

/** A database address nothing listens on: a start refused before it connects never gets there. */
const NOWHERE = "mongodb://127.0.0.1:9/shop-never";

async function refusedStart(mongoUri: string | null, env: Record<string, string>) {
  const shop = await spawnShop(mongoUri, env);
  shops.push(shop);
  const exit = await shop.exited;
  expect(exit.code, shop.output()).toBe(1);
  return { stderr: shop.stderr().split("\n").filter(Boolean), output: shop.output().split("\n").filter(Boolean) };
}

describe("what stops the start is one line", () => {
  test("invalid settings: every one named, on one line", async () => {
    const { output } = await refusedStart(NOWHERE, { LOG_LEVEL: "loud", DB_TIMEOUT_MS: "5" });
    expect(output, output.join("\n")).toHaveLength(1);
    expect(output[0]).toMatch(/^Cannot start: invalid settings: LOG_LEVEL: .+; DB_TIMEOUT_MS: .+$/);
  }, 30_000);

  test("production on a real database without SESSION_SECRET: one line", async () => {
    const { output } = await refusedStart(NOWHERE, { SESSION_SECRET: "" });
    expect(output, output.join("\n")).toHaveLength(1);
    expect(output[0]).toMatch(/^Cannot start: invalid settings: SESSION_SECRET: required in production/);
  }, 30_000);

  test.skipIf(!readOnly)(
    "a fresh read-only data directory without SESSION_SECRET: one line naming why",
    async () => {
      const { output } = await refusedStart(null, { DATA_DIR: path.join(readOnly!, "data"), SESSION_SECRET: "" });
      expect(output, output.join("\n")).toHaveLength(1);
      expect(output[0]).toMatch(/^Cannot start: the data directory .*\/read-only\/data cannot be written \(EROFS\)$/);
    },
    30_000,
  );

  test.skipIf(!small)(
    "a 40 MB disk: one line naming the 64 MB margin and the setting that sets it",
    async () => {
      // LOCAL_DB_MIN_FREE_MB empty: its default.
      const { stderr, output } = await refusedStart(null, {
        DATA_DIR: path.join(small!, "data"),
        LOCAL_DB_MIN_FREE_MB: "",
      });
      expect(stderr, output.join("\n")).toHaveLength(1);
      expect(stderr[0]).toMatch(
        /^Cannot start: the database's disk is full: less than 64 MB free for the database file in .*\/small\/data\/db, the margin the embedded database keeps \(LOCAL_DB_MIN_FREE_MB, 64 by default\)$/,
      );
      // Standard output has the database's start, as JSON.
      for (const line of output.filter((each) => each !== stderr[0]))
        expect(() => JSON.parse(line), line).not.toThrow();
    },
    90_000,
  );
});

/** A child of this test process whose arguments include `argument` (the database it is starting). */
function childWith(argument: string) {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (parentOf(Number(entry)) !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(argument)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

test("a database killed while it starts: the error names the signal, not exit null", async () => {
  const dataFile = path.join(work, "killed-starting", "db.mv");
  const starting = startLocalDb({ dataFile, database: "shop-killed" });
  let pid: number | undefined;
  for (let i = 0; i < 3000 && !pid; i++) {
    pid = childWith(dataFile);
    if (!pid) await sleep(10);
  }
  expect(pid).toBeDefined();
  process.kill(pid!, "SIGKILL");
  await expect(starting).rejects.toThrow(/^the local database was killed by SIGKILL before it was ready/);
}, 60_000);

describe("a database killed five times while orders come in", () => {
  let shop: ShopProcess;
  beforeAll(async () => {
    shop = await spawnShop(null, {
      DATA_DIR: path.join(work, "kills", "data"),
      LOG_LEVEL: "info",
      // The sweeps and jobs run often, so that some of them meet the database away.
      STOCK_SWEEP_SECONDS: "1",
      MAIL_SWEEP_MS: "1000",
      JOBS_POLL_MS: "200",
    });
    shops.push(shop);
    await waitHealthy(shop, 90_000);
  }, 120_000);

  test("JSON lines only, the known faults without a stack, and 503 pages titled for what happened", async () => {
    const { uri } = localDbOf(shop);
    await disconnectDb();
    usingShopDb = true;
    await connectDb(uri);
    const part = await createPart({ availableQuantity: 100_000, minOrderQuantity: 1 });
    const buyer = await createUser({ name: "Outage Buyer" });
    const cookie = await sessionCookieHeader(buyer.id);
    // The test's own connection stays off the database being killed.
    await disconnectDb();
    const origin = `http://localhost:${shop.port}`;

    const titles = new Set<string>();
    const statuses: Record<number, number> = {};
    let stop = false;
    const note = (status: number, body: string) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 503 && body.includes("<title>")) titles.add(titleOf(body));
    };
    const traffic = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const page = await fetch(`${shop.url}/parts/${part.id}`, { headers: { Cookie: cookie } });
          note(page.status, await page.text());
          const placed = await postForm(
            `${shop.url}/parts/${part.id}`,
            { quantity: "1", phone: "555-0100", ...addressForm({ ...DETROIT, line1: `${n}-${i} Outage Road` }) },
            { cookie, origin },
          );
          note(placed.status, placed.body);
          const missing = await fetch(`${shop.url}/no-such-page`);
          note(missing.status, await missing.text());
        } catch {
          // a connection the shop closed: the next round goes on
        }
        await sleep(20);
      }
    };
    const running = [traffic(1), traffic(2)];
    const health = async () => (await fetch(`${shop.url}/healthz`).catch(() => null))?.status ?? 0;
    for (let kill = 0; kill < 5; kill++) {
      await expect.poll(health, { timeout: 45_000, interval: 200 }).toBe(200);
      await sleep(1500);
      process.kill(localDbOf(shop).pid, "SIGKILL");
      await expect.poll(health, { timeout: 5000, interval: 50 }).toBe(503);
    }
    await expect.poll(health, { timeout: 45_000, interval: 200 }).toBe(200);
    await sleep(2000);
    stop = true;
    await Promise.all(running);

    expect(shop.child.exitCode).toBeNull();
    expect(statuses[503], JSON.stringify(statuses)).toBeGreaterThan(0);
    // Pages that answered 503 say the shop will be right back: never "Part not found" or "Page not found".
    expect([...titles]).toEqual(["We'll be right back — PartsWorks"]);

    const { json, notJson } = linesSinceReady(shop);
    expect(notJson).toEqual([]);
    // A fault the shop knows is named, on one line, without a stack; nothing was left unhandled.
    const faults = json.filter((line) => "fault" in line);
    for (const line of faults) {
      expect(line.err, JSON.stringify(line)).toBeUndefined();
      expect(String(line.error)).not.toContain("\n");
    }
    const withStack = json.filter((line) => JSON.stringify(line).includes("\\n    at "));
    expect(withStack.map((line) => line.msg)).toEqual([]);
    expect(json.filter((line) => line.msg === "unhandled rejection")).toEqual([]);
    // Each outage is said, and each restart of the database.
    expect(json.filter((line) => String(line.msg).startsWith("database unreachable")).length).toBeGreaterThanOrEqual(5);
    expect(json.filter((line) => String(line.msg).startsWith("Local database running again"))).toHaveLength(5);
  }, 240_000);
});
