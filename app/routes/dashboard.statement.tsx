import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { documentPath } from "~/components/order-document";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DataTable, type Column } from "~/components/ui/data-table";
import { company } from "~/content/company";
import { openAccountOrders } from "~/orders/model/payments.server";
import { requireCustomer } from "~/utils/guards.server";
import { can } from "~/utils/companies.server";
import { formatCents } from "~/format";
import { orderPath } from "~/domain/order-lines";
import { formatDay, orderStateText, termsWords } from "~/domain/order-states";

/** The customer's statement of account: open invoices with due dates, what is overdue, the balance. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  if (!can(user, "finance")) {
    throw new Response("The company's statement is for its owners and accounts.", { status: 403 });
  }
  const open = await openAccountOrders(user);
  const overdueCents = open.orders.filter((o) => o.state === "overdue").reduce((sum, o) => sum + o.balanceCents, 0);
  return data(
    {
      account: user.account,
      balanceCents: open.balanceCents,
      overdueCents,
      orders: open.orders.map((order) => ({
        id: order.id,
        number: order.number,
        state: order.state,
        dueAt: order.dueAt,
        invoicedAt: order.invoicedAt ?? order.createdAt,
        totalCents: order.totalCents,
        paidCents: order.paidCents,
        balanceCents: order.balanceCents,
        poNumber: order.poNumber,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "Order" },
  { label: "Invoice date" },
  { label: "Due" },
  { label: "Total", align: "right" },
  { label: "Paid", align: "right" },
  { label: "Balance", align: "right" },
];

export default function Statement() {
  const { account, balanceCents, overdueCents, orders } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Statement of account</h1>
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Payment terms</dt>
        <dd>{termsWords(account.termsDays)}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd>{formatCents(account.creditLimitCents)}</dd>
        <dt className="font-medium text-slate-700">Balance open</dt>
        <dd className="font-semibold" data-testid="statement-balance">
          {formatCents(balanceCents)}
        </dd>
        <dt className="font-medium text-slate-700">Overdue</dt>
        <dd className={overdueCents ? "font-semibold text-red-800" : ""} data-testid="statement-overdue">
          {formatCents(overdueCents)}
        </dd>
      </dl>
      {orders.length === 0 ? (
        <p className="mt-6 text-slate-700" data-testid="statement-empty">
          Nothing is open on your account.{" "}
          {account.termsDays ? "Orders you place on account appear here until they are paid." : null}
        </p>
      ) : (
        <DataTable caption="Open invoices, oldest due first" className="mt-6" columns={COLUMNS}>
          {orders.map((order) => (
            <tr key={order.id} data-testid="statement-row">
              <th scope="row" className="px-3 py-2 font-medium">
                {/* Targets of their own: 44 px tall on a phone, at least 24 px on a desktop (WCAG 2.5.8). */}
                <Link
                  to={orderPath(order.id)}
                  className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                >
                  {order.number}
                </Link>
                <span className="block text-xs font-normal">
                  <Link
                    to={documentPath(order.id, "invoice")}
                    className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                  >
                    Invoice
                  </Link>
                  {order.poNumber ? ` · Your PO ${order.poNumber}` : ""}
                </span>
              </th>
              <td className="px-3 py-2" data-label="Invoice date">
                {formatDay(order.invoicedAt)}
              </td>
              <td className="px-3 py-2" data-label="Due">
                <span className={order.state === "overdue" ? "font-semibold text-red-800" : ""}>
                  {order.dueAt ? formatDay(order.dueAt) : ""}
                </span>
                <span className="block text-xs text-slate-600">{orderStateText(order)}</span>
              </td>
              <td className="px-3 py-2 text-right" data-label="Total">
                {formatCents(order.totalCents)}
              </td>
              <td className="px-3 py-2 text-right" data-label="Paid">
                {formatCents(order.paidCents)}
              </td>
              <td className="px-3 py-2 text-right font-medium" data-label="Balance">
                {formatCents(order.balanceCents)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <section className="mt-8 text-sm text-slate-700" aria-labelledby="pay-heading">
        <h2 id="pay-heading" className="font-semibold text-slate-900">
          How to pay
        </h2>
        <p>
          By bank transfer to {company.bank.accountName}, {company.bank.bankName}, routing {company.bank.routingNumber},
          account {company.bank.accountNumber}. Quote the order number (SO-…) as the reference.
        </p>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Statement of account — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
