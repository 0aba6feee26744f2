import { hostname } from "node:os";
import mongoose from "mongoose";
import { provideModelSettings } from "~/models/settings.server";
import { getEnv } from "./env.server";

mongoose.set("strictQuery", true);
// Filters are built from zod-parsed strings and numbers only, so user input never carries
// query operators ({"$gt": ""} is refused by the schemas before it reaches a query).

/**
 * Connects once. A database that stops answering is told from one that is only slow by a heartbeat,
 * not by a short deadline on every operation (docs/deployment.md, "When the database goes away"):
 * - `timeoutMs` (DB_TIMEOUT_MS, default 1 s): how long a query waits for a database it cannot reach
 *   (server selection, and mongoose's wait while it knows the connection is down);
 * - `stallMs` (DB_STALL_MS, default 0.8 s): with it, a second small client pings the database on
 *   its own connection (`probeDb`), and every answer of either client is noted (`lastDbAnswerAt`);
 *   server/db-outage.ts counts the database as away when a ping gets no answer within `stallMs` and
 *   nothing else has answered for as long, then answers 503 at once. A busy database keeps
 *   answering something, so its slow operations run to the end.
 * - `operationTimeoutMs` (DB_OPERATION_TIMEOUT_MS, default 60 s): the ceiling for one operation's
 *   answer (socketTimeoutMS) and a request's wait for a free connection of the pool
 *   (waitQueueTimeoutMS), sized well above the slowest legitimate operation (a long forgiving
 *   search or a stock import's dry run under load); it only ends a connection lost without either
 *   side noticing. 0 (the default for scripts and tests) waits as long as the driver does.
 */
export async function connectDb(
  uri: string,
  {
    timeoutMs = 10_000,
    operationTimeoutMs = 0,
    stallMs = 0,
  }: { timeoutMs?: number; operationTimeoutMs?: number; stallMs?: number } = {},
) {
  provideModelSettingsFromEnv();
  if (mongoose.connection.readyState === 1) return mongoose.connection;
  // Queries made while mongoose knows the connection is down wait the same time, not its 10 s.
  mongoose.set("bufferTimeoutMS", timeoutMs);
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    maxPoolSize: 20,
    // Tells a frozen database (nothing answers) from a busy one (some answers): see lastDbAnswerAt.
    monitorCommands: stallMs > 0,
    ...(operationTimeoutMs > 0 ? { socketTimeoutMS: operationTimeoutMs, waitQueueTimeoutMS: operationTimeoutMs } : {}),
  });
  if (stallMs > 0) {
    lastAnswerAt = Date.now();
    mongoose.connection.getClient().on("commandSucceeded", noteAnswer);
    // Its own pool, so a ping never waits behind the shop's queries for a connection; a ping to
    // a frozen server ends (and drops its connection) after stallMs. A new connection's handshake
    // may take longer (TLS and sign-in to a distant server): probeDb's own deadline bounds the
    // ping either way. It connects with its first ping, so a slow handshake never stops the start
    // (and is made again should that first connection fail: probeDb).
    probe = { uri, stallMs, client: probeClient(uri, stallMs) };
  }
  return mongoose.connection;
}

function probeClient(uri: string, stallMs: number) {
  const client = new mongoose.mongo.MongoClient(uri, {
    maxPoolSize: 2,
    serverSelectionTimeoutMS: stallMs,
    connectTimeoutMS: Math.max(stallMs, 10_000),
    socketTimeoutMS: stallMs,
    retryReads: false,
    monitorCommands: true,
  });
  client.on("commandSucceeded", noteAnswer);
  return client;
}

/**
 * The driver (mongodb 7) keeps the closed topology of a client whose first connection failed and
 * fails every later operation on it with these, never connecting again; so a probe client that
 * first pinged while the database was away or slower than `stallMs` would never answer again.
 */
const CLOSED_CLIENT_ERRORS = new Set(["MongoTopologyClosedError", "MongoNotConnectedError"]);

/** A new probe client in place of `closed` (unless disconnectDb or another ping already replaced it). */
function replaceProbeClient(closed: InstanceType<typeof mongoose.mongo.MongoClient>) {
  if (!probe || probe.client !== closed) return;
  probe.client = probeClient(probe.uri, probe.stallMs);
  void closed.close(true).catch(() => undefined);
}

let lastAnswerAt = Date.now();
const noteAnswer = () => {
  lastAnswerAt = Date.now();
};
let probe: { client: InstanceType<typeof mongoose.mongo.MongoClient>; uri: string; stallMs: number } | undefined;
/** When the database last answered a command (with the heartbeat on: connectDb's stallMs). */
export const lastDbAnswerAt = () => lastAnswerAt;

/**
 * The heartbeat: true when the database answers a ping within connectDb's `stallMs` of its going
 * out, on the probe's own connection (whatever mongoose believes of its connection, and however
 * busy its pool). Without the heartbeat, a ping on the shop's connection. A probe client the driver
 * closed for good (its first connection failed) is replaced, so the next ping connects afresh.
 */
export async function probeDb(): Promise<boolean> {
  if (!probe) return pingDb();
  const { client, stallMs } = probe;
  let timer: NodeJS.Timeout | undefined;
  let sent = (_event: { commandName: string }) => {};
  const late = new Promise<boolean>((resolve) => {
    // After the I/O already waiting: on a starved process the timer and the answer are due
    // together, and timers run first.
    const start = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setImmediate(() => resolve(false)), stallMs);
    };
    start();
    // Counted again once the ping has gone out: time this process was not run between asking and
    // sending (a starved host, a stopped process) is not time the database failed to answer.
    sent = ({ commandName }) => {
      if (commandName === "ping") start();
    };
  });
  client.on("commandStarted", sent);
  try {
    return await Promise.race([
      client
        .db("admin")
        .command({ ping: 1 })
        .then(
          () => true,
          // Seen here even when the deadline below has already answered false.
          (error: unknown) => {
            if (CLOSED_CLIENT_ERRORS.has((error as { name?: string })?.name ?? "")) replaceProbeClient(client);
            return false;
          },
        ),
      late,
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    client.off("commandStarted", sent);
  }
}

/** Hands the models the shop's settings (connecting does; so does a development rebuild of the app). */
export function provideModelSettingsFromEnv() {
  provideModelSettings(modelSettingsFromEnv);
}

/** Read each time a model asks, from the settings validated at start (server/env.ts). */
function modelSettingsFromEnv() {
  const env = getEnv();
  return {
    stockReserveMs: env.STOCK_RESERVE_DEADLINE_SECONDS * 1000,
    orderHoldMs: env.ORDER_HOLD_HOURS * 60 * 60 * 1000,
    returnWindowMs: env.RETURN_WINDOW_DAYS * 24 * 60 * 60 * 1000,
    unpaidCaps: {
      verified: { orders: env.UNPAID_ORDERS_CAP, valueCents: env.UNPAID_VALUE_CAP * 100 },
      unverified: { orders: env.UNVERIFIED_UNPAID_ORDERS_CAP, valueCents: env.UNVERIFIED_UNPAID_VALUE_CAP * 100 },
    },
  };
}

const UNAVAILABLE_ERRORS = new Set([
  "MongoServerSelectionError",
  "MongooseServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoPoolClearedError",
]);

/** Walks an error and its causes. */
function someCause(error: unknown, test: (cause: { name?: string; message?: string; code?: unknown }) => boolean) {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== "object") return false;
    if (test(cause as { name?: string; message?: string; code?: unknown })) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** True for an error that means "the database cannot be reached" (not a bad query), or one caused by it. */
export function isDbUnavailableError(error: unknown): boolean {
  return someCause(
    error,
    ({ name, message }) =>
      (!!name && UNAVAILABLE_ERRORS.has(name)) ||
      // mongoose's own wait for a connection: "Operation `orders.find()` buffering timed out after 1000ms"
      (name === "MongooseError" && /buffering timed out/.test(message ?? "")),
  );
}

/**
 * True when the database did not answer within DB_OPERATION_TIMEOUT_MS: no answer on the connection,
 * or no free connection in the pool. A frozen server looks like this, and so does one far too slow
 * for the traffic at that moment: server/db-outage.ts asks the heartbeat to tell them apart.
 */
export function isDbBusyError(error: unknown): boolean {
  return someCause(error, ({ name }) => name === "MongoWaitQueueTimeoutError" || name === "MongoNetworkTimeoutError");
}

/**
 * The code MongoDB gives a write refused for want of disk space; the local database
 * (scripts/local-db/LocalMongo.java) refuses writes with it while its disk is nearly full.
 */
export const OUT_OF_DISK_SPACE = 14031;

/** True for a write the database refused because its disk is full (reads still work). */
export function isDbFullError(error: unknown): boolean {
  return someCause(
    error,
    ({ code, message }) => code === OUT_OF_DISK_SPACE || /No space left on device/i.test(message ?? ""),
  );
}

/**
 * Makes every collection's indexes what its model declares: builds the missing ones, and rebuilds
 * one whose options changed (e.g. an index that became a TTL index). Indexes a model no longer
 * declares are dropped, so the models are the one list of indexes.
 */
export async function syncIndexes() {
  await Promise.all(
    Object.values(mongoose.models).map(async (model) => {
      // init() is the model's own start (collection and indexes), already under way since the
      // connection opened; creating the collection a second time beside it races on the local database.
      await model.init();
      await model.syncIndexes({ autoCreate: false } as Parameters<typeof model.syncIndexes>[0]);
    }),
  );
}

export type DbHealth = { ok: true } | { ok: false; problem: "unavailable" | "disk full" | "read-only" };

const HEALTH_ID = `${hostname()}:${process.pid}`;

/**
 * The database can be read and written: this instance's document in `health` is written and read
 * back (a closed or read-only store, a full disk and a frozen server all fail it). Each step has the
 * driver's deadlines (connectDb); `deadlineMs` bounds the whole, as their sum could exceed it.
 */
export async function checkDbHealth({ deadlineMs = 2000 }: { deadlineMs?: number } = {}): Promise<DbHealth> {
  const db = mongoose.connection.db;
  if (mongoose.connection.readyState !== 1 || !db) return { ok: false, problem: "unavailable" };
  const health = db.collection<{ _id: string; at: Date }>("health");
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the health check passed its deadline")), deadlineMs);
  });
  try {
    const at = new Date();
    await Promise.race([
      (async () => {
        await health.updateOne({ _id: HEALTH_ID }, { $set: { at } }, { upsert: true, maxTimeMS: deadlineMs });
        const read = await health.findOne({ _id: HEALTH_ID }, { maxTimeMS: deadlineMs });
        if (read?.at.getTime() !== at.getTime()) throw new Error("the health document did not read back");
      })(),
      deadline,
    ]);
    return { ok: true };
  } catch (error) {
    if (isDbFullError(error)) return { ok: false, problem: "disk full" };
    if (someCause(error, ({ message }) => /read-?only/i.test(message ?? "")))
      return { ok: false, problem: "read-only" };
    return { ok: false, problem: "unavailable" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the database directly, whatever mongoose believes of the connection: the attempt makes the
 * driver check the server at once rather than at its next heartbeat (10 s), so a database that is
 * back is found within a second (probeDb uses it when the heartbeat is off).
 */
export async function pingDb() {
  try {
    const db = mongoose.connection.db;
    if (!db) return false;
    await db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens `count` connections of the pool before traffic (and the job runner's start) needs them: a
 * burst on an empty pool opens them two at a time, and under load that can outlast the pool wait.
 */
export async function warmPool(count: number, waitMs: number) {
  const until = Date.now() + waitMs;
  while (!(await pingDb()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  await Promise.all(Array.from({ length: count }, () => pingDb()));
}

export async function disconnectDb() {
  const closing = probe?.client.close(true);
  probe = undefined;
  await Promise.all([mongoose.disconnect(), closing]);
}
