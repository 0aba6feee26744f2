import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { PartGrid } from "~/components/part-card";
import { useOptionalUser } from "~/root";
import { listPartCards, type PartCardView } from "~/models/part.server";
import { publicPageHeaders, publicPageHeadersFunction } from "~/utils/cache.server";
import { parsePartsSearch, partsSearchSchema } from "~/utils/parts-search.server";
import { PART_SORT_LABELS, PART_SORTS, SEARCH_MAX_LENGTH, type PartSort } from "~/utils/search";

const PER_PAGE = 12;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const submission = parsePartsSearch(url.searchParams);
  if (submission.status !== "success") {
    const sort = partsSearchSchema.shape.sort.parse(url.searchParams.get("sort"));
    return json(
      {
        result: submission.reply(),
        q: url.searchParams.get("q") ?? "",
        sort,
        page: 1,
        parts: [] as PartCardView[],
        total: 0,
        pageCount: 0,
        cursors: { first: null, last: null },
      },
      { status: 400, headers: publicPageHeaders(request, { status: 400 }) },
    );
  }
  const { q = "", sort, page, after, before } = submission.value;
  // The Previous/Next links carry a cursor, so a page deep in the list is a range on the index.
  const { parts, total, cursors } = await listPartCards({ query: q, sort, page, perPage: PER_PAGE, after, before });
  const count = total ?? 0;
  const pageCount = Math.ceil(count / PER_PAGE);
  // A page past the end exists for nobody: say so with a 404 (and a link back), not an empty 200.
  const status = page > Math.max(pageCount, 1) ? 404 : 200;
  return json(
    { result: null, q, sort, page, parts, total: count, pageCount, cursors },
    { status, headers: publicPageHeaders(request, { status }) },
  );
}

export const headers = publicPageHeadersFunction;

/**
 * Sent without the framework's JavaScript, like the home page (see useHydrate in root.tsx): the
 * list is links and a GET form, which need none. Hydrating it cost the page Lighthouse's first
 * paint (the framework's scripts load at high priority, so the simulated first paint waited for
 * them) or, loaded later, its blocking time (hydration is one long task). The Search button's
 * pending state comes from the root's small static script instead.
 */
export const handle = { hydrate: false };

type Cursors = { first: string | null; last: string | null };

function pageHref({
  q,
  sort,
  page,
  after,
  before,
}: {
  q: string;
  sort: PartSort;
  page: number;
  after?: string | null;
  before?: string | null;
}) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (sort !== "newest") params.set("sort", sort);
  if (page > 1) params.set("page", String(page));
  // Page 1 needs no cursor: it is the start of the index.
  if (page > 1 && after) params.set("after", after);
  else if (page > 1 && before) params.set("before", before);
  const search = params.toString();
  return search ? `/parts?${search}` : "/parts";
}

export default function PartsList() {
  const data = useLoaderData<typeof loader>();
  const { q, sort, page, parts, total, pageCount, cursors } = data;
  const user = useOptionalUser();
  const first = (page - 1) * PER_PAGE + 1;
  const last = first + parts.length - 1;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">All Car Parts</h1>
      <p className="mt-2 text-slate-700">
        Every part we make, direct from the factory. Orders are in bulk: each part shows its minimum order.
      </p>

      {/* Remounts on every new search, so the fields show what the address says. */}
      <SearchForm key={`${q}\n${sort}`} result={data.result} q={q} sort={sort} />

      <p className="mt-6 text-slate-700" aria-live="polite" data-testid="results-summary">
        {data.result
          ? "Please correct the search."
          : parts.length
            ? `Showing ${first}–${last} of ${total} ${total === 1 ? "part" : "parts"}${q ? ` matching “${q}”` : ""}.`
            : null}
      </p>

      {parts.length ? (
        <div className="mt-4">
          <PartGrid parts={parts} headingLevel={2} eagerCount={3} label="Parts" addToCart={user?.role !== "admin"} />
        </div>
      ) : data.result ? null : total > 0 ? (
        <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center">
          <h2 className="text-xl font-semibold">There is no page {page}</h2>
          <p className="mt-2 text-slate-700">
            The list has {pageCount} {pageCount === 1 ? "page" : "pages"}.{" "}
            <Link to={pageHref({ q, sort, page: pageCount })} className="text-brand-700 underline">
              Go to the last page
            </Link>
          </p>
        </div>
      ) : (
        <div className="mt-8 rounded-lg border border-dashed border-slate-300 p-10 text-center" data-testid="empty-state">
          <h2 className="text-xl font-semibold">{q ? `No parts match “${q}”` : "No parts are listed yet"}</h2>
          <p className="mt-2 text-slate-700">
            {q ? (
              <>
                Check the spelling, search by part number (such as PW-1001), or{" "}
                <Link to="/parts" className="text-brand-700 underline">
                  see all parts
                </Link>
                .
              </>
            ) : (
              "Please check back soon."
            )}
          </p>
        </div>
      )}

      {pageCount > 1 && parts.length ? <Pagination q={q} sort={sort} page={page} pageCount={pageCount} cursors={cursors} /> : null}
    </div>
  );
}

function SearchForm({
  result,
  q,
  sort,
}: {
  result: ReturnType<typeof useLoaderData<typeof loader>>["result"];
  q: string;
  sort: PartSort;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "loading" && navigation.location?.pathname === "/parts";
  const [form, fields] = useForm({
    id: "parts-search",
    lastResult: result,
    defaultValue: { q, sort },
    // The server validates (parts-search.server.ts); the browser only enforces the length.
    constraint: { q: { maxLength: SEARCH_MAX_LENGTH } },
  });
  return (
    <Form
      method="get"
      action="/parts"
      {...getFormProps(form)}
      role="search"
      aria-label="Search parts"
      className="mt-6 grid gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-start"
    >
      <Field
        meta={fields.q}
        label="Search by name or part number"
        inputProps={{ type: "search", placeholder: "e.g. brake pad or PW-1001", autoComplete: "off" }}
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
      <SubmitButton pending={pending} pendingText="Searching…" className="sm:mt-6">
        Search
      </SubmitButton>
    </Form>
  );
}

function Pagination({
  q,
  sort,
  page,
  pageCount,
  cursors,
}: {
  q: string;
  sort: PartSort;
  page: number;
  pageCount: number;
  cursors: Cursors;
}) {
  // The neighbours are reached through this page's first and last card; page 1 and the last
  // page are cheap without a cursor (the last is read from the end of the index).
  const href = (n: number) =>
    pageHref({
      q,
      sort,
      page: n,
      after: n === page + 1 && n !== pageCount ? cursors.last : null,
      before: n === page - 1 ? cursors.first : null,
    });
  const pages = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((n) => n >= 1 && n <= pageCount)
    .sort((a, b) => a - b);
  const linkClass = "inline-flex min-h-11 min-w-[2.75rem] items-center justify-center rounded border px-3 py-2 text-sm font-medium";
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
  const page = data && data.page > 1 ? ` — page ${data.page}` : "";
  const search = data?.q ? `Parts matching “${data.q}”` : "All car parts";
  return [
    { title: `${search}${page} — PartsWorks` },
    {
      name: "description",
      content:
        "Browse every car part PartsWorks makes: brakes, filters, ignition, cooling and lighting. Search by name or part number, sort by price, and order in bulk.",
    },
  ];
};
