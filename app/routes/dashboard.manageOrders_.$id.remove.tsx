import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ConfirmPageForm } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getOrderById } from "~/orders/model/reads.server";
import { requireAdmin } from "~/services/guards.server";
import { formatCents } from "~/format";
import { describeOrder } from "~/domain/order-lines";
import { ORDER_STATE_WORDS, removableByStaff } from "~/domain/order-states";

/**
 * The Remove confirmation as a page (the modal of Manage Orders, without JavaScript). Its form
 * posts to the Manage Orders action, like the modal's.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getOrderById(params.id ?? "");
  if (!order) throw new Response("That order does not exist.", { status: 404 });
  return data(
    {
      order: {
        id: order.id,
        number: order.number,
        summary: order.summary,
        lineCount: order.lines.length,
        totalQuantity: order.totalQuantity,
        totalCents: order.totalCents,
        userName: order.userName,
        status: order.status,
        state: order.state,
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function RemoveOrderPage() {
  const { order } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Remove unpaid order {order.number}?</h1>
      <p className="mt-2 text-slate-700">
        {describeOrder(order)} for {order.userName}, {formatCents(order.totalCents)}
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {removableByStaff(order.state) ? (
          <ConfirmPageForm
            action="/dashboard/manageOrders"
            hidden={{ intent: "remove", orderId: order.id }}
            message={<p>The order will be removed and its units go back into stock.</p>}
            confirmLabel="Remove"
            pendingLabel="Removing…"
            backTo="/dashboard/manageOrders"
          />
        ) : (
          <>
            <p>
              Only orders unpaid or awaiting approval, with no money received, can be removed; {order.number} is{" "}
              {ORDER_STATE_WORDS[order.state]}.
            </p>
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
