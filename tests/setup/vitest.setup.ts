import { createHash } from "node:crypto";
import path from "node:path";
import mongoose from "mongoose";
import { Agent, setGlobalDispatcher } from "undici";
import { afterAll, beforeAll, expect, vi } from "vitest";

// A fork runs many files (isolate: false keeps node_modules loaded); each file still gets the shop's
// own modules fresh, so no cache, setting or vi.mock of one file reaches the next.
vi.resetModules();

// A connection per request for the tests' fetch calls: many tests read only a response's status and
// headers, and a pooled socket behind an unread body can stall a later request.
setGlobalDispatcher(new Agent({ pipelining: 0 }));

// A file of the "own-db" project (vitest.config.ts) gets a database of its own on the suite's
// database server, named after the file, so files run side by side without seeing each other's
// data. Set before the file is loaded, so everything it starts (scripts, shops) uses it too.
if (process.env.TEST_OWN_DATABASE && process.env.MONGODB_URI) {
  const file = path.relative(process.cwd(), expect.getState().testPath ?? "");
  const slug = path
    .basename(file)
    .replace(/\.test\.tsx?$/, "")
    .replace(/[^a-z0-9]+/gi, "-");
  const name = `t-${slug.slice(0, 40)}-${createHash("sha1").update(file).digest("hex").slice(0, 8)}`;
  const uri = new URL(process.env.MONGODB_URI);
  uri.pathname = `/${name}`;
  process.env.MONGODB_URI = uri.toString();
}

// Integration tests talk to the real (local) database that `npm test` started.
// The shop's modules are imported here, after the reset above (a static import would be evaluated
// before it), so the file's models get their settings from this very connection.
beforeAll(async () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error("MONGODB_URI is not set: run the tests with `npm test unit`");
  const { connectDb, syncIndexes } = await import("~/services/db.server");
  await connectDb(uri);
  await syncIndexes();
});

afterAll(async () => {
  // The file's own database goes with it: every commit of the database server walks all its collections.
  if (process.env.TEST_OWN_DATABASE && mongoose.connection.readyState === 1) await mongoose.connection.dropDatabase();
  const { disconnectDb } = await import("~/services/db.server");
  await disconnectDb();
});
