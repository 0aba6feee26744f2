/**
 * Shop Today's sales of the last 30 days: a chart a currency the shop sold in (a bar a day), each with
 * the same figures as a table. Currencies are never added together: each has its own total and scale.
 */
import { DataTable, type Column } from "~/components/ui/data-table";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { formatCents, formatQuantity } from "~/format";

/** One UTC day's paid orders in a currency and their total. */
type DaySales = { day: string; totalCents: number; orders: number };
/** A currency's days, and the period's total in it. */
type CurrencySales = { currency: Currency; days: DaySales[]; totalCents: number; orders: number };

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 64 };

const paidOrders = (orders: number) => `${formatQuantity(orders)} paid ${orders === 1 ? "order" : "orders"}`;

export function SalesChart({ sales }: { sales: CurrencySales[] }) {
  const several = sales.length > 1;
  return (
    <section aria-labelledby="sales" className="mt-8">
      <h2 id="sales" className="text-xl font-semibold">
        Sales, last 30 days
      </h2>
      <p className="text-sm text-slate-600" data-testid="sales-summary">
        {sales
          .map(
            (series) =>
              `${formatCents(series.totalCents, { currency: series.currency })} from ${paidOrders(series.orders)}`,
          )
          .join("; ")}{" "}
        (by the UTC day they were paid{several ? ", each currency on its own" : ""}).
      </p>
      {sales.map((series) => (
        <CurrencyChart key={series.currency} series={series} titled={several} />
      ))}
    </section>
  );
}

/** Drawn on the server as SVG (no script needed), with the same figures as a table. */
function CurrencyChart({ series, titled }: { series: CurrencySales; titled: boolean }) {
  const { currency, days: sales, totalCents: total } = series;
  const money = (cents: number) => formatCents(cents, { currency });
  const max = Math.max(1, ...sales.map((day) => day.totalCents));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / sales.length;
  const summary = `Sales in ${CURRENCIES[currency].plural} of the last 30 days: ${money(total)} from ${paidOrders(series.orders)}; the best day ${money(max === 1 && total === 0 ? 0 : max)}.`;
  return (
    <div data-testid="sales-currency" data-currency={currency}>
      {titled ? (
        <h3 className="mt-4 font-semibold" data-testid="sales-currency-total">
          In {CURRENCIES[currency].plural}: {money(total)} from {paidOrders(series.orders)}
        </h3>
      ) : null}
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-2 h-auto w-full max-w-3xl rounded border border-slate-200 bg-white"
        role="img"
        aria-label={summary}
        data-testid="sales-chart"
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={PAD.top + plotHeight}
          y2={PAD.top + plotHeight}
          stroke="#475569"
        />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" fontSize="11" fill="#334155">
          {money(total === 0 ? 0 : max)}
        </text>
        <text x={PAD.left - 6} y={PAD.top + plotHeight} textAnchor="end" fontSize="11" fill="#334155">
          {money(0)}
        </text>
        {sales.map((day, index) => {
          const height = (day.totalCents / max) * plotHeight;
          const x = PAD.left + index * slot;
          return (
            <g key={day.day}>
              <rect
                x={x + slot * 0.15}
                y={PAD.top + plotHeight - height}
                width={slot * 0.7}
                height={height}
                fill="#1d4ed8"
                data-day={day.day}
              >
                <title>{`${day.day}: ${money(day.totalCents)}`}</title>
              </rect>
              {index % 5 === 0 || index === sales.length - 1 ? (
                <text x={x + slot / 2} y={HEIGHT - 10} textAnchor="middle" fontSize="10" fill="#334155">
                  {day.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <details className="mt-2">
        <summary className="cursor-pointer py-3 text-sm font-medium text-brand-700">
          Sales{titled ? ` in ${CURRENCIES[currency].plural}` : ""} by day as a table
        </summary>
        <DataTable
          caption={`Sales${titled ? ` in ${CURRENCIES[currency].plural}` : ""} by day, last 30 days`}
          columns={SALES_COLUMNS}
          stack={false}
        >
          {sales.map((day) => (
            <tr key={day.day} data-testid="sales-row">
              <th scope="row" className="px-3 py-2 font-medium">
                {day.day}
              </th>
              <td className="px-3 py-2 text-right">{day.orders}</td>
              <td className="px-3 py-2 text-right">{money(day.totalCents)}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </div>
  );
}

const SALES_COLUMNS: Column[] = [
  { label: "Day (UTC)" },
  { label: "Paid orders", align: "right" },
  { label: "Sales", align: "right" },
];
