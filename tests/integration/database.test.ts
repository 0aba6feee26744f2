import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { afterAll, describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { holdStock } from "~/models/stock-holds.server";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { freePort, startLocalDb } from "../../server/local-db";
import { createPart, createUser } from "../setup/factories";
import { logLinesOf } from "../setup/shop-log";

const buildDir = process.env.BUILD_DIR ?? "build";
const temp: string[] = [];
const shops: ChildProcess[] = [];
afterAll(() => {
  // A failed assertion must not leave a shop (and its database) running.
  for (const shop of shops) if (shop.exitCode === null) shop.kill("SIGKILL");
  temp.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "shop-db-test-"));
  temp.push(dir);
  return dir;
}

describe("the local database", () => {
  test("50 concurrent orders for a part with stock for 20 yield exactly 20 orders and stock 0", async () => {
    const part = await createPart({ availableQuantity: 20, minOrderQuantity: 1 });
    const customer = await createUser();
    const attempts = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const orderId = new mongoose.Types.ObjectId();
        const reserved = await holdStock(part.id, orderId.toString(), 1);
        if (!reserved) return false;
        await Order.create({
          _id: orderId,
          lines: [
            {
              partId: part.id,
              partNumber: part.partNumber,
              productName: part.name,
              unitPriceCents: part.priceCents,
              quantity: 1,
              lineTotalCents: part.priceCents,
            },
          ],
          totalCents: part.priceCents,
          phone: "555-0100",
          address: "1 Test Street",
          userId: customer.id,
          userEmail: customer.email,
          userName: customer.name,
        });
        return true;
      }),
    );
    expect(attempts.filter(Boolean)).toHaveLength(20);
    expect(await Order.countDocuments({ "lines.partId": part.id })).toBe(20);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(0);
  });

  test("expired sessions are removed by a TTL index, also where an older index on expiresAt had none", async () => {
    const connection = await mongoose
      .createConnection(process.env.MONGODB_URI!.replace(/\/[^/]*$/, "/ttl-upgrade"))
      .asPromise();
    const sessions = connection.collection("sessions");
    await sessions.createIndex({ expiresAt: 1 });
    const model = connection.model("Session", Session.schema);
    await model.syncIndexes();
    const ttl = (await sessions.indexes()).find((index) => index.key.expiresAt === 1);
    expect(ttl?.expireAfterSeconds).toBe(0);
    await connection.dropDatabase();
    await connection.close();
    expect((await Session.collection.indexes()).find((index) => index.key.expiresAt === 1)?.expireAfterSeconds).toBe(0);
  });

  test("Mongoose builds the indexes, and the unique email index refuses a duplicate", async () => {
    const indexes = await User.collection.indexes();
    expect(indexes.find((index) => index.key.email === 1)?.unique).toBe(true);
    const user = await createUser();
    await expect(User.create({ email: user.email, name: "Copy" })).rejects.toMatchObject({ code: 11000 });
    await expect(User.create({ email: user.email.toUpperCase(), name: "Copy" })).rejects.toMatchObject({
      code: 11000,
    });
    expect(await User.countDocuments({ email: user.email })).toBe(1);
  });

  test("data survives a restart of the database server", async () => {
    const dataFile = path.join(tempDir(), "db.mv");
    const first = await startLocalDb({ dataFile, database: "restart" });
    const connection = await mongoose.createConnection(first.uri).asPromise();
    await connection.collection("things").insertOne({ name: "kept" });
    await connection.close();
    await first.stop();

    const second = await startLocalDb({ dataFile, database: "restart" });
    const again = await mongoose.createConnection(second.uri).asPromise();
    expect(await again.collection("things").findOne({ name: "kept" })).toMatchObject({ name: "kept" });
    await again.close();
    await second.stop();
  });
});

describe("the shop server", () => {
  function startShop(env: Record<string, string>) {
    const child = spawn("node", [path.join(buildDir, "server.js")], {
      env: { ...process.env, NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    shops.push(child);
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes("Shop ready")) {
          clearInterval(timer);
          resolve();
        }
      }, 100);
      child.once("exit", (code) => {
        clearInterval(timer);
        reject(new Error(`shop exited ${code}: ${output}`));
      });
    });
    return { child, ready, output: () => output };
  }

  function stop(child: ChildProcess) {
    return new Promise<number | null>((resolve) => {
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  }

  test("without MONGODB_URI it starts its own database, seeds it, and keeps data across restarts", async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, MONGODB_URI: "", SESSION_SECRET: "", SMTP_URL: "" };

    const first = startShop(env);
    await first.ready;
    // A local demo: its own mail catcher too.
    expect(first.output()).toContain("SMTP_URL is unset: mail is caught locally, read it at");
    const uri = first.output().match(/mongodb:\/\/127\.0\.0\.1:\d+\/shop/)?.[0];
    expect(uri).toBeTruthy();
    const connection = await mongoose.createConnection(uri!).asPromise();
    expect(await connection.collection("parts").countDocuments()).toBeGreaterThanOrEqual(12);
    await connection.collection("parts").insertOne({
      name: "Restart-Proof Gasket",
      partNumber: "RPG-1",
      description: "Written before a restart.",
      img: "/images/parts/pw-1001.svg",
      priceCents: 100,
      minOrderQuantity: 100,
      availableQuantity: 500,
      createdAt: new Date(Date.now() + 60_000),
      updatedAt: new Date(),
    });
    await connection.close();
    // A graceful stop: finishes requests, closes the database, exits 0.
    expect(await stop(first.child)).toBe(0);

    const second = startShop(env);
    await second.ready;
    const home = await fetch(`http://localhost:${port}/`);
    expect(await home.text()).toContain("Restart-Proof Gasket");
    expect(second.output()).toContain("admin@partsworks.test");
    expect(await stop(second.child)).toBe(0);
  }, 90_000);

  test("GET /healthz is 200 while the database answers and 503 when it does not", async () => {
    const db = await startLocalDb({ dataFile: path.join(tempDir(), "db.mv") });
    const port = await freePort();
    const shop = startShop({ PORT: String(port), MONGODB_URI: db.uri, DATA_DIR: tempDir() });
    await shop.ready;
    const healthy = await fetch(`http://localhost:${port}/healthz`);
    expect(healthy.status).toBe(200);
    await db.stop();
    const down = await fetch(`http://localhost:${port}/healthz`);
    expect(down.status).toBe(503);

    // A page that needs the database answers 503 with the error page at once (not after the
    // driver's timeouts), which names the request so a customer can quote it, and says when to
    // come back; the server's log says once that the database is away (tests/integration/faults).
    const page = await fetch(`http://localhost:${port}/parts`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    const requestId = page.headers.get("x-request-id")!;
    const html = await page.text();
    expect(html).toContain("We&#x27;ll be right back");
    expect(html).toContain(requestId);
    expect(html).not.toMatch(/at \S+ \(.*:\d+:\d+\)/); // no stack trace for the visitor
    // The request's own line is written when the response ends, a moment after the body arrives.
    const logged = () => logLinesOf(requestId, shop.output());
    await expect.poll(() => logged().some((line) => line.res?.status === 503)).toBe(true);
    expect(shop.output()).toContain("database unreachable");
    await stop(shop.child);
  }, 90_000);

  test("refuses to start on bad environment variables, with one line naming each", async () => {
    const shop = startShop({
      PORT: "not-a-port",
      STRIPE_SECRET_KEY: "pk_wrong_kind",
      MONGODB_URI: "postgres://nope",
      LOG_LEVEL: "chatty",
      LOGIN_FAILS_PER_EMAIL_AND_IP: "0",
      SIGNUPS_PER_IP_PER_HOUR: "lots",
      CHROME_PATH: "chromium",
    });
    await expect(shop.ready).rejects.toThrow(/exited 1/);
    // One line, never a stack: every setting named in it.
    const lines = shop.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start: invalid settings: /);
    for (const name of ["PORT", "LOG_LEVEL", "LOGIN_FAILS_PER_EMAIL_AND_IP", "SIGNUPS_PER_IP_PER_HOUR"])
      expect(lines[0]).toMatch(new RegExp(`[:;] ${name}: `));
    expect(lines[0]).toContain("STRIPE_SECRET_KEY: must start with sk_");
    expect(lines[0]).toContain("MONGODB_URI: must start with mongodb:// or mongodb+srv://");
    expect(lines[0]).toContain("CHROME_PATH: must be an absolute path such as /usr/bin/chromium");
  });

  test("refuses to start in production on a real database without SESSION_SECRET or SMTP_URL", async () => {
    const shop = startShop({
      PORT: String(await freePort()),
      MONGODB_URI: process.env.MONGODB_URI!,
      SESSION_SECRET: "",
      SMTP_URL: "",
    });
    await expect(shop.ready).rejects.toThrow(/exited 1/);
    const lines = shop.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("SESSION_SECRET: required in production (at least 32 random characters)");
    expect(lines[0]).toContain(
      "SMTP_URL: required in production (the SMTP server mail goes through, smtp:// or smtps://)",
    );
    // Mail is never caught (and lost) in place of a real server.
    expect(shop.output()).not.toContain("Shop ready");
  });

  test("answers with security headers and no x-powered-by", async () => {
    const response = await fetch(`${process.env.SHOP_URL}/`);
    expect(response.headers.get("x-powered-by")).toBeNull();
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });
});
