import path from "node:path";
import { config, up } from "migrate-mongo";
import mongoose from "mongoose";

/**
 * Versioned data migrations with migrate-mongo: the files in scripts/migrations run in name
 * order, once each, and are recorded in the `changelog` collection. The shop runs them at start
 * (server.ts) and `npm run migrate` runs them by hand. The library's lock is off: it is a
 * check-then-insert that needs a TTL index the local database does not expire, so a crash would
 * leave it locked for good; instead every migration only touches documents still in the old
 * shape, with conditional updates, so two instances starting at once do no harm.
 */
export const MIGRATIONS_DIR = path.resolve("scripts/migrations");

type Db = NonNullable<typeof mongoose.connection.db>;

export async function migrateDb(db: Db | undefined = mongoose.connection.db): Promise<string[]> {
  if (!db) throw new Error("Connect to the database before migrating it");
  config.set({
    mongodb: { url: "", databaseName: db.databaseName },
    migrationsDir: MIGRATIONS_DIR,
    changelogCollectionName: "changelog",
    lockCollectionName: "changelog_lock",
    lockTtl: 0,
    migrationFileExtension: ".js",
    useFileHash: false,
    moduleSystem: "esm",
  });
  return up(db, mongoose.connection.getClient());
}
