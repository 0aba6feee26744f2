import { existsSync } from "node:fs";
import path from "node:path";
import mongoose from "mongoose";
import { oneLine, redactUri } from "../../server/db-start";
import { checkDataDirectory, startLocalDb, type LocalDb } from "../../server/local-db";
import { BackupFileError, checkBackup, collectionsOf, restoreBackup } from "./archive";
import { ownerOf } from "./local-server";

/**
 * npm run restore -- <file> [--force]
 * Restores a file of npm run backup into MONGODB_URI, or into the local database under DATA_DIR
 * (default .data/; the shop stopped). The whole file is read and checked first; a database that
 * holds any document is left alone unless --force, which replaces its collections with the backup's.
 * Then start the shop: it finishes or undoes any order the backup caught half placed, as after a
 * crash (docs/backup.md).
 */

class Refusal extends Error {}

const USAGE = "Usage: npm run restore -- <file> [--force]";

async function restore(args: string[]) {
  if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");
  const force = args.includes("--force");
  const rest = args.filter((arg) => arg !== "--force");
  if (rest.length !== 1 || rest[0].startsWith("-")) throw new Refusal(USAGE);
  const file = path.resolve(rest[0]);
  const backup = await checkBackup(file);

  const uri = process.env.MONGODB_URI;
  let local: LocalDb | undefined;
  let where: string;
  if (uri) {
    where = redactUri(uri);
  } else {
    const dataFile = path.resolve(process.env.DATA_DIR ?? ".data", "db", "shop.mv");
    const owner = ownerOf(dataFile);
    if (owner) throw new Refusal(`The local database ${dataFile} is in use (pid ${owner.pid}): stop the shop first`);
    checkDataDirectory(path.dirname(dataFile));
    local = await startLocalDb({ dataFile });
    where = `the local database ${dataFile}`;
  }
  const client = new mongoose.mongo.MongoClient(local?.uri ?? uri!, { serverSelectionTimeoutMS: 10_000 });
  try {
    try {
      await client.connect();
    } catch (error) {
      throw new Refusal(`Cannot reach the database at ${where}: ${oneLine(error)}`);
    }
    const db = client.db();
    const existing = await collectionsOf(db);
    const counts = await Promise.all(existing.map((entry) => db.collection(entry.name).estimatedDocumentCount()));
    const documents = counts.reduce((sum, count) => sum + count, 0);
    if (documents > 0 && !force)
      throw new Refusal(
        `Not restored: the database "${db.databaseName}" in ${where} holds ${documents} documents; ` +
          "add --force to replace them with the backup",
      );
    // Empty ones too: the backup brings each collection with its own options and indexes.
    for (const entry of existing) await db.collection(entry.name).drop();
    try {
      await restoreBackup(db, file);
    } catch (error) {
      if (error instanceof BackupFileError) throw error;
      throw new Refusal(`Restore stopped part way (${oneLine(error)}): run it again with --force`);
    }
    console.log(
      `Restored ${backup.documents} documents in ${backup.collections} collections into "${db.databaseName}" in ${where}, ` +
        `from the backup of ${backup.header.takenAt.toISOString()} (${backup.header.source}). ` +
        "Start the shop (it settles orders caught half placed), then npm run stock:check",
    );
  } finally {
    await client.close();
    await local?.stop();
  }
}

try {
  await restore(process.argv.slice(2));
} catch (error) {
  const known = error instanceof Refusal || error instanceof BackupFileError;
  console.error(known ? error.message : `Restore failed: ${oneLine(error)}`);
  process.exitCode = 1;
}
