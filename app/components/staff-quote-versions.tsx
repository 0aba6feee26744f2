/** The versions the shop sent on a quote, newest first, each kept as it was sent. */
import { DataTable, type Column } from "~/components/ui/data-table";
import type { Currency } from "~/domain/money";
import { formatDay } from "~/domain/order-states";
import { quoteDocumentPath, type QuoteVersionView } from "~/domain/quotes";
import { formatCents, formatDateTime, formatQuantity } from "~/format";

const COLUMNS: Column[] = [
  { label: "Part" },
  { label: "Quantity", align: "right" },
  { label: "Price a unit", align: "right" },
  { label: "List price", align: "right" },
  { label: "Lead time" },
];

export function QuoteVersionsSent({
  quoteId,
  versions,
  currency,
}: {
  quoteId: string;
  versions: QuoteVersionView[];
  currency: Currency;
}) {
  const money = (cents: number) => formatCents(cents, { currency });
  return (
    <section aria-labelledby="quote-versions-heading" className="mt-6">
      <h2 id="quote-versions-heading" className="text-lg font-semibold">
        Versions sent ({formatQuantity(versions.length)})
      </h2>
      {versions.length === 0 ? <p className="mt-1 text-slate-700">None yet: the buyer waits for a price.</p> : null}
      {[...versions].reverse().map((version) => (
        <article
          key={version.version}
          aria-labelledby={`version-${version.version}`}
          className="mt-3 rounded-lg border border-slate-200 bg-white p-4"
          data-testid="quote-version"
        >
          <h3 id={`version-${version.version}`} className="font-semibold">
            {version.label}
          </h3>
          <p className="text-sm text-slate-600">
            Sent by {version.sentByName}, {formatDateTime(version.sentAt)}; valid until{" "}
            {formatDay(version.validUntilDay)}; {money(version.netCents)} net
            {version.partialAllowed ? "; some lines may be accepted alone" : ""}.{" "}
            <a href={quoteDocumentPath(quoteId, version.version)} className="text-brand-700 underline">
              Printable quotation<span className="sr-only"> {version.label}</span>
            </a>
          </p>
          <DataTable caption={`Lines of ${version.label}`} columns={COLUMNS}>
            {version.lines.map((line) => (
              <tr key={line.partId}>
                <th scope="row" className="px-3 py-2 font-medium">
                  {line.productName}
                  <span className="block text-xs font-normal text-slate-600">{line.partNumber}</span>
                </th>
                <td className="px-3 py-2 text-right" data-label="Quantity">
                  {formatQuantity(line.quantity)}
                </td>
                <td className="px-3 py-2 text-right" data-label="Price a unit">
                  {money(line.unitPriceCents)}
                  {line.belowFloor ? (
                    <span className="block text-xs font-medium text-amber-800" data-testid="below-floor">
                      Below the floor (override)
                    </span>
                  ) : null}
                </td>
                <td className="px-3 py-2 text-right" data-label="List price">
                  {money(line.listUnitPriceCents)}
                </td>
                <td className="px-3 py-2" data-label="Lead time">
                  {line.leadTimeDays === 0 ? "From stock" : `${formatQuantity(line.leadTimeDays)} days`}
                </td>
              </tr>
            ))}
          </DataTable>
          {version.terms ? (
            <p className="mt-2 whitespace-pre-line text-sm [overflow-wrap:anywhere]">
              <span className="font-medium">Terms: </span>
              {version.terms}
            </p>
          ) : null}
          {version.note ? (
            <p className="mt-1 whitespace-pre-line text-sm [overflow-wrap:anywhere]">
              <span className="font-medium">Note: </span>
              {version.note}
            </p>
          ) : null}
        </article>
      ))}
    </section>
  );
}
