import { escapeRegExp, normalizeSearch, type PartSort } from "~/domain/search";
import { vehicleKey, type Category } from "~/domain/catalogue";
import { queryClauses, type QueryClause } from "~/domain/search-text";

/**
 * Which equality leads a listing index: the search terms, the vehicle, the category or the brand
 * (the first of them a request has), or none. After it come the sort and then every other filter
 * of /parts, so the database walks the index in page order, tests the other filters on the index
 * keys, and fetches only the documents the page shows.
 */
export const LISTING_LEADS = ["terms", "vehicleKeys", "category", "brand", "none"] as const;
export type ListingLead = (typeof LISTING_LEADS)[number];
const INDEX_SORTS = { newest: { createdAt: -1, _id: -1 }, price: { priceCents: 1, _id: 1 } } as const;

export function listingIndex(lead: ListingLead, sort: PartSort): Record<string, 1 | -1> {
  const others: string[] =
    lead === "brand"
      ? ["availableQuantity"]
      : lead === "category"
        ? ["brand", "availableQuantity"]
        : ["category", "brand", "availableQuantity"];
  return {
    ...(lead === "none" ? {} : { [lead]: 1 }),
    ...INDEX_SORTS[sort === "newest" ? "newest" : "price"],
    ...Object.fromEntries(others.map((field) => [field, 1])),
  };
}

/** The narrowing filters of /parts besides the search text; each is optional. */
export type CatalogueFilters = {
  category?: Category | null;
  brand?: string | null;
  /** Only parts with stock left. */
  inStock?: boolean;
  /** A make, a make and model, or a whole vehicle with its year. */
  vehicle?: { make: string; model?: string | null; year?: number | null } | null;
  /**
   * Catalogue words near mistyped words, by the word typed (the search's second read, when the words
   * as typed find nothing: catalogue-search.server.ts, forgivingFilters).
   */
  corrections?: Record<string, string[]> | null;
};

/**
 * The search text as a filter: every word typed (or one of its forms: search-text.ts, queryClauses)
 * starts a word of the name, brand or category, or a piece of the part number or an OE number (so
 * "PW 1012", "pw-1012" and "PW1012" all find PW-1012). Each word is an equality (or an $in) on
 * `terms`; input is reduced to letters and digits first, so nothing typed has a meaning to the database.
 */
function textFilter(clauses: QueryClause[]) {
  // Only punctuation was typed: it matches nothing (rather than everything).
  if (clauses.length === 0) return { _id: { $exists: false } };
  const each = clauses.map((clause) => {
    const terms = clause.terms;
    return terms.length === 1 ? { terms: terms[0] } : { terms: { $in: terms } };
  });
  return each.length === 1 ? each[0] : { $and: each };
}

/** The clauses of what was typed: null when nothing was, empty when only punctuation was. */
function typedClauses(query: string | null | undefined, corrections: CatalogueFilters["corrections"] = null) {
  const text = normalizeSearch(query);
  return text ? queryClauses(text, { corrections }) : null;
}

/**
 * A search's filter with the same test on the words in front: true of every part the terms find.
 * Only for reads that fetch just the cards they return (a first page, a page after a cursor): there
 * it costs MongoDB nothing, and the local database, which reads every part its index names for the
 * first term and tests each, tests a part's few words before its many terms. Never in a count or a skip, which MongoDB answers from the
 * index keys and would otherwise fetch every part to test.
 */
export function withWordsTest(
  filter: object,
  query: string | null | undefined,
  corrections: CatalogueFilters["corrections"] = null,
) {
  const clauses = typedClauses(query, corrections) ?? [];
  if (clauses.length === 0) return filter;
  const test = (clause: QueryClause) => {
    const each = clause.terms.map((term) => ({ words: { $regex: `^${escapeRegExp(term)}` } }));
    return each.length === 1 ? each[0] : { $or: each };
  };
  return { $and: [...clauses.map(test), filter] };
}

/** The index a /parts request is read along (listingIndex): the first equality it has, or none. */
export function listingLead(query: string | null | undefined, filters: CatalogueFilters = {}): ListingLead {
  if (typedClauses(query)?.length) return "terms";
  if (filters.vehicle) return "vehicleKeys";
  if (filters.category) return "category";
  if (filters.brand) return "brand";
  return "none";
}

/** Text was typed, but nothing in it can be searched for ("--"): nothing matches, no query needed. */
export function searchesNothing(query: string | null | undefined) {
  return typedClauses(query)?.length === 0;
}

/** The filter for a storefront search: the text and every chosen filter, all of them at once. */
export function partSearchFilter(query: string | null | undefined, filters: CatalogueFilters = {}) {
  const clauses: object[] = [];
  const typed = typedClauses(query, filters.corrections);
  if (typed) clauses.push(textFilter(typed));
  if (filters.vehicle) clauses.push({ vehicleKeys: vehicleKey(filters.vehicle) });
  if (filters.category) clauses.push({ category: filters.category });
  if (filters.brand) clauses.push({ brand: filters.brand });
  if (filters.inStock) clauses.push({ availableQuantity: { $gt: 0 } });
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}
