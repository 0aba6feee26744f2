import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import mongoose from "mongoose";
import { oneLine } from "../../server/db-start";
import { startLocalDb } from "../../server/local-db";
import { partialFile, writeBackup } from "./archive";
import { copyPaused, ownerOf, serverAt, type RunningLocalDb } from "./local-server";

/**
 * npm run backup [-- <file>]
 * Backs up the local database (the one under DATA_DIR, default .data/, or the local database a
 * loopback MONGODB_URI names) to one gzip file of Extended JSON: every collection, its indexes and
 * documents, as they were at one instant (docs/backup.md). The shop may keep running and taking
 * orders: its database pauses while its file is copied (milliseconds for a shop's data), and the
 * copy is read through a database server of its own. Real MongoDB: mongodump --oplog.
 * Default file: DATA_DIR/backups/shop-<UTC time>.jsonl.gz. Restore with npm run restore <file>.
 */
// A paused copy is one instant (a crash image H2 reopens); reading collection by collection splits orders from holds.

class Refusal extends Error {}

// What a backup stopped half way leaves: removed on the way out.
const leftovers: string[] = [];
const cleanUp = () => leftovers.forEach((leftover) => rmSync(leftover, { recursive: true, force: true }));
// A signal during the pause waits for its handler, which runs once the copy is done and the
// database is running again (the default action would end this process with the database paused).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });

async function backup(args: string[]) {
  if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");
  if (args.length > 1 || args.some((arg) => arg.startsWith("-")))
    throw new Refusal("Usage: npm run backup [-- <file>] (default: DATA_DIR/backups/shop-<time>.jsonl.gz)");
  const dataDir = path.resolve(process.env.DATA_DIR ?? ".data");
  const uri = process.env.MONGODB_URI;
  let server: RunningLocalDb | undefined;
  let dataFile: string;
  let database = "shop";
  if (uri) {
    server = serverAt(uri);
    if (!server)
      throw new Refusal(
        "MONGODB_URI names no local database of this machine: back up MongoDB with mongodump --oplog (docs/backup.md)",
      );
    dataFile = server.dataFile;
    database = new mongoose.mongo.MongoClient(uri).db().databaseName;
  } else {
    dataFile = path.join(dataDir, "db", "shop.mv");
    server = ownerOf(dataFile);
    if (!server && !existsSync(dataFile)) throw new Refusal(`There is no local database at ${dataFile} to back up`);
  }

  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const file = path.resolve(args[0] ?? path.join(dataDir, "backups", `shop-${stamp}.jsonl.gz`));
  if (existsSync(file)) throw new Refusal(`${file} exists already: name another file`);
  mkdirSync(path.dirname(file), { recursive: true });
  leftovers.push(partialFile(file));

  // Running: a copy taken paused, beside the file (a reflink where the file system has them).
  // At rest: the file itself, whose lock keeps a shop from opening it while it is read.
  let readFrom = dataFile;
  let how = "at rest";
  const takenAt = new Date();
  if (server) {
    const work = mkdtempSync(path.join(path.dirname(dataFile), ".backup-"));
    leftovers.push(work);
    readFrom = path.join(work, "copy.mv");
    const pausedMs = copyPaused(server, readFrom);
    how = `copied with its server (pid ${server.pid}) paused ${pausedMs.toFixed(0)} ms`;
  }
  // The reader only reads: a small cache, no compaction, no commits of its own.
  process.env.LOCAL_DB_CACHE_MB ??= "64";
  process.env.LOCAL_DB_COMPACT_SECONDS = "0";
  const reader = await startLocalDb({ dataFile: readFrom, database, sync: "none" });
  const client = new mongoose.mongo.MongoClient(reader.uri);
  try {
    const db = client.db(database);
    if ((await db.listCollections({}, { nameOnly: true }).toArray()).length === 0)
      throw new Refusal(`The database "${database}" in ${dataFile} has no collections: nothing to back up`);
    const counts = await writeBackup(db, file, { takenAt, source: `local database ${dataFile}, ${how}` });
    const size = statSync(file).size;
    console.log(
      `Backed up "${database}": ${counts.documents} documents in ${counts.collections} collections to ${file} ` +
        `(${size < 1 << 20 ? `${Math.ceil(size / 1024)} KB` : `${(size / (1 << 20)).toFixed(1)} MB`}; ` +
        `the database file ${how}). Restore: npm run restore ${file}`,
    );
  } finally {
    await client.close();
    await reader.stop();
    cleanUp();
  }
}

try {
  await backup(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Refusal ? error.message : `Backup failed: ${oneLine(error)}`);
  process.exitCode = 1;
}
