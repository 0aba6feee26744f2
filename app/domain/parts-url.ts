/**
 * The /parts address of a search: every choice lives in the URL, so a list can be shared,
 * bookmarked and reached with the back button. Shared by the page's links, its forms and the
 * canonical URL, so parameters always come in one order.
 */
import type { PartSort } from "~/domain/search";

export type PartsState = {
  q: string;
  sort: PartSort;
  category: string | null;
  brand: string | null;
  inStock: boolean;
  make: string | null;
  model: string | null;
  year: number | null;
  page: number;
  after?: string | null;
  before?: string | null;
};

export const EMPTY_PARTS_STATE: PartsState = {
  q: "",
  sort: "newest",
  category: null,
  brand: null,
  inStock: false,
  make: null,
  model: null,
  year: null,
  page: 1,
};

export function partsParams(state: PartsState, { forCanonical = false }: { forCanonical?: boolean } = {}) {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.category) params.set("category", state.category);
  if (state.brand) params.set("brand", state.brand);
  if (state.inStock) params.set("stock", "in");
  if (state.make) params.set("make", state.make);
  if (state.make && state.model) params.set("model", state.model);
  if (state.make && state.model && state.year) params.set("year", String(state.year));
  if (!forCanonical && state.sort !== "newest") params.set("sort", state.sort);
  if (state.page > 1) params.set("page", String(state.page));
  // Page 1 needs no cursor: it is the start of the index. The canonical URL never has one.
  if (!forCanonical && state.page > 1 && state.after) params.set("after", state.after);
  else if (!forCanonical && state.page > 1 && state.before) params.set("before", state.before);
  return params;
}

/** The address of this search with some choices changed; any change of filter goes to page 1. */
export function partsHref(state: PartsState, changes: Partial<PartsState> = {}) {
  const filtersChanged = Object.keys(changes).some((key) => !["page", "after", "before"].includes(key));
  const next: PartsState = {
    ...state,
    after: null,
    before: null,
    ...(filtersChanged ? { page: 1 } : {}),
    ...changes,
  };
  const search = partsParams(next).toString();
  return search ? `/parts?${search}` : "/parts";
}

/** Whether anything narrows the list (text, category, brand, stock or vehicle). */
export function isNarrowed(state: PartsState) {
  return Boolean(state.q || state.category || state.brand || state.inStock || state.make);
}
