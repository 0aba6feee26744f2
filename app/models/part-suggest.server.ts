/**
 * "Did you mean": catalogue words and part numbers near what was typed, for a search that found
 * nothing. Words come from the vocabulary (documents read by `_id`), part numbers from the unique
 * part-number key's index; no read fetches more than a handful of documents.
 */
import { partNumberKey } from "~/domain/catalogue";
import { editDistance } from "~/domain/search-text";
import { Part } from "./part.server";
import { isVocabularyPrefix, nearVocabularyWords } from "./search-vocabulary.server";

/**
 * Whether some catalogue word starts with `word` (what `{terms: word}` asks of the parts), from the
 * vocabulary (search-vocabulary.server.ts): one document read by key.
 */
export async function isCatalogueWord(word: string) {
  return isVocabularyPrefix(word);
}

/**
 * The catalogue words nearest to a typed word (up to two errors, three from eight letters; see
 * nearestWords), from the vocabulary's words that share a deletion key with it: two reads by key,
 * none of the parts.
 */
export async function nearCatalogueWords(word: string, limit = 3, maxErrors?: number) {
  return nearVocabularyWords(word, limit, maxErrors);
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
