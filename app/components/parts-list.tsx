/**
 * The pieces of the catalogue page (/parts) around its cards: the search form, what an empty list
 * says, and the page links, whose neighbours are reached by cursor.
 */
import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { DidYouMean } from "~/components/parts-search-notes";
import { EMPTY_PARTS_STATE, partsHref, type PartsState } from "~/domain/parts-url";
import { PART_SORT_LABELS, PART_SORTS, SEARCH_MAX_LENGTH } from "~/domain/search";

export function PartsEmptyState({
  state,
  narrowed,
  suggestions,
}: {
  state: PartsState;
  narrowed: boolean;
  suggestions: { q: string; label: string }[];
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

export function PartsSearchForm({ result, state }: { result: SubmissionResult<string[]> | null; state: PartsState }) {
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
export function KeysetPagination({
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
