import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { OrderLinesTable } from "~/components/order-lines";
import { OrderTimeline } from "~/components/order-timeline";
import { orderShopActors } from "~/models/audit.server";
import { getOrderById } from "~/models/order.server";
import { requireAdmin } from "~/utils/auth.server";
import { orderTimeline } from "~/utils/order-timeline";
import { ORDER_STATUS_LABELS } from "~/utils/shop-forms";
import { DOCUMENT_TITLES, documentPath } from "~/components/order-document";
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

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

export default function AdminOrderPage() {
  const { order, timeline, documents } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <p>
        <Link to="/dashboard/manageOrders" className={linkClass}>
          Manage Orders
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Order {order.summary}</h1>
      <p className="mt-1 text-sm text-slate-600">
        Order number <span className="font-mono">{order.id}</span>
      </p>
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
      <div className="mt-4">
        <OrderLinesTable lines={order.lines} totalCents={order.totalCents} caption="Every line of this order" />
      </div>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="delivery-heading">
          <h2 id="delivery-heading" className="font-semibold">
            Delivery
          </h2>
          <p className="text-slate-800">{order.userName}</p>
          <p className="text-slate-800">{order.phone}</p>
          <p className="whitespace-pre-line text-slate-800">{order.address}</p>
        </section>
        <section aria-labelledby="timeline-heading">
          <h2 id="timeline-heading" className="font-semibold">
            Timeline
          </h2>
          <OrderTimeline events={timeline} />
        </section>
      </div>
      {documents.length ? (
        <section aria-labelledby="documents-heading" className="mt-6">
          <h2 id="documents-heading" className="font-semibold">
            Documents
          </h2>
          <ul className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
            {documents.map((kind) => (
              <li key={kind} className="flex flex-wrap gap-x-3">
                <Link to={documentPath(order.id, kind)} className={`${linkClass} inline-flex min-h-11 items-center`}>
                  {DOCUMENT_TITLES[kind]}
                </Link>
                <a
                  href={documentPath(order.id, kind, true)}
                  download
                  className={`${linkClass} inline-flex min-h-11 items-center`}
                >
                  {DOCUMENT_TITLES[kind]} (PDF)
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
