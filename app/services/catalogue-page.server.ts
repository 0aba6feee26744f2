/**
 * The catalogue page (/parts): what a search finds, priced for the visitor, with the vehicle they
 * drive and the page's status, caching and cookies. The route's loader answers with it as it is.
 */
import type { SubmissionResult } from "@conform-to/react";
import { data as dataWithInit, redirect } from "@remix-run/node";
import { vehicleLabel, type Vehicle } from "~/content/vehicles";
import { EMPTY_PARTS_STATE, partsParams, type PartsState } from "~/domain/parts-url";
import { PARTS_PER_PAGE, SEARCH_MAX_LENGTH } from "~/domain/search";
import { catalogueFacets, facetsTotal, idsFittingVehicle, type CatalogueFacets } from "~/models/part-catalogue.server";
import { listPartCards, type PartCardView } from "~/models/part-listing.server";
import { publicPageHeaders } from "~/services/cache.server";
import { takeCartRefusal, type CartRefusal } from "~/services/cart-refusal.server";
import {
  didYouMean,
  forgivingFilters,
  partNumberListSearch,
  withTypedVehicle,
  type Suggestion,
  type TypedVehicle,
} from "~/services/catalogue-search.server";
import { getEnv } from "~/services/env.server";
import { getUser } from "~/services/guards.server";
import { findPartByNumber } from "~/services/part-number.server";
import {
  parsePartsSearch,
  partsSearchSchema,
  pickedVehicle,
  searchFilters,
  type PartsSearch,
} from "~/services/parts-search.server";
import { priceCards } from "~/services/pricing.server";
import { shownCurrency } from "~/services/display-currency.server";
import { guardedSearch, normalizedQuery, searchRefusalMessage } from "~/services/search-guard.server";
import { getRememberedVehicle, rememberVehicle } from "~/services/vehicle.server";

const NO_FACETS: CatalogueFacets = { categories: [], brands: [], inStock: 0 };
const NO_SEARCH_NOTES = {
  typedVehicle: null as TypedVehicle | null,
  missingNumbers: null as string[] | null,
  forgiven: false,
  suggestions: [] as Suggestion[],
};

type Card = PartCardView & { fits: boolean };

function canonicalUrl(state: PartsState) {
  const search = partsParams(state, { forCanonical: true }).toString();
  return `${getEnv().PUBLIC_URL.replace(/\/+$/, "")}/parts${search ? `?${search}` : ""}`;
}

/** The page for a search that cannot be shown (400) or must wait (429): its text and sort as typed, no parts. */
function unshownSearch(
  request: Request,
  url: URL,
  remembered: Vehicle | null,
  result: SubmissionResult<string[]>,
  { status, headers = {} }: { status: 400 | 429; headers?: Record<string, string> },
) {
  const state: PartsState = {
    ...EMPTY_PARTS_STATE,
    q: (url.searchParams.get("q") ?? "").slice(0, SEARCH_MAX_LENGTH * 2),
    sort: partsSearchSchema.shape.sort.parse(url.searchParams.get("sort")),
  };
  return dataWithInit(
    {
      result,
      state,
      parts: [] as Card[],
      total: 0,
      pageCount: 0,
      cursors: { first: null, last: null } as { first: string | null; last: string | null },
      facets: NO_FACETS,
      fitsLabel: remembered ? vehicleLabel(remembered) : null,
      remembered,
      canonical: canonicalUrl(EMPTY_PARTS_STATE),
      refusal: null as CartRefusal | null,
      ...NO_SEARCH_NOTES,
      paused: status === 429,
    },
    { status, headers: { ...publicPageHeaders(request, { status }), ...headers } },
  );
}

/**
 * What the catalogue answers to a search: the same for everyone who asks it, so a text search's
 * answer may be kept a little while and served again (search-guard.server.ts). Prices, the vehicle
 * the visitor drives and cookies are the page's, per request.
 */
async function searchCatalogue(search: PartsSearch) {
  const { q = "", sort, page, after, before } = search;
  // A part number (or an OE number) typed exactly: straight to that part, when only one has it.
  if (q && page === 1 && !after && !before) {
    const part = await findPartByNumber(q);
    if (part) return { partId: part.id };
  }
  // Several part numbers at once: exactly those parts, in the order typed, and the ones not found.
  const numberList = q && page === 1 && !after && !before ? await partNumberListSearch(q) : null;
  // A make or model named in the text narrows to the parts that fit it (unless one is picked).
  const typed = withTypedVehicle(q, searchFilters(search));
  // The counts give the total too (one read fewer); the Previous/Next links carry a cursor, so a
  // page deep in the list is a range on the index.
  // When the words as typed find nothing, the same search again with typing errors forgiven.
  let facets: CatalogueFacets = NO_FACETS;
  const { filters, forgiven } = numberList
    ? { filters: typed.filters, forgiven: false }
    : await forgivingFilters(typed.text, typed.filters, async (tried) => {
        facets = await catalogueFacets(typed.text, tried);
        return facetsTotal(facets, tried);
      });
  const { parts, total, cursors } = numberList
    ? { parts: numberList.parts, total: numberList.parts.length, cursors: { first: null, last: null } }
    : await listPartCards({
        query: typed.text,
        filters,
        sort,
        page,
        perPage: PARTS_PER_PAGE,
        after,
        before,
        total: facetsTotal(facets, filters),
      });
  const suggestions = !numberList && total === 0 && page === 1 ? await didYouMean(typed.text) : [];
  return { partId: null, numberList, typed, forgiven, facets, parts, total, cursors, suggestions };
}

/**
 * The catalogue page for `submission` (the request's query, read by parsePartsSearch) from `ip`: a
 * list of parts, a redirect to the one part a part number names, a search that cannot be shown
 * (400), or one that must wait (429).
 */
export async function cataloguePage(request: Request, submission: ReturnType<typeof parsePartsSearch>, ip: string) {
  const url = new URL(request.url);
  const remembered = await getRememberedVehicle(request);
  if (submission.status !== "success")
    return unshownSearch(request, url, remembered, submission.reply(), { status: 400 });

  const search = submission.value;
  const { q = "", sort, page, after, before } = search;
  // A text search is counted per address and its answer kept a little while; browsing is neither.
  const searched = q
    ? await guardedSearch({ ip }, `parts\n${JSON.stringify({ ...search, q: normalizedQuery(q) })}`, () =>
        searchCatalogue(search),
      )
    : { refused: null, value: await searchCatalogue(search) };
  if (searched.refused) {
    const { retryAfterSeconds } = searched.refused;
    return unshownSearch(
      request,
      url,
      remembered,
      submission.reply({ formErrors: [searchRefusalMessage(searched.refused)] }),
      { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  }
  const found = searched.value;
  if (found.partId !== null)
    return redirect(`/parts/${found.partId}`, { headers: { "Cache-Control": "private, no-store" } });
  const { numberList, typed, forgiven, facets, parts: listed, total, cursors, suggestions } = found;

  const picked = pickedVehicle(search);
  const state: PartsState = {
    q,
    sort,
    page,
    after,
    before,
    category: typed.filters.category ?? null,
    brand: typed.filters.brand ?? null,
    inStock: Boolean(typed.filters.inStock),
    make: picked?.make ?? null,
    model: picked?.model ?? null,
    year: picked?.year ?? null,
  };
  // A whole vehicle picked is remembered for the session; the cards say which parts fit it.
  const chosen: Vehicle | null =
    picked?.model && picked.year ? { make: picked.make, model: picked.model, year: picked.year } : null;
  const fitsVehicle = chosen ?? remembered;
  const setCookie =
    chosen && (!remembered || vehicleLabel(remembered) !== vehicleLabel(chosen)) ? await rememberVehicle(chosen) : null;

  // A signed-in customer sees their own price (a page with a session cookie is never shared).
  const user = await getUser(request);
  const parts = await priceCards(user, listed, await shownCurrency(request, user));
  const fitting = new Set(
    chosen
      ? parts.map((part) => part.id)
      : fitsVehicle
        ? await idsFittingVehicle(
            parts.map((part) => part.id),
            fitsVehicle,
          )
        : [],
  );
  const count = total ?? 0;
  const pageCount = numberList ? 1 : Math.ceil(count / PARTS_PER_PAGE);
  // A page past the end exists for nobody: say so with a 404 (and a link back), not an empty 200.
  const status = page > Math.max(pageCount, 1) ? 404 : 200;
  // An "Add to cart" refused without JavaScript came back here: its message goes to that part's card.
  const { refusal, setCookie: forgetRefusal } = await takeCartRefusal(request);
  const headers = new Headers(publicPageHeaders(request, { status, setsCookie: Boolean(setCookie || forgetRefusal) }));
  if (setCookie) headers.append("Set-Cookie", setCookie);
  if (forgetRefusal) headers.append("Set-Cookie", forgetRefusal);
  return dataWithInit(
    {
      result: null,
      state,
      parts: parts.map((part): Card => ({ ...part, fits: fitting.has(part.id) })),
      total: count,
      pageCount,
      cursors,
      facets,
      fitsLabel: fitsVehicle ? vehicleLabel(fitsVehicle) : null,
      remembered: chosen ?? remembered,
      canonical: canonicalUrl(state),
      refusal,
      typedVehicle: typed.vehicle,
      missingNumbers: numberList?.missing ?? null,
      forgiven,
      suggestions,
      paused: false,
    },
    { status, headers },
  );
}
