/**
 * "Did you mean": catalogue words and part numbers near what was typed, for a search that found
 * nothing. Every read is along an index (the `terms` keys, the part-number key) and fetches a
 * handful of parts, never the catalogue.
 */
import { partNumberKey } from "~/domain/catalogue";
import { deletions, editDistance, FUZZY_MARK, FUZZY_MIN_LENGTH, nearestWords } from "~/domain/search-text";
import { Part } from "./part.server";

/** How many parts' words are read to find the nearest words of one typed word. */
const SAMPLE = 40;

/** Whether any part has a word that starts with `word` (an equality on the terms index). */
export async function isCatalogueWord(word: string) {
  return Boolean(await Part.exists({ terms: word }));
}

/**
 * The catalogue words nearest to a typed word (up to two errors, three from eight letters; see
 * nearestWords), from the parts that share a deletion key with it.
 */
export async function nearCatalogueWords(word: string, limit = 3, maxErrors?: number) {
  if (!/^[a-z]+$/.test(word) || word.length < FUZZY_MIN_LENGTH - 1) return [];
  const depth = word.length >= FUZZY_MIN_LENGTH + 2 ? 2 : 1;
  const keys = deletions(word, depth)
    .filter((key) => key.length >= FUZZY_MIN_LENGTH - 1)
    .map((key) => FUZZY_MARK + key);
  if (keys.length === 0) return [];
  const docs = await Part.find({ terms: { $in: keys } })
    .select({ words: 1 })
    .limit(SAMPLE)
    .lean();
  const counts = new Map<string, number>();
  for (const doc of docs) for (const found of doc.words ?? []) counts.set(found, (counts.get(found) ?? 0) + 1);
  return nearestWords(word, counts, limit, maxErrors);
}

/**
 * The part numbers nearest to a typed one: its neighbours in part-number order on either side
 * (two reads of the unique key's index), the fewest errors first.
 */
export async function nearPartNumbers(typed: string, limit = 3) {
  const key = partNumberKey(typed);
  if (key.length < 3) return [];
  const read = limit + 2;
  const [below, above] = await Promise.all([
    Part.find({ partNumberKey: { $lt: key } })
      .select({ partNumber: 1, partNumberKey: 1 })
      .sort({ partNumberKey: -1 })
      .limit(read)
      .lean(),
    Part.find({ partNumberKey: { $gt: key } })
      .select({ partNumber: 1, partNumberKey: 1 })
      .sort({ partNumberKey: 1 })
      .limit(read)
      .lean(),
  ]);
  return [...below, ...above]
    .map((doc) => ({ number: doc.partNumber, distance: editDistance(key, doc.partNumberKey ?? "", 4) }))
    .filter((entry) => entry.distance <= 3)
    .sort((a, b) => a.distance - b.distance || a.number.localeCompare(b.number))
    .slice(0, limit)
    .map((entry) => entry.number);
}
