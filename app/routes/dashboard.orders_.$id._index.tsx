import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { cancelOrderPath } from "~/components/cancel-order-form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SubmitButton, useIsPending } from "~/components/forms";
import { getOwnOrder } from "~/orders/model/reads.server";
import { requireCustomerOrSignOutHome } from "~/services/guards.server";
import { orderTimeline } from "~/domain/order-timeline";
import { orderStateText } from "~/domain/order-states";
import { formatCents } from "~/format";
import { HoldNotice } from "~/components/hold-forms";
import { OrderDetails, OrderHeading, PaymentSummary } from "~/components/order-details";
import { OrderCreditNotes } from "~/components/order-credit-notes";
import { OrderCancelledNotice } from "~/components/order-cancelled";
import { OrderReturns } from "~/components/order-returns";
import { returnableUnits } from "~/orders/model/returns.server";
import { documentsOf } from "~/orders/documents.server";
import { approversOf } from "~/services/spending-limit.server";
import { can } from "~/services/companies.server";

const NOT_FOUND = "We could not find that order in your account.";

/** One of the customer's orders with every line, its status and its timeline. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  const approval = order.approval
    ? {
        ...order.approval,
        approvers: order.state === "approval" ? await approversOf(user.companyId) : null,
        mayWithdraw: order.state === "approval" && order.userId === user.id,
      }
    : null;
  return data(
    {
      order,
      approval,
      mayOrder: can(user, "order"),
      mayAskPayout: can(user, "finance"),
      mayReturn: returnableUnits(order).some((units) => units > 0),
      timeline: orderTimeline(order, "customer"),
      documents: documentsOf(order, "customer"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

export default function OrderPage() {
  const { order, approval, mayOrder, mayAskPayout, mayReturn, timeline, documents } = useLoaderData<typeof loader>();
  const isPending = useIsPending({ formAction: "/dashboard/cart" });
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <OrderHeading back={{ to: "/dashboard/orders", label: "My Orders" }} order={order} />
      {order.poNumber ? (
        <p className="mt-1 text-slate-800" data-testid="po-number">
          Your PO number: <strong>{order.poNumber}</strong>
        </p>
      ) : null}
      <HoldNotice holdUntil={order.holdUntil} waiting={order.status === "approval"} />
      <p className="mt-3">
        Status: <strong data-testid="order-status">{orderStateText(order)}</strong>
        {order.balanceCents > 0 && order.paidCents > 0 ? (
          <span className="block text-sm text-slate-700" data-testid="balance">
            Paid so far {formatCents(order.paidCents)}; {formatCents(order.balanceCents)} left to pay.
          </span>
        ) : null}
        {order.transactionId ? (
          <span className="block text-sm text-slate-600">
            Transaction id: <span className="font-mono">{order.transactionId}</span>
          </span>
        ) : null}
      </p>
      <OrderCancelledNotice order={order} mayAskPayout={mayAskPayout} />
      <ApprovalNotice approval={approval} totalCents={order.totalCents} orderId={order.id} />
      <PaymentSummary order={order} />
      <OrderDetails order={order} timeline={timeline} documents={documents} />
      <OrderReturns returns={order.returns} viewer="customer" orderId={order.id} mayAsk={mayReturn} />
      <OrderCreditNotes
        orderId={order.id}
        creditNotes={order.creditNotes}
        viewer="customer"
        customer={{ mayAskPayout, askHere: order.state !== "cancelled" }}
      />
      <div className="mt-6 flex flex-wrap items-center gap-3">
        {order.state === "unpaid" ? (
          <>
            <Link
              to={`/dashboard/payment/${order.id}`}
              className="inline-flex min-h-11 items-center rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
            >
              Pay
            </Link>
            <Link to={cancelOrderPath(order.id)} className={`${linkClass} inline-flex min-h-11 items-center`}>
              Cancel
            </Link>
          </>
        ) : null}
        {mayOrder ? (
          <Form method="post" action="/dashboard/cart">
            <input type="hidden" name="intent" value="reorder" />
            <input type="hidden" name="orderId" value={order.id} />
            <SubmitButton variant="secondary" pending={isPending} pendingText="Adding to the cart…">
              Order again
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </div>
  );
}

/** Why an order waited for approval, who decides (or decided), and the buyer's way to withdraw it. */
function ApprovalNotice({
  approval,
  totalCents,
  orderId,
}: {
  approval: ReturnType<typeof useLoaderData<typeof loader>>["approval"];
  totalCents: number;
  orderId: string;
}) {
  if (!approval) return null;
  // Said to the buyer who placed it as theirs; to a colleague as the buyer's.
  const whose = approval.mayWithdraw ? "your" : "the buyer's";
  const over = `Its total of ${formatCents(totalCents)} is over ${whose} limit of ${formatCents(approval.limitCents ?? 0)} per order`;
  if (approval.outcome) {
    return (
      <p className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-slate-800" data-testid="approval-reason">
        {over}: {approval.outcome === "approved" ? "approved" : "declined"} by {approval.decidedByName}
        {approval.note ? ` (“${approval.note}”)` : ""}.
      </p>
    );
  }
  if (!approval.approvers) return null;
  return (
    <div
      className="mt-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-900"
      data-testid="approval-reason"
    >
      <p>
        {over}, so it needs approval by <strong>{approval.approvers}</strong>. Nothing is due until it is approved.
      </p>
      {approval.mayWithdraw ? (
        <Link to={cancelOrderPath(orderId)} className={`${linkClass} mt-1 inline-flex min-h-11 items-center`}>
          Withdraw the order
        </Link>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
