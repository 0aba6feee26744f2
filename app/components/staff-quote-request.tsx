/** The staff quote page's reading parts: how a quote ended, what was asked for, and the conversation. */
import { Link } from "@remix-run/react";
import { DataTable, type Column } from "~/components/ui/data-table";
import type { Currency } from "~/domain/money";
import type { QuoteRequestLine } from "~/domain/quotes";
import { formatDay } from "~/domain/order-states";
import { formatCents, formatDateTime, formatQuantity } from "~/format";

/** What ended the quote: the order it placed, the reason it was declined, or its expiry. */
export function QuoteEnd({
  quote,
}: {
  quote: {
    status: string;
    orderId: string | null;
    orderNumber: string | null;
    acceptedVersion: number | null;
    acceptedAt: string | null;
    declineReason: string | null;
    label: string;
  };
}) {
  if (quote.status === "accepted")
    return (
      <p className="mt-4 rounded border-l-4 border-emerald-700 bg-emerald-50 p-3" data-testid="quote-end">
        Accepted{quote.acceptedVersion ? ` (${quote.label}-${quote.acceptedVersion})` : ""}
        {quote.acceptedAt ? ` on ${formatDateTime(quote.acceptedAt)}` : ""}:{" "}
        {quote.orderId ? (
          <Link to={`/dashboard/manageOrders/${quote.orderId}`} className="font-medium text-brand-700 underline">
            order {quote.orderNumber ?? ""}
          </Link>
        ) : (
          "its order is being placed"
        )}
        .
      </p>
    );
  if (quote.status === "declined")
    return (
      <p className="mt-4 rounded border-l-4 border-slate-500 bg-slate-50 p-3" data-testid="quote-end">
        Declined: {quote.declineReason ?? "no reason given"}
      </p>
    );
  if (quote.status === "expired")
    return (
      <p className="mt-4 rounded border-l-4 border-slate-500 bg-slate-50 p-3" data-testid="quote-end">
        Expired: the buyer did not accept the latest version in time.
      </p>
    );
  return null;
}

const REQUEST_COLUMNS: Column[] = [
  { label: "Part" },
  { label: "Quantity", align: "right" },
  { label: "Target price a unit", align: "right" },
];

/** The lines the buyer asked for, their target prices and the day they want the goods. */
export function QuoteRequestLines({
  lines,
  currency,
  wantedBy,
  askedAt,
}: {
  lines: QuoteRequestLine[];
  currency: Currency;
  wantedBy: string | null;
  askedAt: string;
}) {
  return (
    <section aria-labelledby="quote-request-heading" className="mt-6">
      <h2 id="quote-request-heading" className="text-lg font-semibold">
        The request
      </h2>
      <p className="text-sm text-slate-600">
        Asked {formatDateTime(askedAt)}; {wantedBy ? `wanted by ${formatDay(wantedBy)}` : "no delivery date asked"};
        prices in {currency}.
      </p>
      <DataTable caption="Lines asked for" columns={REQUEST_COLUMNS}>
        {lines.map((line) => (
          <tr key={line.partId} data-testid="request-line">
            <th scope="row" className="px-3 py-2 font-medium">
              {line.productName}
              <span className="block text-xs font-normal text-slate-600">{line.partNumber}</span>
            </th>
            <td className="px-3 py-2 text-right" data-label="Quantity">
              {formatQuantity(line.quantity)}
            </td>
            <td className="px-3 py-2 text-right" data-label="Target price a unit">
              {line.targetUnitPriceCents ? formatCents(line.targetUnitPriceCents, { currency }) : "None given"}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
