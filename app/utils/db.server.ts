import mongoose from "mongoose";
import { provideModelSettings } from "~/models/settings.server";
import { getEnv } from "./env.server";

mongoose.set("strictQuery", true);
// Filters are built from zod-parsed strings and numbers only, so user input never carries
// query operators ({"$gt": ""} is refused by the schemas before it reaches a query).

/**
 * Connects once. `timeoutMs` (DB_TIMEOUT_MS, default 1 s) is how long a query waits for a
 * database it cannot reach, before connecting and after: a page then answers 503 at once rather
 * than after the driver's 30 s (server/db-outage.ts). A reachable but busy database is not
 * affected: the wait applies only while no server answers.
 */
export async function connectDb(uri: string, { timeoutMs = 10_000 }: { timeoutMs?: number } = {}) {
  provideModelSettings(modelSettingsFromEnv);
  if (mongoose.connection.readyState === 1) return mongoose.connection;
  // Queries made while mongoose knows the connection is down wait the same time, not its 10 s.
  mongoose.set("bufferTimeoutMS", timeoutMs);
  await mongoose.connect(uri, { serverSelectionTimeoutMS: timeoutMs, maxPoolSize: 20 });
  return mongoose.connection;
}

/** Read each time a model asks, from the settings validated at start (server/env.ts). */
function modelSettingsFromEnv() {
  const env = getEnv();
  return {
    stockReserveMs: env.STOCK_RESERVE_DEADLINE_SECONDS * 1000,
    orderHoldMs: env.ORDER_HOLD_HOURS * 60 * 60 * 1000,
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

/** True for an error that means "the database cannot be reached" (not a bad query), or one caused by it. */
export function isDbUnavailableError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if (typeof cause !== "object") return false;
    const { name, message } = cause as { name?: string; message?: string };
    if (name && UNAVAILABLE_ERRORS.has(name)) return true;
    // mongoose's own wait for a connection: "Operation `orders.find()` buffering timed out after 1000ms"
    if (name === "MongooseError" && /buffering timed out/.test(message ?? "")) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
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

export async function isDbHealthy() {
  try {
    const db = mongoose.connection.db;
    if (mongoose.connection.readyState !== 1 || !db) return false;
    await db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Asks the database directly, whatever mongoose believes of the connection: the attempt makes the
 * driver check the server at once rather than at its next heartbeat (10 s), so a database that is
 * back is found within a second (server/db-outage.ts probes with it).
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

export async function disconnectDb() {
  await mongoose.disconnect();
}
