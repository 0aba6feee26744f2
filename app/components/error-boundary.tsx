import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { REQUEST_ID_ATTRIBUTE, useRequestId } from "~/hooks/request-id";
import { CANNOT_SAVE } from "../../shared/outage-words";

const titles: Record<number, string> = {
  400: "That request could not be understood",
  403: "You do not have access to this page",
  404: "We could not find that page",
  405: "That action is not allowed here",
  429: "Too many attempts",
  503: "We'll be right back",
};

/**
 * What an error page is titled, on the page and in its <title> (a route's `meta` gets the error):
 * a 503 for a full database disk says nothing can be saved, any other 503 that we'll be right back.
 */
export function errorTitle(error: unknown) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 503 && isRouteErrorResponse(error) && String(error.data).startsWith(CANNOT_SAVE))
    return "We cannot save changes right now";
  return titles[status] ?? "Something went wrong on our side";
}

/** One error page for every route: the status, a plain explanation and ways forward. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = errorTitle(error);
  const detail =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data.length < 200
      ? error.data
      : status === 404
        ? "The part or page may have been removed, or the address has a typo."
        : status >= 500
          ? "Please try again in a moment. If it keeps happening, contact us."
          : null;
  const requestId = useRequestId();
  if (status >= 500 && typeof document !== "undefined") console.error(error);
  return <ErrorPage status={status} title={title} detail={detail} reference={status >= 500 ? requestId : null} />;
}

export function ErrorPage({
  status,
  title,
  detail,
  reference,
}: {
  status: number;
  title: string;
  detail?: string | null;
  /** The request id to quote when contacting the shop. */
  reference?: string | null;
}) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-12 text-center" data-status={status}>
      <img
        src="/images/error.svg"
        alt={`Error ${status}: a broken gear`}
        width={320}
        height={240}
        className="h-auto w-64"
      />
      <h1 className="mt-6 text-3xl font-bold">{title}</h1>
      <p className="mt-2 text-lg text-slate-600">Error {status}</p>
      {detail ? <p className="mt-4 text-slate-700">{detail}</p> : null}
      {reference ? (
        <p className="mt-4 text-sm text-slate-600" {...{ [REQUEST_ID_ATTRIBUTE]: reference }}>
          If you contact us about this, please quote the reference{" "}
          <code className="break-all font-mono">{reference}</code>.
        </p>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <Link
          to="/"
          className="inline-flex min-h-11 items-center rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
        >
          Go to the home page
        </Link>
        <Link
          to="/parts"
          className="inline-flex min-h-11 items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Browse parts
        </Link>
        {status === 503 ? (
          // An order or payment sent while the shop was away may have been saved: this is where to look.
          <Link
            to="/dashboard/orders"
            className="inline-flex min-h-11 items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
          >
            My Orders
          </Link>
        ) : null}
      </div>
    </section>
  );
}
