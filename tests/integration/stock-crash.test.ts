/**
 * A shop killed (SIGKILL) in the middle of 50 concurrent cart checkouts of several lines loses no
 * stock and empties no cart for nothing: after a restart, the stock sweep finishes or undoes every
 * order left half placed, and for every part available + held by live orders = the stock before.
 * The shop is this test's own, on the file's own database (tests/setup/vitest.setup.ts), started
 * with a short reserve deadline and sweep interval; only processes started here are killed. The
 * kill comes 60, 120 and 180 ms after the first order of the burst reaches the database. The shop
 * started after a kill, once it has settled that round, is the next round's shop in service (a start
 * costs more than a round's checks, and it is as much a shop in service as a fresh one).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { authSessionStorage } from "~/services/session-cookie.server";
import { freePort } from "../../server/local-db";
import { DELIVERY_FORM } from "../fixtures/addresses";

const buildDir = process.env.BUILD_DIR ?? "build";
const CHECKOUTS = 50;
const PARTS = 8;
const STOCK = 100_000;

const db = { uri: process.env.MONGODB_URI! };
let connection: mongoose.Connection;
let dataDir: string;
const shops: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "shop-crash-test-"));
  connection = await mongoose.createConnection(db.uri).asPromise();
});

afterAll(async () => {
  for (const shop of shops) if (shop.exitCode === null && shop.signalCode === null) shop.kill("SIGKILL");
  await connection?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function startShop(port: number) {
  const child = spawn("node", [path.join(buildDir, "server.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      MONGODB_URI: db.uri,
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Shortened for the test: an order left reserving for 1 s is the sweep's, which runs every second.
      STOCK_RESERVE_DEADLINE_SECONDS: "1",
      STOCK_SWEEP_SECONDS: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  shops.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(async () => {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) {
          clearInterval(timer);
          resolve();
        }
      } catch {
        // not listening yet
      }
    }, 100);
    child.once("exit", (code, signal) => {
      clearInterval(timer);
      reject(new Error(`shop exited ${code ?? signal}: ${output}`));
    });
  });
  return { child, ready, output: () => output };
}

/** The last round's shop after the kill: the next round's, while it runs. */
let inService: { shop: ReturnType<typeof startShop>; port: number } | undefined;

async function shopInService() {
  const kept = inService;
  inService = undefined;
  if (kept && kept.shop.child.exitCode === null && kept.shop.child.signalCode === null) return kept;
  const port = await freePort();
  const shop = startShop(port);
  await shop.ready;
  return { shop, port };
}

const kill = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

async function cookieFor(userId: mongoose.Types.ObjectId) {
  const sessionId = randomBytes(32).toString("base64url");
  await connection.collection("sessions").insertOne({
    _id: sessionId as unknown as mongoose.Types.ObjectId,
    userId,
    expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const session = await authSessionStorage.getSession();
  session.set("sessionId", sessionId);
  return (await authSessionStorage.commitSession(session)).split(";")[0];
}

/** A round's own parts and 50 customers, each with a cart of 2 to 4 of those parts. */
async function seedRound(round: string) {
  const now = new Date();
  const parts = Array.from({ length: PARTS }, (_, i) => ({
    _id: new mongoose.Types.ObjectId(),
    name: `Crash ${round} part ${i}`,
    partNumber: `CR-${round}-${i}`,
    description: "A part for the crash test.",
    img: "/images/parts/pw-1001.svg",
    priceCents: 100 + i,
    minOrderQuantity: 10,
    availableQuantity: STOCK,
    onHand: STOCK,
    category: "other",
    brand: "PartsWorks",
    createdAt: now,
    updatedAt: now,
  }));
  await connection.collection("parts").insertMany(parts);
  const customers = [];
  for (let i = 0; i < CHECKOUTS; i++) {
    const userId = new mongoose.Types.ObjectId();
    await connection.collection("users").insertOne({
      _id: userId,
      email: `crash-${round}-${i}@example.com`,
      name: `Crash Customer ${i}`,
      role: "customer",
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const count = 2 + (i % 3);
    const lines = Array.from({ length: count }, (_, k) => ({
      partId: parts[(i + k * 3) % PARTS]._id,
      quantity: 10 + ((i * 7 + k * 13) % 90),
    }));
    await connection
      .collection("carts")
      .insertOne({ userId, lines, notices: [], version: 0, createdAt: now, updatedAt: now });
    customers.push({ userId, cookie: await cookieFor(userId) });
  }
  return { parts, customers };
}

function checkout(port: number, cookie: string) {
  const body = new URLSearchParams({ intent: "checkout", phone: "+1 555 0100", ...DELIVERY_FORM });
  return fetch(`http://127.0.0.1:${port}/dashboard/cart`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: {
      Cookie: cookie,
      Origin: `http://127.0.0.1:${port}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
  }).then(
    (response) => response.status,
    () => "killed" as const,
  );
}

async function settled(partIds: mongoose.Types.ObjectId[], userIds: mongoose.Types.ObjectId[]) {
  const orders = connection.collection("orders");
  const left = await orders.countDocuments({ userId: { $in: userIds }, status: { $in: ["reserving", "failed"] } });
  const claimed = await connection
    .collection("carts")
    .countDocuments({ userId: { $in: userIds }, checkout: { $exists: true, $ne: null } });
  const pending = await orders.countDocuments({ "lines.partId": { $in: partIds }, stockPending: { $exists: true } });
  return left + claimed + pending === 0;
}

describe("a shop killed during checkouts", () => {
  for (const delay of (process.env.CRASH_DELAYS ?? "60,120,180").split(",").map(Number)) {
    test(`SIGKILL ${delay} ms into 50 concurrent checkouts leaves no unit held for no one and no cart emptied without its order`, async () => {
      const round = `${delay}`;
      const { parts, customers } = await seedRound(round);
      const { shop: first, port } = await shopInService();
      // Warm: the cart's route module loaded and the database pool open, as on a shop in service.
      for (const customer of customers.slice(0, 3)) {
        const page = await fetch(`http://127.0.0.1:${port}/dashboard/cart`, { headers: { Cookie: customer.cookie } });
        expect(page.status).toBe(200);
      }

      const userIds = customers.map((customer) => customer.userId);
      const results = customers.map(({ cookie }) => checkout(port, cookie));
      // The delay counts from the first order written, so the kill lands among the checkouts
      // however fast this machine is today (on a busy one, 50 checkouts take seconds).
      const orders = connection.collection("orders");
      while (!(await orders.findOne({ userId: { $in: userIds } }, { projection: { _id: 1 } }))) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      await kill(first.child);
      const statuses = await Promise.all(results);
      if (process.env.CRASH_DEBUG) console.log(first.output());
      // What the kill left: orders half placed, carts claimed for an order.
      const leftBehind = await orders.find({ userId: { $in: userIds } }, { projection: { status: 1 } }).toArray();

      const second = startShop(port);
      await second.ready;
      const partIds = parts.map((part) => part._id);
      // The sweep runs every second and takes orders left for 1 s: well within the wait.
      const deadline = Date.now() + 20_000;
      while (!(await settled(partIds, userIds)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(await settled(partIds, userIds)).toBe(true);
      inService = { shop: second, port };

      // The kill interrupted checkouts: some never got their answer.
      expect(statuses.filter((status) => status === "killed").length).toBeGreaterThan(0);
      const placed = await orders.find({ userId: { $in: userIds } }).toArray();
      // Every order left is a whole, live order (none half placed), and one per customer at most.
      expect(placed.every((order) => order.status === "unpaid")).toBe(true);
      expect(new Set(placed.map((order) => String(order.userId))).size).toBe(placed.length);
      const held = new Map<string, number>();
      for (const order of placed) {
        for (const line of order.lines)
          held.set(String(line.partId), (held.get(String(line.partId)) ?? 0) + line.quantity);
      }
      const stored = await connection
        .collection("parts")
        .find({ _id: { $in: partIds } })
        .toArray();
      for (const part of stored) {
        expect(part.availableQuantity + (held.get(String(part._id)) ?? 0)).toBe(STOCK);
        expect(part.onHand).toBe(STOCK);
        // Each hold on the part belongs to a live order, with its line's units.
        for (const hold of part.holds ?? []) {
          const order = placed.find((o) => String(o._id) === String(hold.orderId));
          expect(
            order?.lines.find((line: { partId: unknown }) => String(line.partId) === String(part._id))?.quantity,
          ).toBe(hold.quantity);
        }
      }
      // An emptied cart has its order; a cart with its lines has none.
      const carts = await connection
        .collection("carts")
        .find({ userId: { $in: userIds } })
        .toArray();
      const ordered = new Set(placed.map((order) => String(order.userId)));
      for (const cart of carts) expect(cart.lines.length === 0).toBe(ordered.has(String(cart.userId)));
      // A checkout answered before the kill with its redirect has its order.
      customers.forEach((customer, i) => {
        if (statuses[i] === 302) expect(ordered.has(String(customer.userId))).toBe(true);
      });
      const count = (values: unknown[]) =>
        Object.entries(
          values.reduce<Record<string, number>>((all, v) => ({ ...all, [String(v)]: (all[String(v)] ?? 0) + 1 }), {}),
        )
          .map(([value, n]) => `${n} ${value}`)
          .join(", ");
      console.log(
        `SIGKILL at ${delay} ms: answers ${count(statuses)}; orders at the kill ${count(leftBehind.map((o) => o.status))}; ` +
          `${placed.length} orders after the sweep`,
      );
    }, 90_000);
  }
});
