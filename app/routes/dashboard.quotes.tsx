import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Pagination } from "~/components/pagination";
import { QuoteStatusBadge } from "~/components/quote-status";
import { orderPath } from "~/domain/order-lines";
import { quotePath } from "~/domain/quotes";
import { NEW_QUOTE_PATH } from "~/forms/quote-forms";
import { parsePage } from "~/forms/shop-forms";
import { formatCents, formatDate, formatQuantity } from "~/format";
import { quotesForCustomer } from "~/orders/quotes.server";
import { can } from "~/services/companies.server";
import { requireCustomer } from "~/services/guards.server";

/** My Quotes: the buyer's own requests, or (owners, accounts) every request of the company, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const result = await quotesForCustomer(user, page);
  const quotes = result.quotes.map((quote) => ({
    id: quote.id,
    label: quote.label,
    status: quote.status,
    lineCount: quote.lines.length,
    summary: quote.lines
      .slice(0, 2)
      .map((line) => `${formatQuantity(line.quantity)} × ${line.partNumber}`)
      .join(", "),
    latest: quote.current
      ? {
          label: quote.current.label,
          net: formatCents(quote.current.netCents, { currency: quote.currency }),
          validUntil: quote.current.validUntil,
        }
      : null,
    order: quote.orderId ? { id: quote.orderId, number: quote.orderNumber } : null,
    createdAt: quote.createdAt,
    askedBy: quote.userId === user.id ? null : quote.userName,
  }));
  return data(
    { quotes, page: result.page, pageCount: result.pages, total: result.total, mayRequest: can(user, "order") },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

export default function MyQuotes() {
  const { quotes, page, pageCount, total, mayRequest } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">My Quotes</h1>
        {mayRequest ? (
          <Link
            to={NEW_QUOTE_PATH}
            className="inline-flex min-h-11 items-center rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
          >
            Request a quote
          </Link>
        ) : null}
      </div>
      {total === 0 ? (
        <div className="mt-4 max-w-2xl text-slate-700" data-testid="quotes-empty">
          <p>You have no quotes yet.</p>
          <p className="mt-2">
            Buying larger quantities, or the same parts every month? Ask us for a quote: list the parts and quantities
            (from your cart, a saved list or the quick-order pad), a target price if you have one, and when you need
            them. We answer within a working day with prices, lead times and how long they hold; accepting the quote
            places the order at those prices.
          </p>
          {mayRequest ? (
            <p className="mt-3">
              <Link to={NEW_QUOTE_PATH} className={linkClass}>
                Request your first quote
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {formatQuantity(total)} {total === 1 ? "quote" : "quotes"}, newest first.
          </p>
          <ul className="mt-4 divide-y divide-slate-200 rounded border border-slate-200 bg-white" data-testid="quotes">
            {quotes.map((quote) => (
              <li key={quote.id} className="grid gap-2 p-4 sm:grid-cols-[10rem_1fr_auto] sm:items-start">
                <div>
                  <Link to={quotePath(quote.id)} className={`${linkClass} text-lg`}>
                    {quote.label}
                  </Link>
                  <p className="text-xs text-slate-600">Asked {formatDate(quote.createdAt)}</p>
                </div>
                <div className="text-sm text-slate-800">
                  <QuoteStatusBadge status={quote.status} />
                  <p className="mt-1">
                    {quote.summary}
                    {quote.lineCount > 2 ? ` and ${quote.lineCount - 2} more` : ""}
                  </p>
                  {quote.askedBy ? <p className="text-slate-600">Asked by {quote.askedBy}</p> : null}
                </div>
                <div className="text-sm sm:text-right">
                  {quote.latest ? (
                    <p>
                      <span className="font-medium">{quote.latest.label}</span>: {quote.latest.net} net
                      {quote.status === "quoted" ? (
                        <span className="block text-slate-600">Valid until {formatDate(quote.latest.validUntil)}</span>
                      ) : null}
                    </p>
                  ) : (
                    <p className="text-slate-600">No version yet</p>
                  )}
                  {quote.order ? (
                    <Link to={orderPath(quote.order.id)} className={linkClass}>
                      Order {quote.order.number}
                    </Link>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} pageCount={pageCount} label="My Quotes pages" />
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "My Quotes — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
