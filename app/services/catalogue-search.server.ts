/**
 * What /parts and GET /api/v1/parts make of a search before and after the catalogue's reads:
 * several part numbers at once, a vehicle named in the text, typing errors forgiven when the words
 * as typed find nothing, and "did you mean" when nothing is found at all. The reads themselves are
 * the catalogue's (part-listing.server.ts, part-catalogue.server.ts); the word rules are
 * app/domain/search-text.ts.
 */
import { searchWords } from "~/domain/catalogue";
import { forgivenErrors, fuzzyQueryKeys, partNumberList } from "~/domain/search-text";
import { vehicleInQuery, vehicleInQueryLabel } from "~/domain/vehicle-in-query";
import { listPartCardsByIds } from "~/models/part-listing.server";
import type { CatalogueFilters } from "~/models/part-query-plan.server";
import { isCatalogueWord, nearCatalogueWords, nearPartNumbers } from "~/models/part-suggest.server";
import { findPartsByNumbers, matchOf } from "./part-number.server";

/** The most part numbers one search lists (an invoice's worth). */
export const MAX_NUMBERS_AT_ONCE = 50;

/**
 * A search of two or more part or OE numbers: exactly those parts, in the order typed (a number
 * typed twice once), and the numbers that name none. Null when the text is not such a list, or
 * when none of it is a part number (then it is searched as words).
 */
export async function partNumberListSearch(q: string | null | undefined) {
  const numbers = q ? partNumberList(q)?.slice(0, MAX_NUMBERS_AT_ONCE) : null;
  if (!numbers) return null;
  const matches = await findPartsByNumbers(numbers);
  const ids: string[] = [];
  const missing: string[] = [];
  for (const typed of numbers) {
    const part = matchOf(matches, typed).part;
    if (!part) missing.push(typed);
    else if (!ids.includes(part.id)) ids.push(part.id);
  }
  if (ids.length === 0) return null;
  return { numbers, parts: await listPartCardsByIds(ids), missing };
}

export type TypedVehicle = { make: string; model: string | null; year: number | null; label: string; rest: string };

/**
 * A make or model named in the text narrows the search to parts that fit it, unless a vehicle is
 * picked already: the text searched is what is left. `vehicle` says what was understood.
 */
export function withTypedVehicle(q: string | null | undefined, filters: CatalogueFilters) {
  const found = q && !filters.vehicle ? vehicleInQuery(q) : null;
  if (!found) return { text: q ?? null, filters, vehicle: null as TypedVehicle | null };
  const vehicle = { make: found.make, model: found.model, year: found.year };
  return {
    text: found.rest || null,
    filters: { ...filters, vehicle },
    vehicle: { ...vehicle, label: vehicleInQueryLabel(found), rest: found.rest },
  };
}

/**
 * The catalogue words near each mistyped word of the text (one error from five letters, two from
 * eight), found through the parts' deletion keys; null when no word has any. Looked up first, so
 * the search itself is a short $in of whole words, never of every deletion key of what was typed.
 */
export async function typingCorrections(text: string | null) {
  const words = text ? searchWords(text).filter((word) => fuzzyQueryKeys(word).length > 0) : [];
  const found = await Promise.all(words.map((word) => nearCatalogueWords(word, 3, forgivenErrors(word))));
  const corrections = Object.fromEntries(
    words.flatMap((word, index) => (found[index].length ? [[word, found[index]]] : [])),
  );
  return Object.keys(corrections).length ? corrections : null;
}

/**
 * The filters to read with: as typed, or, when the words as typed find nothing (`count` is 0) and
 * a word is near a catalogue word, with that word too. Whole words rank first this way: a forgiven
 * read happens only when no part has the words as typed.
 */
export async function forgivingFilters(
  text: string | null,
  filters: CatalogueFilters,
  count: (filters: CatalogueFilters) => Promise<number>,
) {
  const exact = await count(filters);
  if (exact > 0) return { filters, count: exact, forgiven: false };
  const corrections = await typingCorrections(text);
  if (!corrections) return { filters, count: 0, forgiven: false };
  const forgiving = { ...filters, corrections };
  const forgiven = await count(forgiving);
  return forgiven > 0
    ? { filters: forgiving, count: forgiven, forgiven: true }
    : { filters, count: 0, forgiven: false };
}

export type Suggestion = { q: string; label: string };

/**
 * "Did you mean" for a search that found nothing: the text with an unknown word replaced by a
 * catalogue word near it, a part number near a number typed, or, when every word is known but not
 * together, each word alone. At most five.
 */
export async function didYouMean(text: string | null): Promise<Suggestion[]> {
  if (!text) return [];
  const words = searchWords(text).slice(0, 6);
  const suggestions: Suggestion[] = [];
  const add = (q: string) => {
    if (q && !suggestions.some((entry) => entry.q === q) && q !== words.join(" ")) suggestions.push({ q, label: q });
  };
  // A number typed: the part numbers next to it.
  if (/\d/.test(text)) for (const number of await nearPartNumbers(text)) add(number);
  const known = await Promise.all(words.map((word) => (/\d/.test(word) ? true : isCatalogueWord(word))));
  const near = await Promise.all(
    words.map((word, index) => (known[index] ? Promise.resolve([]) : nearCatalogueWords(word))),
  );
  // The text with every unknown word at its nearest, then each other near word in its place.
  if (near.some((list) => list.length)) {
    add(words.map((word, index) => near[index][0] ?? word).join(" "));
    words.forEach((_, index) => {
      for (const other of near[index].slice(1)) {
        add(words.map((word, at) => (at === index ? other : (near[at][0] ?? word))).join(" "));
      }
    });
  }
  // Words known but never together: each alone (a number's pieces are not words to offer).
  const plain = words.filter((word) => !/\d/.test(word));
  if (plain.length > 1 && known.every(Boolean)) for (const word of plain) add(word);
  return suggestions.slice(0, 5);
}
