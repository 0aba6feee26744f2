import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
  SerializeFrom,
} from "@remix-run/node";
import { data as dataWithInit, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { PartGrid } from "~/components/part-card";
import { useOptionalUser, type RootLoader } from "~/root";
import { ActiveFilters, FacetLists, FiltersPanel, RememberedVehicle, VehiclePicker } from "~/components/parts-filters";
import { vehicleLabel, type Vehicle } from "~/content/vehicles";
import { catalogueFacets, facetsTotal, idsFittingVehicle, type CatalogueFacets } from "~/models/part-catalogue.server";
import { listPartCards, type PartCardView } from "~/models/part-listing.server";
import { getUser } from "~/services/guards.server";
import { priceCards } from "~/services/pricing.server";
import { publicPageHeaders, publicPageHeadersFunction } from "~/services/cache.server";
import { takeCartRefusal, type CartRefusal } from "~/services/cart-refusal.server";
import { getEnv } from "~/services/env.server";
import { findPartByNumber } from "~/services/part-number.server";
import {
  didYouMean,
  forgivingFilters,
  partNumberListSearch,
  withTypedVehicle,
  type Suggestion,
  type TypedVehicle,
} from "~/services/catalogue-search.server";
import { DidYouMean, MissingNumbers, SearchNotes } from "~/components/parts-search-notes";
import {
  parsePartsSearch,
  partsSearchSchema,
  pickedVehicle,
  searchFilters,
  type PartsSearch,
} from "~/services/parts-search.server";
import { clientIp } from "~/services/rate-limit.server";
import { guardedSearch, normalizedQuery, searchRefusalMessage } from "~/services/search-guard.server";
import { EMPTY_PARTS_STATE, isNarrowed, partsHref, partsParams, type PartsState } from "~/domain/parts-url";
import { PART_SORT_LABELS, PART_SORTS, SEARCH_MAX_LENGTH } from "~/domain/search";
import { CART_PATH } from "~/forms/cart-forms";
import { readForm } from "~/services/form.server";
import type { HydrateHandle } from "~/hooks/hydrated";
import { forgetVehicle, getRememberedVehicle, rememberVehicle } from "~/services/vehicle.server";

const PER_PAGE = 12;
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
 * the visitor drives and cookies are the loader's, per request.
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
        perPage: PER_PAGE,
        after,
        before,
        total: facetsTotal(facets, filters),
      });
  const suggestions = !numberList && total === 0 && page === 1 ? await didYouMean(typed.text) : [];
  return { partId: null, numberList, typed, forgiven, facets, parts, total, cursors, suggestions };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const remembered = await getRememberedVehicle(request);
  const submission = parsePartsSearch(url.searchParams);
  if (submission.status !== "success")
    return unshownSearch(request, url, remembered, submission.reply(), { status: 400 });

  const search = submission.value;
  const { q = "", sort, page, after, before } = search;
  // A text search is counted per address and its answer kept a little while; browsing is neither.
  const searched = q
    ? await guardedSearch(
        { ip: clientIp(context) },
        `parts\n${JSON.stringify({ ...search, q: normalizedQuery(q) })}`,
        () => searchCatalogue(search),
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
  const parts = await priceCards(await getUser(request), listed);
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
  const pageCount = numberList ? 1 : Math.ceil(count / PER_PAGE);
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

const forgetSchema = z.object({ intent: z.literal("forget-vehicle") });

/** "Forget this vehicle": the remembered vehicle is dropped and the list shown without it. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  if (!forgetSchema.safeParse({ intent: form.get("intent") }).success) {
    throw new Response("Unknown action", { status: 400 });
  }
  return redirect("/parts", { headers: { "Set-Cookie": await forgetVehicle() } });
}

/** A public page's caching (cache.server.ts), and when a search that must wait may come again. */
export const headers: HeadersFunction = (args) => {
  const headers = new Headers(publicPageHeadersFunction(args));
  const retryAfter = args.loaderHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

/**
 * Adding to the cart from a card (a fetcher, on the hydrated page) changes nothing the list shows
 * (a cart reserves no stock): only the root loads again, for the toast.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formAction,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => (formAction === CART_PATH && currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate);

/**
 * Visitors get the page without the framework's JavaScript (links and GET forms need none; why:
 * docs/performance.md, "Pages sent without the framework"); signed-in users get it hydrated.
 */
export const handle: HydrateHandle = {
  hydrate: (matches) => Boolean((matches.find((match) => match.id === "root")?.data as RootData | undefined)?.user),
};

type RootData = SerializeFrom<RootLoader> | null;

export default function PartsList() {
  const data = useLoaderData<typeof loader>();
  const { state, parts, total, pageCount, cursors, facets, fitsLabel, remembered } = data;
  const user = useOptionalUser();
  const first = (state.page - 1) * PER_PAGE + 1;
  const last = first + parts.length - 1;
  const narrowed = isNarrowed(state);
  const errors = data.result?.error ? Object.values(data.result.error).flat().filter(Boolean) : [];
  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">All Car Parts</h1>
      <p className="mt-2 text-sm text-slate-700 sm:text-base">
        Every part we make, direct from the factory. Orders are in bulk: each part shows its minimum order.
      </p>

      <RememberedVehicle state={state} remembered={remembered} />
      <SearchForm key={`${state.q}\n${state.sort}`} result={data.result} state={state} />

      {/* A phone sees the parts first: the filters fold behind one control (FiltersPanel). */}
      <div className="mt-4 grid gap-4 sm:mt-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-8">
        <FiltersPanel state={state}>
          <VehiclePicker state={state} />
          <FacetLists state={state} facets={facets} />
        </FiltersPanel>
        {/* Nothing typed widens the page: the search words break anywhere when they must. */}
        <div className="min-w-0 [overflow-wrap:anywhere]">
          <p className="text-slate-700" aria-live="polite" data-testid="results-summary">
            {data.result
              ? data.paused
                ? "Searching is paused for a moment."
                : "Please correct the search."
              : parts.length
                ? `Showing ${first}–${last} of ${total} ${total === 1 ? "part" : "parts"}${state.q ? ` matching “${state.q}”` : ""}.`
                : null}
          </p>
          <ActiveFilters state={state} />
          <SearchNotes
            state={state}
            typedVehicle={data.typedVehicle}
            forgiven={data.forgiven}
            listed={Boolean(data.missingNumbers)}
          />
          {data.missingNumbers?.length ? <MissingNumbers numbers={data.missingNumbers} /> : null}

          {errors.length ? (
            <div className="mt-4 rounded-lg border border-red-300 bg-red-50 p-6" data-testid="search-errors">
              <h2 className="text-xl font-semibold text-red-900">This search cannot be shown</h2>
              <ul className="mt-2 list-disc pl-5 text-red-900">
                {errors.map((error) => (
                  <li key={error}>{error}</li>
                ))}
              </ul>
              <p className="mt-3">
                <Link to="/parts" className="text-brand-700 underline">
                  Clear all filters
                </Link>
              </p>
            </div>
          ) : parts.length ? (
            <div className="mt-4">
              <PartGrid
                parts={parts}
                headingLevel={2}
                eagerCount={3}
                label="Parts"
                fitsLabel={fitsLabel}
                addToCart={user?.role !== "admin" && user?.mayOrder !== false}
                refusal={data.refusal}
              />
            </div>
          ) : total > 0 ? (
            <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center">
              <h2 className="text-xl font-semibold">There is no page {state.page}</h2>
              <p className="mt-2 text-slate-700">
                The list has {pageCount} {pageCount === 1 ? "page" : "pages"}.{" "}
                <Link to={partsHref(state, { page: pageCount })} className="text-brand-700 underline">
                  Go to the last page
                </Link>
              </p>
            </div>
          ) : (
            <EmptyState state={state} narrowed={narrowed} suggestions={data.suggestions} />
          )}

          {pageCount > 1 && parts.length ? (
            <KeysetPagination state={state} pageCount={pageCount} cursors={cursors} />
          ) : null}
        </div>
      </div>
    </div>
  );
}

function EmptyState({
  state,
  narrowed,
  suggestions,
}: {
  state: PartsState;
  narrowed: boolean;
  suggestions: Suggestion[];
}) {
  const filtered = Boolean(state.category || state.brand || state.inStock || state.make);
  return (
    <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center" data-testid="empty-state">
      <h2 className="text-xl font-semibold">
        {state.q
          ? `No parts match “${state.q}”`
          : narrowed
            ? "No parts match these filters"
            : "No parts are listed yet"}
      </h2>
      <DidYouMean state={state} suggestions={suggestions} />
      {narrowed ? (
        <p className="mt-2 text-slate-700">
          Check the spelling, search by part number (such as PW-1001){filtered ? ", remove a filter" : ""}, or{" "}
          {filtered && state.q ? (
            <>
              <Link to={partsHref(EMPTY_PARTS_STATE, { q: state.q })} className="text-brand-700 underline">
                search all parts for “{state.q}”
              </Link>{" "}
              or{" "}
            </>
          ) : null}
          <Link to="/parts" className="text-brand-700 underline">
            clear all filters and see all parts
          </Link>
          .
        </p>
      ) : (
        <p className="mt-2 text-slate-700">Please check back soon.</p>
      )}
    </div>
  );
}

function SearchForm({
  result,
  state,
}: {
  result: ReturnType<typeof useLoaderData<typeof loader>>["result"];
  state: PartsState;
}) {
  const navigation = useNavigation();
  // Pending for this form's own search only, not while a vehicle choice or a filter link loads.
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (navigation.state === "idle") setSearching(false);
  }, [navigation.state]);
  const pending = searching && navigation.state !== "idle";
  const [form, fields] = useForm({
    id: "parts-search",
    lastResult: result,
    defaultValue: { q: state.q, sort: state.sort },
    // The server validates (parts-search.server.ts); the browser only enforces the length.
    constraint: { q: { maxLength: SEARCH_MAX_LENGTH } },
  });
  const formProps = getFormProps(form);
  return (
    <Form
      method="get"
      action="/parts"
      {...formProps}
      onSubmit={(event) => {
        formProps.onSubmit(event);
        if (!event.defaultPrevented) setSearching(true);
      }}
      role="search"
      aria-label="Search parts"
      className="mt-4 grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3 rounded-lg border border-slate-200 bg-slate-50 p-3 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:gap-x-4 sm:p-4"
    >
      <Field
        className="col-span-2 sm:col-span-1"
        meta={fields.q}
        label="Search by name or part number"
        inputProps={{ type: "search", placeholder: "Brake pad, PW-1001, OE number", autoComplete: "off" }}
      />
      <div>
        <label htmlFor={fields.sort.id} className="mb-1 block text-sm font-medium text-slate-800">
          Sort by
        </label>
        <select
          {...getSelectProps(fields.sort)}
          key={fields.sort.key}
          className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
        >
          {PART_SORTS.map((value) => (
            <option key={value} value={value}>
              {PART_SORT_LABELS[value]}
            </option>
          ))}
        </select>
        <ErrorList id={fields.sort.errorId} errors={fields.sort.errors} />
      </div>
      {/* The filters chosen so far stay chosen when the text changes. */}
      {state.category ? <input type="hidden" name="category" value={state.category} /> : null}
      {state.brand ? <input type="hidden" name="brand" value={state.brand} /> : null}
      {state.inStock ? <input type="hidden" name="stock" value="in" /> : null}
      {state.make ? <input type="hidden" name="make" value={state.make} /> : null}
      {state.make && state.model ? <input type="hidden" name="model" value={state.model} /> : null}
      {state.make && state.model && state.year ? <input type="hidden" name="year" value={state.year} /> : null}
      <SubmitButton pending={pending} pendingText="Searching…" className="mt-6">
        Search
      </SubmitButton>
    </Form>
  );
}

// Page numbers whose neighbours are reached by cursor (components/pagination.tsx numbers pages only).
function KeysetPagination({
  state,
  pageCount,
  cursors,
}: {
  state: PartsState;
  pageCount: number;
  cursors: { first: string | null; last: string | null };
}) {
  const { page } = state;
  // The neighbours are reached through this page's first and last card; page 1 and the last
  // page are cheap without a cursor (the last is read from the end of the index).
  const href = (n: number) =>
    partsHref(state, {
      page: n,
      after: n === page + 1 && n !== pageCount ? cursors.last : null,
      before: n === page - 1 ? cursors.first : null,
    });
  const pages = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  const linkClass =
    "inline-flex min-h-11 min-w-[2.75rem] items-center justify-center rounded border px-3 py-2 text-sm font-medium";
  return (
    <nav aria-label="Pagination" className="mt-10 flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={`${linkClass} border-slate-300 hover:bg-slate-100`}>
          Previous<span className="sr-only"> page</span>
        </Link>
      ) : null}
      <ul className="flex flex-wrap items-center gap-2">
        {pages.map((n, index) => (
          <li key={n} className="flex items-center gap-2">
            {index > 0 && n - pages[index - 1] > 1 ? <span aria-hidden="true">…</span> : null}
            <Link
              to={href(n)}
              aria-current={n === page ? "page" : undefined}
              aria-label={`Page ${n}`}
              className={`${linkClass} ${n === page ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 hover:bg-slate-100"}`}
            >
              {n}
            </Link>
          </li>
        ))}
      </ul>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next" className={`${linkClass} border-slate-300 hover:bg-slate-100`}>
          Next<span className="sr-only"> page</span>
        </Link>
      ) : null}
    </nav>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const page = data && data.state.page > 1 ? ` — page ${data.state.page}` : "";
  const search = data?.state.q ? `Parts matching “${data.state.q}”` : "All car parts";
  return [
    { title: `${search}${page} — PartsWorks` },
    {
      name: "description",
      content:
        "Browse every car part PartsWorks makes: brakes, filters, ignition, cooling and lighting. Search by name, part number or OE number, pick your vehicle, and order in bulk.",
    },
    ...(data ? [{ tagName: "link", rel: "canonical", href: data.canonical }] : []),
  ];
};
