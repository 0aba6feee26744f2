import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { documentPath } from "~/domain/order-document";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DataTable, type Column } from "~/components/ui/data-table";
import { company } from "~/content/company";
import { openAccountOrders } from "~/orders/model/payments.server";
import { accountCredits } from "~/orders/model/account-credit.server";
import { creditNotePath } from "~/domain/credit-notes";
import { requireCustomer } from "~/services/guards.server";
import { can } from "~/services/companies.server";
import { formatCents } from "~/format";
import { orderPath } from "~/domain/order-lines";
import { formatDay, orderStateText, termsWords } from "~/domain/order-states";

/** The customer's statement of account: open invoices with due dates, what is overdue, the balance. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  if (!can(user, "finance")) {
    throw new Response("The company's statement is for its owners and accounts.", { status: 403 });
  }
  const [open, credits] = await Promise.all([openAccountOrders(user), accountCredits(user)]);
  const overdueCents = open.orders.filter((o) => o.state === "overdue").reduce((sum, o) => sum + o.balanceCents, 0);
  return data(
    {
      account: user.account,
      openCents: open.balanceCents,
      accountCreditCents: credits.accountCreditCents,
      // What the company owes, less what its credit notes credited to its account (below zero: in credit).
      balanceCents: open.balanceCents - credits.accountCreditCents,
      overdueCents,
      creditNotes: credits.notes,
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

const CREDIT_COLUMNS: Column[] = [
  { label: "Credit note" },
  { label: "Issued" },
  { label: "Order" },
  { label: "Where the money went" },
  { label: "Credited", align: "right" },
];

export default function Statement() {
  const { account, balanceCents, openCents, accountCreditCents, overdueCents, orders, creditNotes } =
    useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Statement of account</h1>
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Payment terms</dt>
        <dd>{termsWords(account.termsDays)}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd>{formatCents(account.creditLimitCents)}</dd>
        <dt className="font-medium text-slate-700">Open invoices</dt>
        <dd data-testid="statement-open">{formatCents(openCents)}</dd>
        <dt className="font-medium text-slate-700">Credit on your account</dt>
        <dd data-testid="statement-credit">
          {accountCreditCents ? `− ${formatCents(accountCreditCents)}` : formatCents(0)}
        </dd>
        <dt className="font-medium text-slate-700">{balanceCents < 0 ? "In credit" : "Balance open"}</dt>
        <dd className="font-semibold" data-testid="statement-balance">
          {formatCents(Math.abs(balanceCents))}
          {balanceCents < 0 ? (
            <span className="block text-sm font-normal text-slate-700">
              We owe you this: it comes off your next invoices, or ask us to pay it out to your bank.
            </span>
          ) : null}
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
      {creditNotes.length ? (
        <DataTable caption="Credit notes, newest first" className="mt-6" columns={CREDIT_COLUMNS}>
          {creditNotes.map((note) => (
            <tr key={note.id} data-testid="statement-credit-note">
              <th scope="row" className="px-3 py-2 font-medium">
                <Link
                  to={creditNotePath(note.orderId, note.number)}
                  className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                >
                  {note.number}
                </Link>
              </th>
              <td className="px-3 py-2" data-label="Issued">
                {formatDay(note.issuedAt)}
              </td>
              <td className="px-3 py-2" data-label="Order">
                <Link
                  to={orderPath(note.orderId)}
                  className="inline-flex min-h-11 items-center text-brand-700 underline md:min-h-6"
                >
                  {note.orderNumber}
                </Link>
              </td>
              <td className="px-3 py-2" data-label="Settled">
                {note.settled}
              </td>
              <td className="px-3 py-2 text-right font-medium" data-label="Credited">
                {formatCents(note.totalCents)}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
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
