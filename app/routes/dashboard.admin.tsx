import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DataTable, type Column } from "~/components/ui/data-table";
import { FailedMailList, toFailedMailItems } from "~/components/failed-mail";
import { lowStockParts, oldestOrders, salesByDay, type DaySales } from "~/orders/model/admin-home.server";
import { listOverdue } from "~/orders/model/payments.server";
import { getLatestStockCheck } from "~/orders/model/stock-check.server";
import { listBackorderedParts } from "~/models/stock-holds.server";
import { listOpenReturns } from "~/orders/model/returns.server";
import { listFailedRefunds } from "~/orders/model/refunds.server";
import { RETURN_REASON_WORDS } from "~/domain/returns";
import { formatDay, orderStateText } from "~/domain/order-states";
import { requireAdmin } from "~/services/guards.server";
import { listFailedMail } from "~/services/failed-mail.server";
import { formatCents, formatQuantity } from "~/format";
import { formatDateTime } from "~/format";

/** The admin home: what needs doing now, parts running low, and the last 30 days of sales. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [
    awaitingPayment,
    awaitingShipment,
    overdue,
    lowStock,
    sales,
    stockCheck,
    failedMail,
    backorders,
    returns,
    failedRefunds,
  ] = await Promise.all([
    oldestOrders("unpaid"),
    oldestOrders("paid"),
    listOverdue(),
    lowStockParts(),
    salesByDay(30),
    getLatestStockCheck(),
    listFailedMail(5),
    listBackorderedParts(10),
    listOpenReturns(10),
    listFailedRefunds(10),
  ]);
  const slim = ({ orders, total }: Awaited<ReturnType<typeof oldestOrders>>) => ({
    total,
    orders: orders.map(
      ({ id, number, state, dueAt, balanceCents, summary, userName, userEmail, totalCents, createdAt, paidAt }) => ({
        id,
        number,
        state,
        dueAt,
        balanceCents,
        summary,
        userName,
        userEmail,
        totalCents,
        createdAt,
        paidAt,
      }),
    ),
  });
  return data(
    {
      awaitingPayment: slim(awaitingPayment),
      awaitingShipment: slim(awaitingShipment),
      overdue: slim(overdue),
      lowStock,
      backorders,
      returns,
      failedRefunds,
      sales,
      // Said only when the last stock check (every 10 minutes, or npm run stock:check) found a difference.
      stockCheck: stockCheck?.problemCount ? stockCheck : null,
      failedMail: { total: failedMail.total, items: toFailedMailItems(failedMail.items) },
      // The database answers reads but refuses writes (server/db-outage.ts): orders and sign-ups fail until it is fixed.
      diskFull: context.databaseStorage === "disk full",
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type OrderList = ReturnType<typeof useLoaderData<typeof loader>>["awaitingPayment"];

export default function AdminHome() {
  const {
    awaitingPayment,
    awaitingShipment,
    overdue,
    lowStock,
    backorders,
    returns,
    failedRefunds,
    sales,
    stockCheck,
    failedMail,
    diskFull,
  } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold">Shop Today</h1>
      {diskFull ? (
        <section
          role="alert"
          aria-labelledby="disk-full"
          className="mt-6 rounded border border-red-300 bg-red-50 p-4"
          data-testid="disk-full"
        >
          <h2 id="disk-full" className="text-xl font-semibold text-red-800">
            The database&apos;s disk is full
          </h2>
          <p className="text-sm text-slate-700">
            Pages still show, but nothing can be saved: orders, payments and sign-ups answer &ldquo;cannot save
            changes&rdquo;. Free space on the database&apos;s disk; the shop saves again by itself within seconds.
          </p>
        </section>
      ) : null}
      {failedMail.total > 0 ? (
        <section aria-labelledby="failed-mail" className="mt-6" data-testid="failed-mail-section">
          <h2 id="failed-mail" className="text-xl font-semibold text-red-800">
            {`Emails not sent (${formatQuantity(failedMail.total)})`}
          </h2>
          <p className="text-sm text-slate-600">The mail server refused them after every attempt.</p>
          <FailedMailList items={failedMail.items} />
          {failedMail.total > failedMail.items.length ? (
            <Link
              to="/dashboard/failedMail"
              className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
            >
              All {formatQuantity(failedMail.total)} emails not sent
            </Link>
          ) : null}
        </section>
      ) : null}
      {stockCheck ? (
        <section
          role="alert"
          data-testid="stock-check"
          className="mt-4 rounded border-l-4 border-red-700 bg-red-50 p-4 text-red-900"
        >
          <p className="font-semibold">
            The stock check of {formatDateTime(stockCheck.at)} found {stockCheck.problemCount}{" "}
            {stockCheck.problemCount === 1 ? "difference" : "differences"} between the parts&apos; stock and what orders
            hold.
          </p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {stockCheck.problems.map((problem, index) => (
              <li key={index}>
                {problem.partNumber} {problem.name}: {problem.message}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-sm">
            Run npm run stock:check for the full list; docs/behaviour.md says what it checks.
          </p>
        </section>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-2">
        <OrdersToHandle
          id="awaiting-shipment"
          title="Waiting to ship (paid or on account)"
          list={awaitingShipment}
          when={(order) =>
            order.paidAt
              ? `Paid ${formatDateTime(order.paidAt)}`
              : `${orderStateText(order)}; placed ${formatDateTime(order.createdAt)}`
          }
          moreHref="/dashboard/manageOrders?status=pending"
        />
        <OrdersToHandle
          id="awaiting-payment"
          title="Waiting for payment"
          list={awaitingPayment}
          when={(order) => `Placed ${formatDateTime(order.createdAt)}`}
          moreHref="/dashboard/manageOrders?status=unpaid"
        />
        <OrdersToHandle
          id="overdue"
          title="Overdue invoices"
          list={overdue}
          when={(order) =>
            `Due ${order.dueAt ? formatDay(order.dueAt) : ""}; ${formatCents(order.balanceCents)} still to pay`
          }
          moreHref="/dashboard/manageOrders?status=overdue"
          empty="No invoice is overdue."
          oldest="Oldest due first."
        />
      </div>
      <section aria-labelledby="returns-open" className="mt-8">
        <h2 id="returns-open" className="text-xl font-semibold">
          Returns to decide and to receive ({formatQuantity(returns.length)})
        </h2>
        {returns.length === 0 ? (
          <p className="mt-2 text-slate-700">No return waits for the shop.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200" data-testid="open-returns">
            {returns.map(({ order, entry }) => (
              <li key={entry.id} className="p-3" data-testid="open-return">
                <Link
                  to={`/dashboard/manageOrders/${order.id}/returns/${entry.id}`}
                  className="font-medium text-brand-700 underline"
                >
                  {entry.number ?? "Return request"} of {order.number}
                </Link>
                <span className="block text-sm text-slate-700">
                  {entry.status === "requested" ? "To approve or decline" : "To receive"}:{" "}
                  {entry.lines.map((line) => `${formatQuantity(line.quantity)} × ${line.productName}`).join("; ")} (
                  {RETURN_REASON_WORDS[entry.reason].toLowerCase()}), {order.companyName ?? order.userName}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {failedRefunds.length ? (
        <section aria-labelledby="refunds-failed" className="mt-8">
          <h2 id="refunds-failed" className="text-xl font-semibold">
            Card refunds that failed ({formatQuantity(failedRefunds.length)})
          </h2>
          <p className="text-sm text-slate-600">
            Stripe could not give this money back to the card: pay it to the customer&apos;s bank and record the payout
            under the credit note.
          </p>
          <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200" data-testid="failed-refunds">
            {failedRefunds.map(({ order, note }) => (
              <li key={note.id} className="p-3">
                <Link
                  to={`/dashboard/manageOrders/${order.id}#credit-notes`}
                  className="font-medium text-brand-700 underline"
                >
                  {note.number} of {order.number}
                </Link>
                <span className="block text-sm text-slate-700">
                  {formatCents(note.refundCents)} ({note.status}), {order.companyName ?? order.userName}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <PartsSection
        id="backorders-waiting"
        title="Backorders waiting for stock"
        total={backorders.length}
        note="Units ordered beyond the shelf: a restock goes to them first, oldest order first."
        empty="No order waits on backorder."
        caption="Parts with units on backorder"
        parts={backorders}
        rowTestId="backorder-row"
        name={(part) => (
          <Link to={`/dashboard/manageProducts/${part.id}/edit`} className="text-brand-700 underline">
            {part.name}
          </Link>
        )}
        columns={[
          { label: "Units waiting", align: "right", cell: (part) => formatQuantity(part.units) },
          { label: "Orders", align: "right", cell: (part) => formatQuantity(part.orders) },
          {
            label: "Stock expected",
            cell: (part) =>
              part.restockOn
                ? formatDay(part.restockOn)
                : part.leadTimeDays
                  ? `${part.leadTimeDays} days after ordering`
                  : "Not set",
          },
        ]}
      />
      <PartsSection
        id="low-stock"
        title="Low stock"
        total={lowStock.total}
        note="Parts below their own low-stock threshold (their minimum order unless set)."
        empty="No part is running low."
        caption="Parts below their low-stock threshold, lowest stock first"
        parts={lowStock.parts}
        rowTestId="low-stock-row"
        columns={[
          { label: "In stock", align: "right", cell: (part) => formatQuantity(part.availableQuantity) },
          { label: "Threshold", align: "right", cell: (part) => formatQuantity(part.threshold) },
        ]}
      />
      <SalesChart sales={sales} />
    </div>
  );
}

type PartColumn<Part> = { label: string; align?: "right"; cell: (part: Part) => ReactNode };

/**
 * A section of parts to look at: its heading with their number, a note, and a table with a row a part
 * (its name, or what `name` makes of it, over its part number) and `columns` after it; or a line
 * saying there are none.
 */
function PartsSection<Part extends { id: string; name: string; partNumber: string }>({
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

function OrdersToHandle({
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
  list: OrderList;
  when: (order: OrderList["orders"][number]) => string;
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
              {order.summary} for {order.userName} ({order.userEmail}), {formatCents(order.totalCents)}
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

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 64 };

/** Drawn on the server as SVG (no script needed), with the same figures as a table. */
function SalesChart({ sales }: { sales: DaySales[] }) {
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

export const meta: MetaFunction = () => [{ title: "Shop Today — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
