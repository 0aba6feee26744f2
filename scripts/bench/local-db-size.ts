/**
 * How big the local database's file grows per 1,000 orders (docs/performance.md, "The local
 * database's file"): orders placed through the shop's own service, 10 at once, on a fresh store in
 * the default `commit` mode, with H2's defaults (old chunks kept 45 s, no compaction) and with the
 * shop's settings (kept 5 s, compacted every 30 s: scripts/local-db/LocalMongo.java). The file's
 * size right after the orders, after 40 s idle, and after a clean stop.
 *
 *   npx tsx scripts/bench/local-db-size.ts [orders, default 1000] [--h2-defaults]
 *
 * One setting per run (a process's job runner stays on its first connection).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setUnpaidCaps } from "~/models/user-admin.server";
import { User } from "~/models/user.server";
import { Part } from "~/models/part.server";
import { connectDb, disconnectDb, syncIndexes } from "~/services/db.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { startLocalDb } from "../../server/local-db";
import { EMPTY_ADDRESS } from "~/domain/address";

const orders = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1000);
const h2Defaults = process.argv.includes("--h2-defaults");
const work = mkdtempSync(path.join(tmpdir(), "bench-local-db-size-"));
const settings = {
  "H2 defaults (kept 45 s, no compaction)": { LOCAL_DB_RETENTION_MS: "45000", LOCAL_DB_COMPACT_SECONDS: "0" },
  "the shop's (kept 5 s, compacted every 30 s)": {},
} as const;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function run(name: string, env: Record<string, string>) {
  const dataFile = path.join(work, name.replace(/\W+/g, "-"), "bench.mv");
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const db = await startLocalDb({ dataFile, database: "bench", sync: "commit" });
  process.env = saved;
  await connectDb(db.uri);
  await syncIndexes();
  const part = await Part.create({
    name: "Bench bearing",
    partNumber: `BENCH-${Date.now()}`,
    description: "A part ordered by the file-size benchmark.",
    priceCents: 1000,
    minOrderQuantity: 1,
    availableQuantity: 10_000_000,
    img: "https://example.com/part.png",
  });
  const users = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      User.create({ name: `Bench Buyer ${i}`, email: `bench-${i}-${Date.now()}@example.com`, role: "customer" }),
    ),
  );
  await Promise.all(users.map((user) => setUnpaidCaps(user.id, { orders: 1e6, valueCents: 1e12 })));
  const before = statSync(dataFile).size;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    users.map(async (user) => {
      for (let i = next++; i < orders; i = next++) {
        const placed = await placeCustomerOrder({
          lines: [{ partId: part.id, quantity: 1 }],
          phone: "555-0100",
          delivery: {
            ...EMPTY_ADDRESS,
            line1: `${i} Bench Street`,
            city: "Detroit",
            region: "MI",
            postalCode: "48209",
            country: "US",
          },
          user: { id: user.id },
        });
        if (!placed.ok) throw new Error(`order ${i} refused`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = statSync(dataFile).size;
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.IDLE_MS ?? 40_000)));
  const idle = statSync(dataFile).size;
  await disconnectDb();
  await db.stop();
  const stopped = statSync(dataFile).size;
  const per1000 = (size: number) => mb(((size - before) / orders) * 1000);
  console.log(
    `${name}: ${orders} orders in ${seconds.toFixed(0)} s; file ${mb(before)} before, ${mb(after)} after ` +
      `(${per1000(after)} per 1,000), ${mb(idle)} after 40 s idle (${per1000(idle)}), ${mb(stopped)} stopped (${per1000(stopped)})`,
  );
}

try {
  const [name, env] = Object.entries(settings)[h2Defaults ? 0 : 1]!;
  await run(name, env);
} finally {
  rmSync(work, { recursive: true, force: true });
}
