import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { CancelOrderDialogForm, cancelOrderPath } from "~/components/cancel-order-form";
import { ConfirmDialog, confirmLinkClass } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { PoNumber } from "~/components/order-lines";
import { Pagination } from "~/components/pagination";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listOrdersOfUser } from "~/orders/model/reads.server";
import { requireCustomerOrSignOutHome } from "~/services/guards.server";
import { formatCents, formatDateTime, formatQuantity } from "~/format";
import { orderPath } from "~/domain/order-lines";
import { parsePage } from "~/forms/shop-forms";
import { orderStateText } from "~/domain/order-states";
import { can, mayHandleOrder } from "~/services/companies.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const result = await listOrdersOfUser(user, { page });
  const orders = result.orders.map((order) => ({
    id: order.id,
    number: order.number,
    summary: order.summary,
    poNumber: order.poNumber,
    lineCount: order.lines.length,
    totalQuantity: order.totalQuantity,
    totalCents: order.totalCents,
    /** The currency of the sale: the order's amounts are in it. */
    currency: order.currency,
    status: order.status,
    state: order.state,
    dueAt: order.dueAt,
    balanceCents: order.balanceCents,
    paid: order.paid,
    /** Where the money of a cancelled order went ("Cancelled · refunded"): its credit notes' money only. */
    creditNotes: order.creditNotes.map((note) => ({
      refundCents: note.refundCents,
      accountCreditCents: note.accountCreditCents,
      refund: note.refund ? { status: note.refund.status } : null,
      payout: note.payout
        ? { paidAt: note.payout.paidAt, amountCents: note.payout.amountCents, reference: note.payout.reference }
        : null,
    })),
    transactionId: order.transactionId,
    createdAt: order.createdAt,
    endedAt: order.cancelledAt ?? order.removedAt,
    /** A colleague's order in the company: named, and paid or cancelled by its placer or accounts. */
    placedBy: order.userId === user.id ? null : order.userName,
    handles: mayHandleOrder(user, order),
  }));
  return data(
    {
      orders,
      page: result.page,
      pageCount: result.pageCount,
      total: result.total,
      // Every owner and accounts person reads the statement (a customer alone is their company's owner).
      mayReadStatement: can(user, "finance"),
      mayOrder: can(user, "order"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "Order" },
  { label: "Quantity", align: "right" },
  { label: "Price", align: "right" },
  { label: "Status" },
  { label: "Cancel" },
  { label: "Pay" },
];

export default function MyOrders() {
  const { orders, page, pageCount, total, mayReadStatement, mayOrder } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-2xl font-bold">My Orders</h1>
      {mayReadStatement ? (
        <p className="mt-1">
          <Link
            to="/dashboard/statement"
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
          >
            Statement of account
          </Link>
        </p>
      ) : null}
      {total === 0 ? (
        <p className="mt-4 text-slate-700">
          You have no orders yet.{" "}
          <Link to="/parts" className="font-medium text-brand-700 underline">
            Browse parts
          </Link>
        </p>
      ) : (
        <DataTable caption="Your orders, newest first" className="mt-4" columns={COLUMNS}>
          {orders.map((order) => (
            <tr key={order.id} data-testid={`order-${order.id}`}>
              <th scope="row" className="px-3 py-2 font-medium">
                <Link to={orderPath(order.id)} className="text-brand-700 underline hover:text-brand-800">
                  {order.number}
                </Link>
                <span className="block font-normal">{order.summary}</span>
                <span className="block text-xs font-normal text-slate-600">
                  Placed {formatDateTime(order.createdAt)}
                </span>
                <PoNumber poNumber={order.poNumber} />
              </th>
              <td className="px-3 py-2 text-right" data-label="Quantity">
                {formatQuantity(order.totalQuantity)}
              </td>
              <td className="px-3 py-2 text-right" data-label="Price">
                {formatCents(order.totalCents, { currency: order.currency })}
              </td>
              <td className="px-3 py-2 max-md:col-span-2" data-label="Status">
                <span className="font-medium" data-testid="status">
                  {orderStateText(order)}
                </span>
                {order.state === "part-paid" ? (
                  <span className="block text-xs text-slate-600">
                    {formatCents(order.balanceCents, { currency: order.currency })} left to pay
                  </span>
                ) : null}
                {order.transactionId ? (
                  <span className="block text-xs text-slate-600">
                    Transaction id: <span className="break-all font-mono">{order.transactionId}</span>
                  </span>
                ) : null}
                {order.endedAt ? (
                  <span className="block text-xs text-slate-600">{formatDateTime(order.endedAt)}</span>
                ) : null}
                {order.placedBy ? (
                  <span className="block text-xs text-slate-600" data-testid="placed-by">
                    Placed by {order.placedBy}
                  </span>
                ) : null}
                {mayOrder && order.status !== "unpaid" && order.status !== "approval" ? (
                  <ReorderForm orderId={order.id} summary={order.summary} />
                ) : null}
              </td>
              <td className="px-3 py-2">
                {order.state === "unpaid" && order.handles ? (
                  <ConfirmDialog
                    label="Cancel"
                    accessibleLabel={`Cancel ${order.number}: ${order.summary}`}
                    href={cancelOrderPath(order.id)}
                    title="Cancel this order?"
                    className={confirmLinkClass}
                  >
                    {(close) => <CancelOrderDialogForm order={order} onKeep={close} />}
                  </ConfirmDialog>
                ) : null}
              </td>
              <td className="px-3 py-2">
                {order.status === "unpaid" && order.totalCents > 0 && order.handles ? (
                  <Link
                    to={`/dashboard/payment/${order.id}`}
                    aria-label={`Pay for ${order.number}: ${order.summary}`}
                    className="inline-flex min-h-11 items-center rounded bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
                  >
                    Pay
                  </Link>
                ) : order.paid && order.state !== "cancelled" ? (
                  <span className="font-medium text-green-800">Paid</span>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination page={page} pageCount={pageCount} label="My Orders pages" />
    </div>
  );
}

/** Order again: the order's lines go back into the cart at today's prices (see the cart's action). */
function ReorderForm({ orderId, summary }: { orderId: string; summary: string }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action="/dashboard/cart" className="mt-1">
      <input type="hidden" name="intent" value="reorder" />
      <input type="hidden" name="orderId" value={orderId} />
      <button
        type="submit"
        disabled={fetcher.state !== "idle"}
        aria-label={`Order again: ${summary}`}
        className="min-h-11 text-xs font-medium text-brand-700 underline hover:text-brand-800 disabled:text-slate-500"
      >
        {fetcher.state !== "idle" ? "Adding to the cart…" : "Order again"}
      </button>
    </fetcher.Form>
  );
}

export const meta: MetaFunction = () => [{ title: "My Orders — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
