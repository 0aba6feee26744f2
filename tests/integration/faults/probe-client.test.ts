/**
 * The heartbeat's own client (connectDb's stallMs, probeDb), against a real local database: one whose
 * very first ping finds the database away (killed before the probe ever connected) answers again once
 * the database is back, with no restart. The driver keeps such a client closed for good, so without
 * a new client the shop would answer 503 until restarted (tests/integration/faults/local-db-heals.test.ts
 * sees it through a whole shop when the database is killed just after the start).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { connectDb, disconnectDb, probeDb } from "~/services/db.server";
import { ownDatabase } from "./fault-helpers";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-probe-"));
let db: Awaited<ReturnType<typeof ownDatabase>>;

beforeAll(async () => {
  db = await ownDatabase(work);
}, 60_000);

afterAll(async () => {
  await db?.restore();
  rmSync(work, { recursive: true, force: true });
});

test("a probe whose first ping finds the database away answers again once it is back", async () => {
  await disconnectDb();
  await connectDb(db.uri, { stallMs: 800 });
  // The probe client connects with its first ping: that ping finds nothing listening.
  db.kill();
  await expect.poll(() => probeDb(), { timeout: 10_000, interval: 200 }).toBe(false);
  expect(await probeDb()).toBe(false);

  await db.restart();
  await expect.poll(() => probeDb(), { timeout: 20_000, interval: 200 }).toBe(true);
}, 60_000);
