import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
  SerializeFrom,
} from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { z } from "zod";
import { PartGrid } from "~/components/part-card";
import { useOptionalUser, type RootLoader } from "~/root";
import { ActiveFilters, FacetLists, FiltersPanel, RememberedVehicle, VehiclePicker } from "~/components/parts-filters";
import { KeysetPagination, PartsEmptyState, PartsSearchForm } from "~/components/parts-list";
import { MissingNumbers, SearchNotes } from "~/components/parts-search-notes";
import { publicPageHeadersFunction } from "~/services/cache.server";
import { cataloguePage } from "~/services/catalogue-page.server";
import { parsePartsSearch } from "~/services/parts-search.server";
import { clientIp } from "~/services/rate-limit.server";
import { isNarrowed, partsHref } from "~/domain/parts-url";
import { PARTS_PER_PAGE } from "~/domain/search";
import { CART_PATH } from "~/forms/cart-forms";
import { readForm } from "~/services/form.server";
import type { HydrateHandle } from "~/hooks/hydrated";
import { forgetVehicle } from "~/services/vehicle.server";

/** The catalogue: a search's parts, a part number's one part (a redirect), or why a search is not shown. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const submission = parsePartsSearch(new URL(request.url).searchParams);
  return cataloguePage(request, submission, clientIp(context));
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
  const first = (state.page - 1) * PARTS_PER_PAGE + 1;
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
      <PartsSearchForm key={`${state.q}\n${state.sort}`} result={data.result} state={state} />

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
            <PartsEmptyState state={state} narrowed={narrowed} suggestions={data.suggestions} />
          )}

          {pageCount > 1 && parts.length ? (
            <KeysetPagination state={state} pageCount={pageCount} cursors={cursors} />
          ) : null}
        </div>
      </div>
    </div>
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
