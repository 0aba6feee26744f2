/** Shop Today's lists: the orders and quotes waiting for the shop, and the parts to look at. */
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { DataTable } from "~/components/ui/data-table";
import type { Currency } from "~/domain/money";
import { staffQuotePath } from "~/domain/quotes";
import { STAFF_QUOTES_PATH } from "~/forms/quote-forms";
import { formatCents, formatDateTime, formatQuantity } from "~/format";

type PartColumn<Part> = { label: string; align?: "right"; cell: (part: Part) => ReactNode };

/**
 * A section of parts to look at: its heading with their number, a note, and a table with a row a part
 * (its name, or what `name` makes of it, over its part number) and `columns` after it; or a line
 * saying there are none.
 */
export function PartsSection<Part extends { id: string; name: string; partNumber: string }>({
  id,
  title,
  total,
  note,
  empty,
  caption,
  parts,
  rowTestId,
  name = (part) => part.name,
  columns,
}: {
  id: string;
  title: string;
  total: number;
  note: string;
  empty: string;
  caption: string;
  parts: Part[];
  rowTestId: string;
  name?: (part: Part) => ReactNode;
  columns: PartColumn<Part>[];
}) {
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="text-xl font-semibold">
        {title} ({formatQuantity(total)})
      </h2>
      <p className="text-sm text-slate-600">{note}</p>
      {parts.length === 0 ? (
        <p className="mt-2 text-slate-700">{empty}</p>
      ) : (
        <DataTable caption={caption} columns={[{ label: "Part" }, ...columns]}>
          {parts.map((part) => (
            <tr key={part.id} data-testid={rowTestId}>
              <th scope="row" className="px-3 py-2 font-medium">
                {name(part)}
                <span className="block text-xs font-normal text-slate-600">{part.partNumber}</span>
              </th>
              {columns.map((column) => (
                <td
                  key={column.label}
                  className={column.align === "right" ? "px-3 py-2 text-right" : "px-3 py-2"}
                  data-label={column.label}
                >
                  {column.cell(part)}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

type OrderToHandle = {
  id: string;
  number: string;
  summary: string;
  userName: string;
  userEmail: string;
  totalCents: number;
  /** The order's currency: its total is in it. */
  currency: Currency;
};

/** Orders waiting for the shop, oldest first: each with what `when` says of it, and a link to them all. */
export function OrdersToHandle<Order extends OrderToHandle>({
  id,
  title,
  list,
  when,
  moreHref,
  empty = "Nothing waiting.",
  oldest = "Oldest first.",
}: {
  id: string;
  title: string;
  list: { total: number; orders: Order[] };
  when: (order: Order) => string;
  moreHref: string;
  empty?: string;
  oldest?: string;
}) {
  return (
    <section aria-labelledby={id} data-testid={id} className="min-w-0">
      <h2 id={id} className="text-xl font-semibold">
        {title} ({formatQuantity(list.total)})
      </h2>
      <p className="text-sm text-slate-600">{oldest}</p>
      {list.orders.length === 0 ? (
        <p className="mt-2 text-slate-700">{empty}</p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
          {list.orders.map((order) => (
            <li key={order.id} className="break-words px-3 py-2 text-sm" data-testid="todo-order">
              <Link to={`/dashboard/manageOrders/${order.id}`} className="font-medium text-brand-700 underline">
                {order.number}
              </Link>{" "}
              {order.summary} for {order.userName} ({order.userEmail}),{" "}
              {formatCents(order.totalCents, { currency: order.currency })}
              <span className="block text-xs text-slate-600">{when(order)}</span>
            </li>
          ))}
        </ol>
      )}
      {list.total > list.orders.length ? (
        <Link
          to={moreHref}
          className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
        >
          All {formatQuantity(list.total)} in Manage Orders
        </Link>
      ) : null}
    </section>
  );
}

type QuoteToAnswer = {
  id: string;
  label: string;
  statusLabel: string;
  userName: string;
  companyName: string | null;
  lineCount: number;
  waitingSince: string | null;
};

/** Quote requests (and revisions asked) waiting for the shop's price, oldest first. */
export function QuotesToAnswer({ list }: { list: { total: number; quotes: QuoteToAnswer[] } }) {
  return (
    <section aria-labelledby="quotes-to-answer" data-testid="quotes-to-answer" className="min-w-0">
      <h2 id="quotes-to-answer" className="text-xl font-semibold">
        Quotes to answer ({formatQuantity(list.total)})
      </h2>
      <p className="text-sm text-slate-600">Oldest first.</p>
      {list.quotes.length === 0 ? (
        <p className="mt-2 text-slate-700">No quote requests wait for an answer.</p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
          {list.quotes.map((quote) => (
            <li key={quote.id} className="break-words px-3 py-2 text-sm" data-testid="todo-quote">
              <Link to={staffQuotePath(quote.id)} className="font-medium text-brand-700 underline">
                {quote.label}
              </Link>{" "}
              {quote.statusLabel}: {formatQuantity(quote.lineCount)} {quote.lineCount === 1 ? "line" : "lines"} for{" "}
              {quote.userName}
              {quote.companyName ? ` (${quote.companyName})` : ""}
              {quote.waitingSince ? (
                <span className="block text-xs text-slate-600">Waiting since {formatDateTime(quote.waitingSince)}</span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {list.total > list.quotes.length ? (
        <Link
          to={`${STAFF_QUOTES_PATH}?status=waiting`}
          className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
        >
          All {formatQuantity(list.total)} in Quotes
        </Link>
      ) : null}
    </section>
  );
}
