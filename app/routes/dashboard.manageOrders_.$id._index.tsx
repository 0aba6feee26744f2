import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { orderShopActors } from "~/models/audit.server";
import { getOrderById } from "~/models/order.server";
import { requireAdmin } from "~/utils/auth.server";
import { orderTimeline } from "~/utils/order-timeline";
import { ORDER_STATUS_LABELS } from "~/utils/shop-forms";
import { OrderDetails, OrderHeading } from "~/components/order-details";
import { documentsOf } from "~/utils/order-documents.server";

const NOT_FOUND = "There is no order with that number.";

/** Any order, for admins: lines, totals, delivery, the Stripe transaction id, and who did what when. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = params.id ?? "";
  const [order, actors] = await Promise.all([getOrderById(id), orderShopActors(id)]);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  return json(
    { order, timeline: orderTimeline(order, "admin", actors), documents: documentsOf(order, "admin") },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AdminOrderPage() {
  const { order, timeline, documents } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <OrderHeading back={{ to: "/dashboard/manageOrders", label: "Manage Orders" }} order={order} />
      <dl className="mt-3 grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-700">Status</dt>
        <dd data-testid="order-status">{ORDER_STATUS_LABELS[order.status]}</dd>
        <dt className="font-medium text-slate-700">Customer</dt>
        <dd>
          {order.userName} <span className="break-all text-slate-600">({order.userEmail})</span>
        </dd>
        <dt className="font-medium text-slate-700">Stripe transaction id</dt>
        <dd className="break-all font-mono" data-testid="transaction-id">
          {order.transactionId ?? "none (not paid)"}
        </dd>
        {order.poNumber ? (
          <>
            <dt className="font-medium text-slate-700">Customer’s PO number</dt>
            <dd data-testid="po-number">{order.poNumber}</dd>
          </>
        ) : null}
      </dl>
      <OrderDetails order={order} timeline={timeline} documents={documents} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
