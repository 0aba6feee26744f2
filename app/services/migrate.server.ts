import path from "node:path";
import { config, status, up } from "migrate-mongo";
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

export type MigrateOptions = {
  /** Where the migration files are (scripts/migrations). */
  dir?: string;
  /** Told which migrations are about to run, and then how long each took. */
  log?: (line: string) => void;
};

function configure(db: Db, dir: string) {
  config.set({
    mongodb: { url: "", databaseName: db.databaseName },
    migrationsDir: dir,
    changelogCollectionName: "changelog",
    lockCollectionName: "changelog_lock",
    lockTtl: 0,
    migrationFileExtension: ".js",
    useFileHash: false,
    moduleSystem: "esm",
  });
}

/**
 * Applies the pending migrations; returns their file names. Each one's duration is read back from
 * the changelog (migrate-mongo records each as it finishes), so a slow start-up names its cause.
 */
export async function migrateDb(
  db: Db | undefined = mongoose.connection.db,
  { dir = MIGRATIONS_DIR, log }: MigrateOptions = {},
): Promise<string[]> {
  if (!db) throw new Error("Connect to the database before migrating it");
  configure(db, dir);
  if (!log) return up(db, mongoose.connection.getClient());
  const pending = (await status(db)).filter((item) => item.appliedAt === "PENDING").map((item) => item.fileName);
  if (pending.length === 0) return [];
  log(`Migrations: ${pending.length} to apply (${pending.join(", ")})`);
  const started = Date.now();
  const applied = await up(db, mongoose.connection.getClient());
  const records = await db
    .collection<{ fileName: string; appliedAt: Date }>("changelog")
    .find({ fileName: { $in: applied } })
    .toArray();
  const appliedAt = new Map(records.map((record) => [record.fileName, new Date(record.appliedAt).getTime()]));
  let previous = started;
  for (const fileName of applied) {
    const at = appliedAt.get(fileName) ?? Date.now();
    log(`Migration ${fileName} applied in ${((at - previous) / 1000).toFixed(1)} s`);
    previous = at;
  }
  log(`Migrations applied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return applied;
}
