import { backfillCatalogueKeys, rebuildCatalogueVocabulary } from "../app/models/part-catalogue.server";
import { withDb } from "./with-db";

/**
 * npm run catalogue:backfill: gives parts stored before the catalogue fields existed their search
 * keys, category "other" and brand PartsWorks (idempotent), and rebuilds the catalogue's search
 * vocabulary from the parts (exact word counts; words no part has any more are no longer offered).
 * Run once against production after deploying, and after large renames or removals.
 */
const { updated, conflicts, words } = await withDb(async () => ({
  ...(await backfillCatalogueKeys()),
  words: await rebuildCatalogueVocabulary(),
}));
console.log(`${updated} parts got their catalogue search keys; the search vocabulary has ${words} words.`);
if (conflicts.length) {
  console.log(
    `These part numbers clash with another part's once dashes and spaces are ignored; renumber them: ${conflicts.join(", ")}`,
  );
  process.exitCode = 1;
}
