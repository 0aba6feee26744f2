import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SalesChart } from "~/components/sales-chart";
import { OrdersToHandle, PartsSection, QuotesToAnswer } from "~/components/shop-today";
import { FailedMailList, toFailedMailItems } from "~/components/failed-mail";
import { creditToPayOut, lowStockParts, oldestOrders, salesByDay } from "~/orders/model/admin-home.server";
import { CreditToPayOut } from "~/components/credit-payout";
import { readForm } from "~/services/form.server";
import { payOutFromForm } from "./dashboard.companies_.$id/payout.server";
import { listOverdue } from "~/orders/model/payments.server";
import { getLatestStockCheck } from "~/orders/model/stock-check.server";
import { listBackorderedParts } from "~/models/stock-holds.server";
import { listOpenReturns } from "~/orders/model/returns.server";
import { quotesToAnswer } from "~/orders/model/quotes.server";
import { QUOTE_STATUS_WORDS } from "~/domain/quotes";
import { listFailedRefunds } from "~/orders/model/refunds.server";
import { RETURN_REASON_WORDS } from "~/domain/returns";
import { formatDay, orderStateText } from "~/domain/order-states";
import { requireAdmin } from "~/services/guards.server";
import { listFailedMail } from "~/services/failed-mail.server";
import { formatCents, formatQuantity } from "~/format";
import { formatDateTime } from "~/format";

/** The admin home: what needs doing now, parts running low, and the last 30 days of sales. */
/** The named fields of an item, typed: a screen sends the browser no more than it shows. */
function pick<T, K extends keyof T>(item: T, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, item[key]])) as Pick<T, K>;
}

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
    credit,
    quotes,
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
    creditToPayOut(),
    quotesToAnswer(10),
  ]);
  // What a row of Shop Today's lists shows of an order (the browser gets nothing more).
  const SHOWN = [
    "id",
    "number",
    "state",
    "dueAt",
    "balanceCents",
    "summary",
    "userName",
    "userEmail",
    "totalCents",
    "currency",
    "createdAt",
    "paidAt",
  ] as const;
  const slim = ({ orders, total }: Awaited<ReturnType<typeof oldestOrders>>) => ({
    total,
    orders: orders.map((order) => pick(order, SHOWN)),
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
      credit,
      sales,
      quotes: {
        total: quotes.total,
        quotes: quotes.quotes.map((quote) => ({
          id: quote.id,
          label: quote.label,
          statusLabel: QUOTE_STATUS_WORDS[quote.status].label,
          userName: quote.userName,
          companyName: quote.companyName,
          lineCount: quote.lines.length,
          waitingSince: quote.waitingSince,
        })),
      },
      // Said only when the last stock check (every 10 minutes, or npm run stock:check) found a difference.
      stockCheck: stockCheck?.problemCount ? stockCheck : null,
      failedMail: { total: failedMail.total, items: toFailedMailItems(failedMail.items) },
      // The database answers reads but refuses writes (server/db-outage.ts): orders and sign-ups fail until it is fixed.
      diskFull: context.databaseStorage === "disk full",
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Shop Today's one form: a credit note's credit paid out to the customer's bank (Credit to pay out). */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  return payOutFromForm(await readForm(request), { admin, context, back: "/dashboard/admin#credit-to-pay-out" });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AdminHome() {
  const {
    awaitingPayment,
    awaitingShipment,
    overdue,
    lowStock,
    backorders,
    returns,
    failedRefunds,
    credit,
    sales,
    stockCheck,
    failedMail,
    diskFull,
    quotes,
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
            `Due ${order.dueAt ? formatDay(order.dueAt) : ""}; ${formatCents(order.balanceCents, { currency: order.currency })} still to pay`
          }
          moreHref="/dashboard/manageOrders?status=overdue"
          empty="No invoice is overdue."
          oldest="Oldest due first."
        />
        <QuotesToAnswer list={quotes} />
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
                  {formatCents(note.refundCents, { currency: order.currency })} ({note.status}),{" "}
                  {order.companyName ?? order.userName}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <CreditToPayOut list={credit} />
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

export const meta: MetaFunction = () => [{ title: "Shop Today — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
