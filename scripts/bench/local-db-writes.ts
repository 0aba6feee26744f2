/**
 * What a durable local database costs (docs/performance.md, "The local database's writes"): the
 * same writes against scripts/local-db/LocalMongo.java in its three LOCAL_DB_SYNC modes: `none`
 * (H2's own commit about once a second), `commit` (the default: each write committed to the file
 * before it is acknowledged) and `fsync` (each commit also flushed to the disk). Inserts and
 * updates of 500-byte documents by _id, one at a time and 16 at once, a few rounds, the median.
 *
 *   npx tsx scripts/bench/local-db-writes.ts [writes per run, default 2000] [rounds, default 3]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import mongoose from "mongoose";
import { startLocalDb } from "../../server/local-db";

const writes = Number(process.argv[2] ?? 2000);
const rounds = Number(process.argv[3] ?? 3);
const modes = ["none", "commit", "fsync"] as const;
const work = mkdtempSync(path.join(tmpdir(), "bench-local-db-"));

async function perSecond(concurrency: number, write: (i: number) => Promise<unknown>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < writes; i = next++) await write(i);
    }),
  );
  return writes / ((performance.now() - started) / 1000);
}

async function run(mode: (typeof modes)[number], round: number) {
  const db = await startLocalDb({
    dataFile: path.join(work, `${mode}-${round}`, "bench.mv"),
    database: "bench",
    sync: mode,
  });
  const connection = await mongoose.createConnection(db.uri).asPromise();
  const docs = connection.db!.collection<{ _id: string; pad: string; n?: number }>("docs");
  await docs.insertOne({ _id: "warm-up", pad: "" });
  const result: Record<string, number> = {};
  for (const concurrency of [1, 16]) {
    const id = (i: number) => `${concurrency}-${i}`;
    result[`insert ×${concurrency}`] = await perSecond(concurrency, (i) =>
      docs.insertOne({ _id: id(i), pad: "x".repeat(500) }),
    );
    result[`update ×${concurrency}`] = await perSecond(concurrency, (i) =>
      docs.updateOne({ _id: id(i) }, { $inc: { n: 1 } }),
    );
  }
  await connection.close();
  await db.stop();
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = new Map<string, Record<string, number>[]>();
for (let round = 0; round < rounds; round++) {
  for (const mode of modes) results.set(mode, [...(results.get(mode) ?? []), await run(mode, round)]);
}
rmSync(work, { recursive: true, force: true });

const columns = Object.keys(results.get("none")![0]);
console.log(`| LOCAL_DB_SYNC | ${columns.map((column) => `${column} /s`).join(" | ")} |`);
console.log(`| --- | ${columns.map(() => "---:").join(" | ")} |`);
for (const mode of modes) {
  const runs = results.get(mode)!;
  const cells = columns.map((column) => Math.round(median(runs.map((run) => run[column]))).toLocaleString("en-US"));
  console.log(`| \`${mode}\` | ${cells.join(" | ")} |`);
}
