import { Agent, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll } from "vitest";
import { connectDb, disconnectDb, syncIndexes } from "~/utils/db.server";

// A connection per request for the tests' fetch calls: many tests read only a response's status and
// headers, and a pooled socket behind an unread body can stall a later request.
setGlobalDispatcher(new Agent({ pipelining: 0 }));

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
