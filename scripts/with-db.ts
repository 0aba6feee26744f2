import { existsSync } from "node:fs";
import path from "node:path";
import { connectDb, disconnectDb, syncIndexes } from "../app/services/db.server";
import { startLocalDb } from "../server/local-db";

/**
 * Runs `fn` connected to MONGODB_URI, or to the local database under .data/ when it is unset
 * (started for the duration of the script; the shop must not be running on it at the same time).
 */
export async function withDb<T>(fn: () => Promise<T>): Promise<T> {
  if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");
  let uri = process.env.MONGODB_URI;
  const local = uri
    ? undefined
    : await startLocalDb({ dataFile: path.resolve(process.env.DATA_DIR ?? ".data", "db", "shop.mv") });
  uri ??= local!.uri;
  try {
    await connectDb(uri);
    await syncIndexes();
    return await fn();
  } finally {
    await disconnectDb();
    await local?.stop();
  }
}
