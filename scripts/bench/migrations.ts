/**
 * The stock-holds and companies migrations at the benchmark's size: `npx tsx scripts/bench/migrations.ts
 * [--parts 100000] [--orders N] [--migrations-dir DIR]…`. Seeds the synthetic catalogue into a
 * throwaway local database in the shape a shop had before those two migrations (every earlier one
 * recorded applied), then applies the pending migrations as the shop does at start and prints how
 * long each took. Each `--migrations-dir` (scripts/migrations by default; another set of files,
 * e.g. an earlier version of them) runs on its own copy of the same seeded database.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import mongoose from "mongoose";
import { connectDb, disconnectDb, syncIndexes } from "../../app/services/db.server";
import { MIGRATIONS_DIR, migrateDb } from "../../app/services/migrate.server";
import { startLocalDb } from "../../server/local-db";
import { seedCatalogue } from "./seed-catalogue";
import { startDb } from "./shop";

/** The first migration the seed's shape has not had. */
const FIRST_PENDING = "20261125150000-stock-holds.js";

const { values: args } = parseArgs({
  options: {
    parts: { type: "string", default: "100000" },
    orders: { type: "string" },
    customers: { type: "string", default: "200" },
    "migrations-dir": { type: "string", multiple: true },
  },
});
const parts = Number(args.parts);
const size = {
  parts,
  customers: Number(args.customers),
  orders: Number(args.orders ?? Math.round(parts / 5)),
  reviews: Math.min(5000, Math.max(100, Math.round(parts / 20))),
};
const dirs = (args["migrations-dir"] ?? [MIGRATIONS_DIR]).map((dir) => path.resolve(dir));
const log = (line: string) => console.log(line);

const work = mkdtempSync(path.join(os.tmpdir(), "shop-migrations-"));
try {
  const db = await startDb(work);
  try {
    await connectDb(db.uri);
    await syncIndexes();
    const earlier = readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith(".js") && name < FIRST_PENDING);
    await mongoose.connection
      .db!.collection("changelog")
      .insertMany(earlier.map((fileName) => ({ fileName, appliedAt: new Date() })));
    log(`Seeding ${size.parts} parts, ${size.customers} customers, ${size.orders} orders (before ${FIRST_PENDING})…`);
    const seed = await seedCatalogue(size, { log, shape: "before-stock-holds" });
    log(`  seeded in ${seed.seconds.total.toFixed(1)} s`);
  } finally {
    await disconnectDb();
    await db.stop();
  }
  for (const [index, dir] of dirs.entries()) {
    const dataFile = path.join(work, "db", `copy-${index}.mv`);
    copyFileSync(path.join(work, "db", "bench.mv"), dataFile);
    const copy = await startLocalDb({ dataFile, database: "shop-bench" });
    try {
      await connectDb(copy.uri);
      log(
        `\n${path.relative(process.cwd(), dir)}, load average ${os
          .loadavg()
          .map((value) => value.toFixed(2))
          .join(" ")}`,
      );
      const started = performance.now();
      const applied = await migrateDb(undefined, { dir, log });
      log(`${applied.length} migrations in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await disconnectDb();
      await copy.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
