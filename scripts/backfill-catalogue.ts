import { backfillCatalogueKeys } from "../app/models/part-catalogue.server";
import { withDb } from "./with-db";

/**
 * npm run catalogue:backfill: gives parts stored before the catalogue fields existed their search
 * keys, category "other" and brand PartsWorks (idempotent). Run once against production after deploying.
 */
const { updated, conflicts } = await withDb(backfillCatalogueKeys);
console.log(`${updated} parts got their catalogue search keys.`);
if (conflicts.length) {
  console.log(
    `These part numbers clash with another part's once dashes and spaces are ignored; renumber them: ${conflicts.join(", ")}`,
  );
  process.exitCode = 1;
}
