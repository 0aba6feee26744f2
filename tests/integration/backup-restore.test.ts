/**
 * npm run backup while the shop takes orders, then npm run restore into a wiped database: every
 * order acknowledged before the backup began is back, and what is restored is one instant of the
 * shop: the stock check finds nothing (no order without its holds, no hold without its order) and
 * no order is numbered past the order counter. Read collection by collection instead (5,000 sent
 * mails between the orders and the parts), the same run failed the stock check in 3 of 3 trials.
 * The shop is this file's own, started as `npm start` runs without MONGODB_URI: on its own local
 * database under a throwaway DATA_DIR, with the demo data. Orders go through HTTP on 127.0.0.1;
 * only processes started here are stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectDb, disconnectDb } from "~/services/db.server";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { ORDER_NUMBER_BASE } from "~/domain/order-number";
import { Counter } from "~/models/counter.server";
import { Order } from "~/orders/model/schema.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { checkLedger, postLedgerLeft } from "~/orders/ledger.server";
import { freePort, startLocalDb, type LocalDb } from "../../server/local-db";
import { ownerOf } from "../../scripts/backup/local-server";
import { DELIVERY_FORM } from "../fixtures/addresses";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { tsxCommand } from "../setup/tsx-command";

const buildDir = process.env.BUILD_DIR ?? "build";
const work = mkdtempSync(path.join(tmpdir(), "shop-backup-test-"));
const dataDir = path.join(work, "data");
const dataFile = path.join(dataDir, "db", "shop.mv");
const backupFile = path.join(work, "shop.jsonl.gz");
// Orders the copy caught half placed count as being placed (the check leaves them to the sweep) for
// this long: well beyond the seconds between the backup and the check on a busy machine.
const RESERVE_SECONDS = 120;
const HISTORY_MAILS = 5_000;

const children: ChildProcess[] = [];
let testDb: LocalDb | undefined;

/** The environment of npm start and of the scripts on the local database: no MONGODB_URI, no mail server. */
function localEnv(extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
  for (const name of ["MONGODB_URI", "SMTP_URL", "STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "GOOGLE_CLIENT_ID"])
    delete env[name];
  return env;
}

/** Runs a script as npm run would (one process, tsx's loader); its exit code and all it printed. */
function runScript(file: string, args: string[] = []) {
  const [command, commandArgs] = tsxCommand(file, args);
  const child = spawn(command, commandArgs, { env: localEnv(), stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, output: output.trim() })),
  );
}

async function startShop() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn("node", [path.join(buildDir, "server.js")], {
    env: localEnv({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      SESSION_SECRET: process.env.SESSION_SECRET!,
      STOCK_RESERVE_DEADLINE_SECONDS: String(RESERVE_SECONDS),
      SHUTDOWN_DELAY_MS: "0",
      LOG_LEVEL: "warn",
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  child.stderr!.on("data", (chunk) => (output = (output + chunk).slice(-4000)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) throw new Error(`the shop did not start: ${output}`);
    const health = await fetch(`${url}/healthz`).catch(() => null);
    if (health?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, stop };
}

function post(url: string, fields: Record<string, string>, cookie: string) {
  return fetch(`${url}/dashboard/cart`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url, Cookie: cookie },
    body: new URLSearchParams(fields),
  });
}

/** A customer's orders one after another until `running()` says stop: two lines each, through the cart. */
async function placeOrders(url: string, cookie: string, partIds: string[], running: () => boolean, acks: Ack[]) {
  while (running()) {
    for (const partId of partIds) {
      const added = await post(url, { intent: "add", partId, quantity: "5", redirectTo: "/dashboard/cart" }, cookie);
      expect(added.status).toBe(302);
    }
    const placed = await post(url, { intent: "checkout", phone: "+1 555 0100", ...DELIVERY_FORM }, cookie);
    const id = /^\/dashboard\/payment\/([a-f0-9]{24})$/.exec(placed.headers.get("location") ?? "")?.[1];
    if (!id) {
      const errors = [...(await placed.text()).matchAll(/<li>([^<]*)<\/li>/g)].map(([, text]) => text);
      throw new Error(`checkout answered ${placed.status}: ${errors.join("; ")}`);
    }
    acks.push({ id, at: Date.now(), cookie });
  }
}

type Ack = { id: string; at: number; cookie: string };

beforeAll(async () => {
  // This file works on databases of its own: the one the suite made for it is not needed.
  await mongoose.connection.dropDatabase();
  await disconnectDb();
}, 60_000);

afterAll(async () => {
  await disconnectDb();
  await testDb?.stop();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

describe("npm run backup and npm run restore", () => {
  test("a backup taken while orders are placed restores every order acknowledged before it, with stock that adds up", async () => {
    const shop = await startShop();
    const server = ownerOf(dataFile);
    expect(server, "the shop's local database").toBeTruthy();
    await connectDb(`mongodb://127.0.0.1:${server!.port}/shop`);
    expect(await mongoose.connection.collection("parts").countDocuments()).toBeGreaterThan(10); // the demo data

    // A shop with a history: mail sent before. A backup that read the collections one after another
    // would read these between the orders and the parts, while orders go on being placed.
    const sentAt = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    for (let batch = 0; batch < HISTORY_MAILS / 1000; batch++)
      await mongoose.connection.collection("outboxes").insertMany(
        Array.from({ length: 1000 }, (_, i) => ({
          _id: `history-${batch}-${i}` as unknown as mongoose.Types.ObjectId,
          to: `customer-${i}@example.com`,
          subject: "Your order has shipped",
          html: `<p>${"Your parts are on their way. ".repeat(40)}</p>`,
          text: "Your parts are on their way. ".repeat(40),
          status: "sent",
          attempts: 1,
          createdAt: sentAt,
          updatedAt: sentAt,
        })),
      );
    const parts = await Promise.all(
      [1, 2].map(() => createPart({ availableQuantity: 10_000_000, minOrderQuantity: 5 })),
    );
    const customers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const user = await createUser();
        expect(await setUnpaidCaps(user.id, { orders: 10_000, valueCents: 1e12 })).toBeTruthy();
        return sessionCookieHeader(user.id);
      }),
    );
    const acks: Ack[] = [];
    let running = true;
    let failure: unknown;
    const buyers = customers.map((cookie) =>
      placeOrders(
        shop.url,
        cookie,
        parts.map((part) => part.id),
        () => running,
        acks,
      ).catch((error) => (failure ??= error)),
    );
    while (acks.length < 12 && !failure) await new Promise((resolve) => setTimeout(resolve, 50));

    const backupStarted = Date.now();
    const backup = await runScript("scripts/backup/backup.ts", [backupFile]);
    const backupEnded = Date.now();
    running = false;
    await Promise.all(buyers);
    if (failure) throw failure;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^Backed up "shop": \d+ documents in \d+ collections to .* paused \d+ ms/);
    const before = acks.filter((ack) => ack.at < backupStarted);
    const during = acks.filter((ack) => ack.at >= backupStarted && ack.at <= backupEnded);
    // Orders were acknowledged while the backup ran: the shop kept taking them.
    expect(during.length).toBeGreaterThan(0);

    await disconnectDb();
    await shop.stop();
    rmSync(path.join(dataDir, "db"), { recursive: true, force: true });

    const restored = await runScript("scripts/backup/restore.ts", [backupFile]);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/^Restored \d+ documents in \d+ collections into "shop"/);
    // A database that holds data is replaced only when asked to.
    const again = await runScript("scripts/backup/restore.ts", [backupFile]);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/^Not restored: the database "shop" in .* holds \d+ documents; add --force/);
    expect(again.output).not.toContain("\n");
    const forced = await runScript("scripts/backup/restore.ts", [backupFile, "--force"]);
    expect(forced.code, forced.output).toBe(0);
    expect(forced.output).toMatch(/^Restored \d+ documents/);

    testDb = await startLocalDb({ dataFile });
    await connectDb(testDb.uri);
    const checked = await checkStock({ settleMs: RESERVE_SECONDS * 1000 });
    expect(checked.problems).toEqual([]);
    expect(checked.parts).toBeGreaterThan(10);
    // The ledger as the restored shop's first sweep leaves it: every money event of every order posted once.
    await postLedgerLeft();
    expect((await checkLedger()).problems).toEqual([]);
    const found = new Set(
      (await Order.find({ _id: { $in: acks.map((ack) => ack.id) } }, { _id: 1 }).lean()).map((order) =>
        String(order._id),
      ),
    );
    expect(before.filter((ack) => !found.has(ack.id))).toEqual([]);
    // The order-number counter moves on before its order is written: at one instant no order has a number past it.
    const [newest] = await Order.find({}, { number: 1 }).sort({ number: -1 }).limit(1).lean();
    const counter = await Counter.findById("order").lean();
    expect(newest.number).toBeLessThanOrEqual(ORDER_NUMBER_BASE + counter!.seq);
    console.log(
      `${before.length} orders acknowledged before the backup, ${during.length} while it ran, ${acks.length} in all; ` +
        `${found.size} restored. ${backup.output.replace(/ to \S+/, "").replace(/ Restore:.*/, "")}`,
    );
    await disconnectDb();
    await testDb.stop();
    testDb = undefined;

    // The shop runs on what was restored: a session of the backup still signs its customer in to the order.
    const restarted = await startShop();
    const last = before[before.length - 1];
    const page = await fetch(`${restarted.url}/dashboard/orders/${last.id}`, {
      headers: { Cookie: last.cookie },
      redirect: "manual",
    });
    expect(page.status).toBe(200);
    await restarted.stop();
  }, 240_000);

  test("bad input gets one line and a non-zero exit: a missing file, not a backup, the backup above cut off", async () => {
    const notBackup = path.join(work, "notes.txt");
    writeFileSync(notBackup, "hello\n");
    const cutOff = path.join(work, "cut.jsonl.gz");
    const whole = readFileSync(backupFile);
    writeFileSync(cutOff, whole.subarray(0, Math.floor(whole.length / 2)));
    const cases: [string[], RegExp][] = [
      [[path.join(work, "missing.jsonl.gz")], /does not exist/],
      [[notBackup], /is not a gzip file of npm run backup/],
      [[cutOff], /not a gzip file of npm run backup, or it is damaged|cut off/],
      [[], /^Usage: npm run restore -- <file> \[--force\]$/],
    ];
    for (const [args, message] of cases) {
      const result = await runScript("scripts/backup/restore.ts", args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.output).toMatch(message);
      expect(result.output).not.toContain("\n");
    }
  }, 60_000);
});
