import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { CancelOrderPageForm } from "~/components/cancel-order-form";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useIsPending } from "~/components/forms";
import { getOwnOrder } from "~/orders/model/reads.server";
import { cancelCustomerOrder } from "~/orders/service.server";
import { withdrawOrderForApproval } from "~/orders/approvals.server";
import { requireCustomerOrSignOutHome } from "~/services/guards.server";
import { mayHandleOrder } from "~/services/companies.server";
import { formatCents } from "~/format";
import { describeOrder } from "~/domain/order-lines";
import { cancelOrderSchema } from "~/forms/shop-forms";
import { ORDER_STATE_WORDS } from "~/domain/order-states";
import { parseForm, readForm } from "~/services/form.server";

const NOT_FOUND = "We could not find that order in your account.";
const NOT_UNPAID = "Only unpaid orders can be cancelled.";

/** The cancel confirmation as a page: what the modal of My Orders shows, for browsers without JavaScript. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  if (!mayHandleOrder(user, order)) throw new Response(NOT_FOUND, { status: 404 });
  return data(
    {
      order: {
        id: order.id,
        number: order.number,
        summary: order.summary,
        lineCount: order.lines.length,
        totalQuantity: order.totalQuantity,
        currency: order.currency,
        totalCents: order.totalCents,
        status: order.status,
        state: order.state,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  if (!mayHandleOrder(user, order)) throw new Response(NOT_FOUND, { status: 404 });
  const submission = parseForm(await readForm(request), { schema: cancelOrderSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // An order waiting for approval is withdrawn by the buyer who placed it (an owner declines it instead).
  const cancelled =
    order.status === "unpaid"
      ? await cancelCustomerOrder(order.id, user)
      : order.status === "approval" && order.userId === user.id
        ? await withdrawOrderForApproval(user, order.id)
        : null;
  if (!cancelled) return data(submission.reply({ formErrors: [NOT_UNPAID] }), { status: 409 });
  const ended = order.status === "approval" ? "withdrawn: its stock is back on sale" : "cancelled";
  return redirectWithSuccess("/dashboard/orders", `Your order ${cancelled.number} (${cancelled.summary}) is ${ended}`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CancelOrderPage() {
  const { order } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">
        {order.state === "approval" ? "Withdraw" : "Cancel"} order {order.number}?
      </h1>
      <p className="mt-2 text-slate-700">
        {describeOrder(order)}, {formatCents(order.totalCents, { currency: order.currency })}
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {order.state === "unpaid" || order.state === "approval" ? (
          <CancelOrderPageForm order={order} lastResult={lastResult} pending={isPending} />
        ) : (
          <>
            <p>
              {NOT_UNPAID} This one is {ORDER_STATE_WORDS[order.state]}.
            </p>
            <Link to="/dashboard/orders" className="mt-4 inline-block font-medium text-brand-700 underline">
              Back to My Orders
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Cancel order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
