import { Link, useLocation, useSearchParams } from "@remix-run/react";

/** Previous / next links that keep the other query parameters (filters) of the page. */
export function Pagination({ page, pageCount, label }: { page: number; pageCount: number; label: string }) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  if (pageCount <= 1) return null;
  const hrefFor = (target: number) => {
    const params = new URLSearchParams(searchParams);
    if (target <= 1) params.delete("page");
    else params.set("page", String(target));
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  const linkClass =
    "inline-flex min-h-11 items-center rounded border border-brand-700 px-3 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50";
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={linkClass} rel="prev">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-slate-700">
        Page {page} of {pageCount}
      </p>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={linkClass} rel="next">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
