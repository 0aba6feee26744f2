import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useIsPending } from "~/components/forms";
import { RemoveOrderPageForm } from "~/components/remove-order-form";
import { getOrderById } from "~/orders/model/reads.server";
import { removeUnpaidOrder } from "~/orders/service.server";
import { requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { formatCents } from "~/format";
import { describeOrder } from "~/domain/order-lines";
import { ORDER_STATE_WORDS, removableByStaff } from "~/domain/order-states";
import { removeOrderSchema } from "~/forms/cancel-reason";

const NOT_FOUND = "That order does not exist.";

const notRemovable = (order: { number: string; state: keyof typeof ORDER_STATE_WORDS }) =>
  `Only orders unpaid or awaiting approval, with no money received, can be removed; ${order.number} is ${ORDER_STATE_WORDS[order.state]}.`;

/**
 * The Remove confirmation as a page (the modal of Manage Orders, without JavaScript): staff say why,
 * and the order is removed with its reason, which its customer reads.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getOrderById(params.id ?? "");
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
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
        userName: order.userName,
        status: order.status,
        state: order.state,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await readForm(request), { schema: removeOrderSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (submission.value.orderId !== params.id) throw new Response(NOT_FOUND, { status: 404 });
  const removed = await removeUnpaidOrder(submission.value.orderId, {
    actor: admin,
    context,
    reason: submission.value.reason,
  });
  if (!removed) {
    const order = await getOrderById(submission.value.orderId);
    if (!order) throw new Response(NOT_FOUND, { status: 404 });
    return data(submission.reply({ formErrors: [notRemovable(order)] }), { status: 409 });
  }
  return redirectWithSuccess(
    "/dashboard/manageOrders",
    `${removed.number} (${removed.summary} for ${removed.userName}) is removed and its stock is back`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function RemoveOrderPage() {
  const { order } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Remove unpaid order {order.number}?</h1>
      <p className="mt-2 text-slate-700">
        {describeOrder(order)} for {order.userName}, {formatCents(order.totalCents, { currency: order.currency })}
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {removableByStaff(order.state) ? (
          <RemoveOrderPageForm order={order} lastResult={lastResult} pending={pending} />
        ) : (
          <>
            <p>{notRemovable(order)}</p>
            <Link to="/dashboard/manageOrders" className="mt-4 inline-block font-medium text-brand-700 underline">
              Back to Manage Orders
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Remove order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
