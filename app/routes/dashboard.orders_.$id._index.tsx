import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
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
import { ApprovalNotice } from "~/components/order-approval";
import { InCurrency } from "~/components/money";
import { quotePath } from "~/domain/quotes";
import { approveCompanyOrder } from "~/orders/approvals.server";
import { approveSchema } from "~/forms/company-forms";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { SaveToListForm } from "~/components/saved-list-save";
import { listChoicesFor } from "~/services/saved-lists.server";

const NOT_FOUND = "We could not find that order in your account.";

/** One of the customer's orders with every line, its status and its timeline, in the currency of its sale. */
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
      // The owners decide here as on the company page.
      mayDecide: order.state === "approval" && can(user, "manage"),
      timeline: orderTimeline(order, order.userId === user.id ? "customer" : "colleague"),
      documents: documentsOf(order, "customer"),
      saveLists: await listChoicesFor(user),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** An owner approves the order from its page (declining has its confirmation: ./decline). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  const submission = parseForm(await readForm(request), { schema: approveSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (submission.value.order !== order.id) return data(submission.reply({ formErrors: [NOT_FOUND] }), { status: 404 });
  const approved = await approveCompanyOrder(user, order.id, submission.value.note ?? null, { context });
  if (!approved.ok) return data(submission.reply({ formErrors: [approved.message] }), { status: approved.status });
  return redirectWithSuccess(`/dashboard/orders/${order.id}`, `${approved.order.number} approved`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

export default function OrderPage() {
  const { order, approval, mayOrder, mayAskPayout, mayReturn, mayDecide, timeline, documents, saveLists } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const isPending = useIsPending({ formAction: "/dashboard/cart" });
  const money = (cents: number) => formatCents(cents, { currency: order.currency });
  return (
    <InCurrency currency={order.currency}>
      <div className="mx-auto max-w-4xl px-4 py-8">
        <OrderHeading back={{ to: "/dashboard/orders", label: "My Orders" }} order={order} />
        {order.poNumber ? (
          <p className="mt-1 text-slate-800" data-testid="po-number">
            Your PO number: <strong>{order.poNumber}</strong>
          </p>
        ) : null}
        {order.quote ? (
          <p className="mt-1 text-slate-800" data-testid="order-quote">
            Ordered from quote{" "}
            <Link to={quotePath(order.quote.id)} className={linkClass}>
              {order.quote.label}
            </Link>
          </p>
        ) : null}
        <HoldNotice holdUntil={order.holdUntil} waiting={order.status === "approval"} />
        <p className="mt-3">
          Status: <strong data-testid="order-status">{orderStateText(order)}</strong>
          {order.balanceCents > 0 && order.paidCents > 0 ? (
            <span className="block text-sm text-slate-700" data-testid="balance">
              Paid so far {money(order.paidCents)}; {money(order.balanceCents)} left to pay.
            </span>
          ) : null}
          {order.transactionId ? (
            <span className="block text-sm text-slate-600">
              Transaction id: <span className="font-mono">{order.transactionId}</span>
            </span>
          ) : null}
        </p>
        <OrderCancelledNotice order={order} mayAskPayout={mayAskPayout} />
        <ApprovalNotice
          approval={approval}
          order={{ id: order.id, number: order.number, placedBy: order.userName, mayDecide }}
          totalCents={order.totalCents}
          withdrawPath={cancelOrderPath(order.id)}
          lastResult={lastResult}
        />
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
        <SaveToListForm
          source={{ intent: "save-order", orderId: order.id }}
          lists={saveLists}
          redirectTo={`/dashboard/orders/${order.id}`}
        />
      </div>
    </InCurrency>
  );
}

export const meta: MetaFunction = () => [{ title: "Order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
