import mongoose from "mongoose";

mongoose.set("strictQuery", true);
// Filters are built from zod-parsed strings and numbers only, so user input never carries
// query operators ({"$gt": ""} is refused by the schemas before it reaches a query).

export async function connectDb(uri: string) {
  if (mongoose.connection.readyState === 1) return mongoose.connection;
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 20,
  });
  return mongoose.connection;
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

export async function disconnectDb() {
  await mongoose.disconnect();
}
