import { afterAll, beforeAll } from "vitest";
import { connectDb, disconnectDb, syncIndexes } from "~/utils/db.server";

// Integration tests talk to the real (local) database that `npm test` started.
beforeAll(async () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error("MONGODB_URI is not set: run the tests with `npm test unit`");
  await connectDb(uri);
  await syncIndexes();
});

afterAll(async () => {
  await disconnectDb();
});
