/**
 * What the fault tests share: a counting SMTP server that can hang, keep-alive form posts, and a
 * shop process started on a database of the test's choice. Every process here is started by the
 * test itself and acted on by its pid only; all traffic goes to 127.0.0.1.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser } from "mailparser";
import mongoose from "mongoose";
import { SMTPServer } from "smtp-server";
import { freePort, stablePort } from "../../../server/local-db";

/** A free port below Linux's ephemeral range (server/local-db.ts), for the fault tests' databases and receivers. */
export { stablePort };

export type Delivery = { to: string; subject: string; messageId: string };

/**
 * An SMTP server that counts what it accepted. While `hang` is on it takes the message's data and
 * never answers, as a stalled mail server does; a message it never acknowledged is not counted.
 */
export async function startCountingSmtp() {
  const delivered: Delivery[] = [];
  const state = { hang: false, hungAt: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      if (state.hang) {
        state.hungAt++;
        stream.resume(); // read it all, answer never
        return;
      }
      void simpleParser(stream).then(
        (mail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(", ") : (mail.to?.text ?? "");
          delivered.push({ to: to.toLowerCase(), subject: mail.subject ?? "", messageId: mail.messageId ?? "" });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A shop killed in the middle of a message resets its connection: expected here, not a failure.
  server.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    state,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A POST of form fields over `agent` (keep-alive when the agent keeps connections). */
export function postForm(
  url: string,
  fields: Record<string, string>,
  { cookie = "", agent, origin }: { cookie?: string; agent?: http.Agent; origin: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const body = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Origin: origin,
          ...(cookie ? { Cookie: cookie } : {}),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export type ShopProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything it wrote, standard output and error. */
  output: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
};

/**
 * Starts the production server of the suite's build on `mongoUri` (no wait for health: a test
 * may start it before its database), or on its own embedded database when `mongoUri` is null
 * (give it a DATA_DIR). `env` adds or overrides settings.
 */
export async function spawnShop(mongoUri: string | null, env: Record<string, string> = {}): Promise<ShopProcess> {
  const buildDir = process.env.BUILD_DIR;
  if (!buildDir) throw new Error("BUILD_DIR is not set: run the tests through tests/harness.ts");
  const port = await freePort();
  const { MONGODB_URI: _suiteDatabase, ...inherited } = process.env;
  const child = spawn("node", [path.join(buildDir, "server.js")], {
    env: {
      ...inherited,
      NODE_ENV: "production",
      ...(mongoUri ? { MONGODB_URI: mongoUri } : {}),
      SESSION_SECRET: process.env.SESSION_SECRET ?? randomBytes(32).toString("hex"),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      BUILD_DIR: buildDir,
      LOG_LEVEL: "warn",
      // Production needs a mail server; a test that counts mail passes its own.
      SMTP_URL: process.env.SMTP_URL ?? "smtp://127.0.0.1:9",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    stderr: () => stderr,
    exited,
  };
}

/** Waits until /healthz answers 200 (or the process exits, or `timeoutMs` passes). */
export async function waitHealthy(shop: ShopProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (shop.child.exitCode !== null) throw new Error(`the shop exited (${shop.child.exitCode}):\n${shop.output()}`);
    try {
      if ((await fetch(`${shop.url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`the shop did not become healthy:\n${shop.output()}`);
}

/** SIGKILL for what is left of a shop a test started. */
export async function killShop(shop: ShopProcess | undefined) {
  if (!shop || shop.child.exitCode !== null || shop.child.signalCode !== null) return;
  shop.child.kill("SIGKILL");
  await shop.exited;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A database of the test's own (the suite's shop works the suite's jobs, and would send this
 * test's mail): a local database on a free port, and the test process's models pointed at it
 * until `restore`.
 */
export async function ownDatabase(work: string) {
  const { startLocalDb } = await import("../../../server/local-db");
  const { connectDb, disconnectDb } = await import("~/services/db.server");
  const dataFile = path.join(work, "db", "fault.mv");
  let db = await startLocalDb({ dataFile, database: "shop-fault", port: await stablePort() });
  await disconnectDb();
  await connectDb(db.uri);
  return {
    get uri() {
      return db.uri;
    },
    get pid() {
      return db.pid;
    },
    /** Starts it again on the same port and file (after a stop or a SIGKILL). */
    async restart() {
      db = await startLocalDb({ dataFile, database: "shop-fault", port: db.port });
    },
    stop: () => db.stop(),
    kill() {
      process.kill(db.pid, "SIGKILL");
    },
    async restore() {
      await disconnectDb();
      await db.stop();
      await connectDb(process.env.MONGODB_URI!);
    },
  };
}

/**
 * Whether nothing more can be sent for these outbox entries (mail's outbox or webhook deliveries):
 * every one is done (sent or delivered). An attempt takes only an entry that is pending or held by
 * a stale attempt (models/delivery-queue.server.ts), so a job still queued for a done entry, or a
 * sweep, sends nothing. Tests that check "exactly once" wait for this, not for time.
 */
export async function deliveriesSettled(collection: "outboxes" | "webhookdeliveries", filter: Record<string, unknown>) {
  const entries = await mongoose.connection
    .db!.collection(collection)
    .find(filter, { projection: { status: 1 } })
    .toArray();
  return entries.length > 0 && entries.every((entry) => ["sent", "delivered"].includes(entry.status));
}

/** The embedded database of a shop started without MONGODB_URI: its pid (the latest, after restarts) and address. */
export function localDbOf(shop: ShopProcess) {
  const match = /Local database \(mongo-java-server, pid (\d+)\) on (mongodb:\/\/[^,\s"]+)/.exec(shop.output());
  if (!match) throw new Error(`no local database line:\n${shop.output()}`);
  const restarts = [...shop.output().matchAll(/Local database running again \(pid (\d+)\)/g)];
  const pid = Number(restarts.at(-1)?.[1] ?? match[1]);
  // Only a process this test's shop started is ever signalled.
  if (parentOf(pid) !== shop.child.pid) throw new Error(`process ${pid} is not the shop's own database`);
  return { pid, uri: match[2]! };
}

/** The parent of a process, from /proc (its name may hold spaces and parentheses: read after the last one). */
export function parentOf(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** The page's <title>, as a browser shows it. */
export function titleOf(html: string) {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  return title
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

/**
 * What a shop wrote once it was ready (the demo logins before it are for a person at a terminal),
 * split into lines that are JSON and lines that are not.
 */
export function linesSinceReady(shop: ShopProcess) {
  const lines = shop.output().split("\n").filter(Boolean);
  const ready = lines.findIndex((line) => line.includes("Shop ready on"));
  const json: Record<string, unknown>[] = [];
  const notJson: string[] = [];
  for (const line of lines.slice(ready + 1)) {
    try {
      json.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      notJson.push(line);
    }
  }
  return { json, notJson };
}

/** A small seeded generator (mulberry32), so a failing kill test can be repeated with its seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
