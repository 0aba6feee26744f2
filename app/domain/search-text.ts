/**
 * Forgiving search, the pure half: how a part's words become keys (stored with the part) and how
 * what a buyer typed becomes clauses on those keys. Plurals and other endings, synonyms and
 * British/American spellings (app/content/search-synonyms.ts), words run together or split, and
 * typing errors (edit distance through "deletion keys") are all equalities on the one `terms`
 * array, so the database answers them along the index it already has.
 */
import { SEARCH_SYNONYMS } from "~/content/search-synonyms";
import { JOINED_UNIT, SEARCH_TERM_MAX_LENGTH, searchWords } from "./catalogue";

/** Words this long or longer forgive one typing error; from FUZZY_TWO_ERRORS_LENGTH, two. */
export const FUZZY_MIN_LENGTH = 5;
export const FUZZY_TWO_ERRORS_LENGTH = 8;
/** Deletion keys sit in `terms` beside the prefixes, marked so they never equal a prefix. */
export const FUZZY_MARK = "~";

const cut = (word: string) => word.slice(0, SEARCH_TERM_MAX_LENGTH);
const isWord = (word: string) => /^[a-z]+$/.test(word);

/**
 * The endings a word may be typed with, taken off: "pads" is also "pad", "batteries" also
 * "batter(y|i)", "fitted" also "fitt" and "fit". Only the word itself when it has digits. A light
 * stemmer is enough because a part's terms are every prefix of its words: the stem need only
 * start the catalogue's word.
 */
export function stemVariants(word: string): string[] {
  const variants = [word];
  if (!isWord(word) || word.length < 4) return variants;
  const add = (stem: string) => {
    if (stem.length >= 3) variants.push(stem);
  };
  if (word.endsWith("ies") && word.length > 4) add(`${word.slice(0, -3)}y`);
  if (word.endsWith("ves") && word.length > 4) add(`${word.slice(0, -3)}f`);
  if (/(ss|sh|ch|x|z|o)es$/.test(word)) add(word.slice(0, -2));
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) add(word.slice(0, -1));
  if (word.endsWith("ing") && word.length > 5) add(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) add(word.slice(0, -2));
  if (/[^aeiou]y$/.test(word) && word.length > 3) add(`${word.slice(0, -1)}i`);
  const last = variants[variants.length - 1];
  if (variants.length > 1 && /(.)\1$/.test(last) && /(ed|ing)$/.test(word)) add(last.slice(0, -1));
  return [...new Set(variants)];
}

/** One form of a word for comparing words with each other (synonyms): its shortest stem. */
export function stem(word: string) {
  return stemVariants(word).reduce((short, variant) => (variant.length < short.length ? variant : short));
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment): "radaitor" is one
 * error away from "radiator", "filtr" one from "filter". Stops counting above `max`.
 */
export function editDistance(a: string, b: string, max = Infinity) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2][j - 2] + 1);
      rows[i][j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** The word and every string left after deleting up to `depth` of its letters. */
export function deletions(word: string, depth: number): string[] {
  const found = new Set([word]);
  let frontier = [word];
  for (let step = 0; step < depth; step++) {
    const next: string[] = [];
    for (const text of frontier) {
      for (let index = 0; index < text.length; index++) {
        const shorter = text.slice(0, index) + text.slice(index + 1);
        if (!found.has(shorter)) {
          found.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return [...found];
}

/**
 * A part's deletion keys (symmetric delete): each word of four letters or more as it is, and,
 * from FUZZY_MIN_LENGTH, with any one letter taken out. A typed word matches when one of its own
 * deletion keys (fuzzyQueryKeys) is one of these: one letter wrong, missing, extra or two swapped.
 */
export function fuzzyKeys(words: readonly string[]) {
  const keys = new Set<string>();
  for (const word of words.map(cut)) {
    if (!isWord(word) || word.length < FUZZY_MIN_LENGTH - 1) continue;
    for (const key of deletions(word, word.length >= FUZZY_MIN_LENGTH ? 1 : 0)) keys.add(FUZZY_MARK + key);
  }
  return [...keys];
}

/** The deletion keys of a typed word: one letter out, two from FUZZY_TWO_ERRORS_LENGTH. */
export function fuzzyQueryKeys(word: string) {
  const typed = cut(word);
  if (!isWord(typed) || typed.length < FUZZY_MIN_LENGTH) return [];
  const depth = typed.length >= FUZZY_TWO_ERRORS_LENGTH ? 2 : 1;
  return deletions(typed, depth)
    .filter((key) => key.length >= FUZZY_MIN_LENGTH - 1)
    .map((key) => FUZZY_MARK + key);
}

/** Two neighbouring words run together ("spark plug": "sparkplug"), stored so a buyer may type either. */
export function joinedPairs(words: readonly string[]) {
  const pairs: string[] = [];
  for (let index = 0; index + 1 < words.length; index++) {
    if (isWord(words[index]) && isWord(words[index + 1])) pairs.push(words[index] + words[index + 1]);
  }
  return pairs;
}

/** One typed word as a clause: the part must have one of these terms (prefixes of its words). */
export type QueryClause = { typed: string; terms: string[] };

const SYNONYM_ENTRIES = SEARCH_SYNONYMS.map((group) => group.map((entry) => searchWords(entry)));

/**
 * What was typed as clauses, one per word, all of which a part must meet. Each clause holds the
 * word, its stems, the word joined with its neighbour (typed apart, stored together), and, for
 * a run of words that is one entry of a synonym group, the group's other entries (written as one
 * word: a part stores its neighbouring words joined), and the catalogue words near a mistyped word
 * (`corrections`). Empty when nothing searchable was typed.
 */
export function queryClauses(
  text: string,
  { corrections = null }: { corrections?: Record<string, string[]> | null } = {},
): QueryClause[] {
  const words = searchWords(text).map(cut);
  const clauses = words.map((word) => ({ typed: word, terms: new Set(stemVariants(word)) }));
  for (let index = 0; index + 1 < words.length; index++) {
    const [first, second] = [words[index], words[index + 1]];
    if (!isWord(first) || !isWord(second)) continue;
    const joined = cut(first + second);
    clauses[index].terms.add(joined);
    clauses[index + 1].terms.add(joined);
  }
  // A number and a unit read apart are also the start of a word typed whole ("8947A" of part number 8947ADF).
  for (let index = 0; index + 1 < words.length; index++) {
    const joined = cut(words[index] + words[index + 1]);
    if (!JOINED_UNIT.test(joined)) continue;
    clauses[index].terms.add(joined);
    clauses[index + 1].terms.add(joined);
  }
  const stems = words.map(stem);
  for (const group of SYNONYM_ENTRIES) {
    for (const entry of group) {
      const wanted = entry.map(stem);
      for (let start = 0; start + wanted.length <= words.length; start++) {
        if (!wanted.every((word, offset) => stems[start + offset] === word)) continue;
        for (const other of group) {
          if (other === entry) continue;
          for (let offset = 0; offset < wanted.length; offset++) {
            for (const variant of stemVariants(cut(other.join("")))) clauses[start + offset].terms.add(variant);
          }
        }
      }
    }
  }
  // Catalogue words near a mistyped word (found first, see forgivingFilters): whole words, as prefixes.
  for (const clause of clauses) for (const word of corrections?.[clause.typed] ?? []) clause.terms.add(cut(word));
  // Unique clauses, the most selective (longest shortest term) first: the database narrows by it.
  const seen = new Set<string>();
  return clauses
    .map((clause) => ({ typed: clause.typed, terms: [...clause.terms] }))
    .filter((clause) => {
      const key = [...clause.terms].sort().join(" ");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => shortest(b.terms) - shortest(a.terms));
}

const shortest = (terms: string[]) => Math.min(...terms.map((term) => term.length));

/**
 * The typed text as a list of part numbers, when it is one: two or more entries separated by
 * commas, semicolons, new lines or spaces, each with a digit ("PW1003 pw-1005", "PW 1003, PW 1005":
 * a prefix of letters alone is joined to the digits after it). Null otherwise.
 */
export function partNumberList(text: string): string[] | null {
  const entries: string[] = [];
  for (const segment of text.split(/[,;\n\r\t]+/)) {
    const tokens = segment.trim().split(/\s+/).filter(Boolean);
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index];
      const next = tokens[index + 1];
      if (!/\d/.test(token) && next && /^\d/.test(next) && /^[A-Za-z]{1,4}-?$/.test(token)) {
        entries.push(`${token}${next}`);
        index++;
      } else {
        entries.push(token);
      }
    }
  }
  const numbers = entries.map((entry) => entry.trim()).filter(Boolean);
  if (numbers.length < 2) return null;
  if (!numbers.every((entry) => /\d/.test(entry) && entry.replace(/[^A-Za-z0-9]/g, "").length >= 3)) return null;
  return numbers;
}

/**
 * The catalogue words nearest to a typed word, best first: the fewest errors, then the most
 * common (`counts`), then alphabetical. At most `max` errors (by default, for "did you mean": three
 * from eight letters, two from five, one below).
 */

/** How many errors a search forgives in a word of this length: one from five letters, two from eight. */
export function forgivenErrors(word: string) {
  return word.length >= FUZZY_TWO_ERRORS_LENGTH ? 2 : word.length >= FUZZY_MIN_LENGTH ? 1 : 0;
}
export function nearestWords(
  typed: string,
  candidates: Map<string, number>,
  limit = 3,
  max = typed.length >= FUZZY_TWO_ERRORS_LENGTH ? 3 : typed.length >= FUZZY_MIN_LENGTH ? 2 : 1,
) {
  return [...candidates.entries()]
    .filter(([word]) => word !== typed && isWord(word))
    .map(([word, count]) => ({ word, count, distance: editDistance(typed, word, max) }))
    .filter((entry) => entry.distance <= max)
    .sort((a, b) => a.distance - b.distance || b.count - a.count || a.word.localeCompare(b.word))
    .slice(0, limit)
    .map((entry) => entry.word);
}
