import mongoose, { Schema } from "mongoose";
import { SEARCH_TERM_MAX_LENGTH } from "~/domain/catalogue";
import { deletions, FUZZY_MARK, FUZZY_MIN_LENGTH, fuzzyKeys, nearestWords } from "~/domain/search-text";

/**
 * The catalogue's vocabulary: every word of letters among the parts' search words (`words`), in a
 * collection of its own whose documents are found by `_id` alone, the one index every MongoDB and
 * the local stand-in answer alike. "Did you mean", typing errors and "is this a catalogue word"
 * read a few of these documents by key instead of the parts, so none of them reads the catalogue.
 *
 * One collection, three kinds of document, told apart by the start of the key:
 * - `w:<word>` with `n`: the word, and how many part writes carried it (popularity, to rank
 *   near words that are equally near; exact after a rebuild, counted up between rebuilds);
 * - `p:<prefix>`: some catalogue word starts with it (a search term is a prefix of a word);
 * - `~<key>` with `w`: the words that have this deletion key (symmetric delete, search-text.ts
 *   fuzzyKeys), so a typed word's own deletion keys find the words within its errors;
 * - `o:<OE key>` with `ids`: the parts that listed this OE number (catalogue.ts partNumberKey), so
 *   a typed number is resolved by keys alone (own numbers have the parts' unique index).
 *
 * Kept a superset of the catalogue's words: words are added before the part that carries them is
 * written (the Part model's save, the admin's edit, the keys' rewrite), never taken out on the fly,
 * so a write that fails leaves an extra word (harmless: a correction that finds nothing more) and
 * never a missing one; the same for OE numbers, whose parts are read and tested after. A rebuild (at start when VOCABULARY_VERSION is new, and by
 * `npm run catalogue:backfill`) sets the counts from the parts and zeroes words no part has any more.
 */
const vocabularySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** `w:` documents: part writes that carried the word (0: no part has it since the last rebuild). */
    n: { type: Number },
    /** `~` documents: the words with this deletion key. */
    w: { type: [String], default: undefined },
    /** `o:` documents: the parts that listed this OE number (some may not any more). */
    ids: { type: [Schema.Types.ObjectId], default: undefined },
    /** The `meta` document: the VOCABULARY_VERSION of the last rebuild. */
    version: { type: Number },
  },
  { collection: "searchvocabulary", versionKey: false },
);

type VocabularyDoc = { _id: string; n?: number; w?: string[]; ids?: mongoose.Types.ObjectId[]; version?: number };

export const SearchVocabulary: mongoose.Model<VocabularyDoc> =
  (mongoose.models.SearchVocabulary as mongoose.Model<VocabularyDoc>) ??
  mongoose.model<VocabularyDoc>("SearchVocabulary", vocabularySchema);

/** Raise when what a vocabulary document holds changes: the next start rebuilds it. */
export const VOCABULARY_VERSION = 2;
const META = "meta";

const WORD = "w:";
const PREFIX = "p:";
const OE = "o:";
const isWord = (word: string) => /^[a-z]+$/.test(word);

/** The vocabulary's words among a part's search words: letters only (numbers have their own keys). */
export function vocabularyWords(words: Iterable<string>) {
  return [...new Set([...words].map((word) => word.slice(0, SEARCH_TERM_MAX_LENGTH)).filter(isWord))];
}

function keyWrites(word: string) {
  const writes: mongoose.AnyBulkWriteOperation<VocabularyDoc>[] = [];
  for (let length = 1; length <= word.length; length++) {
    writes.push({
      updateOne: { filter: { _id: PREFIX + word.slice(0, length) }, update: { $set: { n: 1 } }, upsert: true },
    });
  }
  for (const key of fuzzyKeys([word])) {
    writes.push({ updateOne: { filter: { _id: key }, update: { $addToSet: { w: word } }, upsert: true } });
  }
  return writes;
}

const isDuplicateKey = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  ((error as { code?: number }).code === 11000 ||
    ((error as { writeErrors?: { code?: number }[] }).writeErrors ?? []).every((entry) => entry.code === 11000));

/** Upserts, once more when two writers upserted the same key at once (MongoDB answers one of them 11000). */
async function upsert(writes: mongoose.AnyBulkWriteOperation<VocabularyDoc>[]) {
  if (writes.length === 0) return;
  try {
    await SearchVocabulary.bulkWrite(writes, { ordered: false });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    await SearchVocabulary.bulkWrite(writes, { ordered: false });
  }
}

/**
 * Adds words (each with how many parts carry it, 1 when a list is given): one read by key of which
 * are known, then one write: the count of each, and the prefix and deletion keys of the new ones.
 */
export async function addToVocabulary(words: Iterable<string> | Map<string, number>) {
  const counts =
    words instanceof Map
      ? new Map([...words].filter(([word]) => isWord(word)))
      : new Map(vocabularyWords(words).map((word) => [word, 1]));
  if (counts.size === 0) return;
  const known = await SearchVocabulary.find({ _id: { $in: [...counts.keys()].map((word) => WORD + word) } })
    .select({ _id: 1, n: 1 })
    .lean();
  const live = new Set(known.filter((doc) => (doc.n ?? 0) > 0).map((doc) => doc._id.slice(WORD.length)));
  const writes: mongoose.AnyBulkWriteOperation<VocabularyDoc>[] = [];
  for (const [word, count] of counts) {
    writes.push({ updateOne: { filter: { _id: WORD + word }, update: { $inc: { n: count } }, upsert: true } });
    if (!live.has(word)) writes.push(...keyWrites(word));
  }
  await upsert(writes);
}

/** Notes which parts list which OE keys, before the parts are written with them. */
export async function addOeKeys(parts: { id: mongoose.Types.ObjectId; oeKeys: readonly string[] }[]) {
  await upsert(
    parts.flatMap((part) =>
      [...new Set(part.oeKeys)].filter(Boolean).map((key) => ({
        updateOne: { filter: { _id: OE + key }, update: { $addToSet: { ids: part.id } }, upsert: true },
      })),
    ),
  );
}

/**
 * The parts that listed one of these OE keys: one read by key. A superset (a part may have dropped
 * the number since): the caller tests the parts it reads.
 */
export async function partIdsWithOeKeys(keys: readonly string[]) {
  if (keys.length === 0) return [];
  const docs = await SearchVocabulary.find({ _id: { $in: keys.map((key) => OE + key) } })
    .select({ ids: 1 })
    .lean();
  const ids = new Map<string, mongoose.Types.ObjectId>();
  for (const doc of docs) for (const id of doc.ids ?? []) ids.set(id.toString(), id);
  return [...ids.values()];
}

/** Whether some catalogue word starts with this one (what `{terms: word}` asks of the parts). */
export async function isVocabularyPrefix(word: string) {
  return Boolean(await SearchVocabulary.exists({ _id: PREFIX + word }));
}

/**
 * The catalogue words nearest to a typed word, best first (search-text.ts nearestWords), from the
 * words that share a deletion key with it: one read of its keys, one of those words' counts.
 */
export async function nearVocabularyWords(word: string, limit = 3, maxErrors?: number) {
  if (!isWord(word) || word.length < FUZZY_MIN_LENGTH - 1) return [];
  const depth = word.length >= FUZZY_MIN_LENGTH + 2 ? 2 : 1;
  const keys = deletions(word, depth)
    .filter((key) => key.length >= FUZZY_MIN_LENGTH - 1)
    .map((key) => FUZZY_MARK + key);
  if (keys.length === 0) return [];
  const sharing = await SearchVocabulary.find({ _id: { $in: keys } })
    .select({ w: 1 })
    .lean();
  const candidates = [...new Set(sharing.flatMap((doc) => doc.w ?? []))];
  if (candidates.length === 0) return [];
  const counted = await SearchVocabulary.find({ _id: { $in: candidates.map((candidate) => WORD + candidate) } })
    .select({ n: 1 })
    .lean();
  const counts = new Map<string, number>();
  for (const doc of counted) if ((doc.n ?? 0) > 0) counts.set(doc._id.slice(WORD.length), doc.n ?? 0);
  return nearestWords(word, counts, limit, maxErrors);
}

/** Whether the vocabulary was built by this version (else the start rebuilds it). */
export async function vocabularyIsCurrent() {
  const meta = await SearchVocabulary.findById(META).select({ version: 1 }).lean();
  return (meta?.version ?? 0) >= VOCABULARY_VERSION;
}

/**
 * The vocabulary from the parts' words, exactly: counts set, words no part has any more set to 0
 * (so nothing offers them), OE numbers' parts set, then the version noted. One pass over the parts
 * (`eachPart` hands over each part's id, words and OE keys), for the start and the backfill, never
 * for a search.
 */
export async function rebuildVocabulary(
  eachPart: () => AsyncIterable<{ _id: mongoose.Types.ObjectId; words?: string[] | null; oeKeys?: string[] | null }>,
) {
  const counts = new Map<string, number>();
  const oe = new Map<string, mongoose.Types.ObjectId[]>();
  for await (const part of eachPart()) {
    for (const word of vocabularyWords(part.words ?? [])) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const key of new Set(part.oeKeys ?? [])) oe.set(key, [...(oe.get(key) ?? []), part._id]);
  }
  const existing = await SearchVocabulary.find({ _id: { $regex: `^(${WORD}|${OE})` } })
    .select({ _id: 1 })
    .lean();
  const writes: mongoose.AnyBulkWriteOperation<VocabularyDoc>[] = [];
  const flush = async () => {
    await upsert(writes.splice(0));
  };
  for (const [word, count] of counts) {
    writes.push({ updateOne: { filter: { _id: WORD + word }, update: { $set: { n: count } }, upsert: true } });
    writes.push(...keyWrites(word));
    if (writes.length >= 2000) await flush();
  }
  for (const [key, ids] of oe) {
    writes.push({ updateOne: { filter: { _id: OE + key }, update: { $set: { ids } }, upsert: true } });
    if (writes.length >= 2000) await flush();
  }
  for (const { _id } of existing) {
    const gone = _id.startsWith(WORD) ? !counts.has(_id.slice(WORD.length)) : !oe.has(_id.slice(OE.length));
    if (gone)
      writes.push({ updateOne: { filter: { _id }, update: { $set: _id.startsWith(WORD) ? { n: 0 } : { ids: [] } } } });
    if (writes.length >= 2000) await flush();
  }
  writes.push({
    updateOne: { filter: { _id: META }, update: { $set: { version: VOCABULARY_VERSION } }, upsert: true },
  });
  await flush();
  return counts.size;
}
