import { Link } from "@remix-run/react";
import type { ComponentProps } from "react";
import { DOCUMENT_TITLES, documentPath, type DocumentKind } from "./order-document";
import { OrderLinesTable } from "./order-lines";
import { OrderTimeline } from "./order-timeline";

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800 inline-flex min-h-11 items-center";

/** The top of an order's page: the way back to its list, the order's summary and its number. */
export function OrderHeading({
  back,
  order,
}: {
  back: { to: string; label: string };
  order: { id: string; summary: string };
}) {
  return (
    <>
      <p>
        <Link to={back.to} className="font-medium text-brand-700 underline hover:text-brand-800">
          {back.label}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Order {order.summary}</h1>
      <p className="mt-1 text-sm text-slate-600">
        Order number <span className="font-mono">{order.id}</span>
      </p>
    </>
  );
}

/** What the customer's and the admin's order pages both show: lines, delivery, timeline, papers. */
export function OrderDetails({
  order,
  timeline,
  documents,
}: {
  order: { id: string; userName: string; phone: string; address: string } & Pick<
    ComponentProps<typeof OrderLinesTable>,
    "lines" | "totalCents"
  >;
  timeline: ComponentProps<typeof OrderTimeline>["events"];
  documents: readonly DocumentKind[];
}) {
  return (
    <>
      <div className="mt-4">
        <OrderLinesTable lines={order.lines} totalCents={order.totalCents} caption="Every line of this order" />
      </div>
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="delivery-heading" className="min-w-0 break-words">
          <h2 id="delivery-heading" className="font-semibold">
            Delivery
          </h2>
          <p className="text-slate-800">{order.userName}</p>
          <p className="text-slate-800">{order.phone}</p>
          <p className="whitespace-pre-line text-slate-800">{order.address}</p>
        </section>
        <section aria-labelledby="timeline-heading" className="min-w-0 break-words">
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
                <Link to={documentPath(order.id, kind)} className={linkClass}>
                  {DOCUMENT_TITLES[kind]}
                </Link>
                <a href={documentPath(order.id, kind, true)} download className={linkClass}>
                  {DOCUMENT_TITLES[kind]} (PDF)
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
