/** Shop Today's sales of the last 30 days: a bar a day, and the same figures as a table. */
import { DataTable, type Column } from "~/components/ui/data-table";
import { formatCents, formatQuantity } from "~/format";

/** One UTC day's paid orders and their total. */
type DaySales = { day: string; totalCents: number; orders: number };

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 64 };

/** Drawn on the server as SVG (no script needed), with the same figures as a table. */
export function SalesChart({ sales }: { sales: DaySales[] }) {
  const total = sales.reduce((sum, day) => sum + day.totalCents, 0);
  const orders = sales.reduce((sum, day) => sum + day.orders, 0);
  const max = Math.max(1, ...sales.map((day) => day.totalCents));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / sales.length;
  const summary = `Sales of the last 30 days: ${formatCents(total)} from ${orders} paid ${orders === 1 ? "order" : "orders"}; the best day ${formatCents(max === 1 && total === 0 ? 0 : max)}.`;
  return (
    <section aria-labelledby="sales" className="mt-8">
      <h2 id="sales" className="text-xl font-semibold">
        Sales, last 30 days
      </h2>
      <p className="text-sm text-slate-600" data-testid="sales-summary">
        {formatCents(total)} from {formatQuantity(orders)} paid {orders === 1 ? "order" : "orders"} (by the UTC day they
        were paid).
      </p>
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
          {formatCents(total === 0 ? 0 : max)}
        </text>
        <text x={PAD.left - 6} y={PAD.top + plotHeight} textAnchor="end" fontSize="11" fill="#334155">
          {formatCents(0)}
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
                <title>{`${day.day}: ${formatCents(day.totalCents)}`}</title>
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
        <summary className="cursor-pointer py-3 text-sm font-medium text-brand-700">Sales by day as a table</summary>
        <DataTable caption="Sales by day, last 30 days" columns={SALES_COLUMNS} stack={false}>
          {sales.map((day) => (
            <tr key={day.day} data-testid="sales-row">
              <th scope="row" className="px-3 py-2 font-medium">
                {day.day}
              </th>
              <td className="px-3 py-2 text-right">{day.orders}</td>
              <td className="px-3 py-2 text-right">{formatCents(day.totalCents)}</td>
            </tr>
          ))}
        </DataTable>
      </details>
    </section>
  );
}

const SALES_COLUMNS: Column[] = [
  { label: "Day (UTC)" },
  { label: "Paid orders", align: "right" },
  { label: "Sales", align: "right" },
];
