import { migrateDb } from "../app/services/migrate.server";
import { withDb } from "./with-db";

/** npm run migrate: applies the data migrations in scripts/migrations that have not run yet (the shop also does at start). */
const applied = await withDb(() => migrateDb(undefined, { log: (line) => console.log(line) }));
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
