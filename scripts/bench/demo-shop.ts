/**
 * A throwaway shop with the demo data (and optionally a synthetic catalogue) for the page-weight
 * and Lighthouse scripts: its own build directory, its own local database, a free port.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { connectDb, disconnectDb, syncIndexes } from "../../app/services/db.server";
import { ensureDemoData } from "../../app/demo/data.server";
import { seedCatalogue } from "./seed-catalogue";
import { buildShop, startDb, startShop } from "./shop";

export async function startDemoShop({
  work,
  parts = 0,
  cpus,
  buildDir,
  nodeArgs,
}: {
  work: string;
  parts?: number;
  cpus?: string;
  /** An existing build to run; by default the shop is built into .cache/ for this run. */
  buildDir?: string;
  /** Extra arguments for the server's node, e.g. --cpu-prof. */
  nodeArgs?: string[];
}) {
  const ownBuild = !buildDir;
  const dir = buildDir ?? path.resolve(".cache", `bench-build-${path.basename(work)}`);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error) => console.error(error));
  };
  try {
    if (ownBuild) {
      stops.push(async () => rmSync(dir, { recursive: true, force: true }));
      buildShop(dir);
    }
    const db = await startDb(work);
    stops.push(db.stop);
    await connectDb(db.uri);
    try {
      await syncIndexes();
      await ensureDemoData();
      if (parts > 0) await seedCatalogue({ parts, customers: 100, orders: Math.round(parts / 10), reviews: 1000 });
    } finally {
      await disconnectDb();
    }
    const shop = await startShop({ work, db, buildDir: dir, cpus, nodeArgs });
    stops.push(shop.stop);
    return { url: shop.url, buildDir: dir, shop, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
