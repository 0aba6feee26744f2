/** Turning what a visitor typed into a search box into something safe to match with. Shared. */

export const SEARCH_MAX_LENGTH = 100;

/** Parts on one page of the catalogue (/parts). */
export const PARTS_PER_PAGE = 12;

/** Escapes every character that has a meaning in a regular expression, so input matches literally. */
export function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Trims the query and collapses runs of whitespace; an empty query is no query. */
export function normalizeSearch(query: string | null | undefined) {
  const text = (query ?? "").replace(/\s+/g, " ").trim();
  return text.length ? text : null;
}

/** The orders the parts list can be sorted in, with their labels. */
export const PART_SORTS = ["newest", "price-asc", "price-desc"] as const;
export type PartSort = (typeof PART_SORTS)[number];
export const PART_SORT_LABELS: Record<PartSort, string> = {
  newest: "Newest first",
  "price-asc": "Price: low to high",
  "price-desc": "Price: high to low",
};
