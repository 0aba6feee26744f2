import { Link } from "@remix-run/react";
import type { ComponentProps } from "react";
import { DOCUMENT_TITLES, documentPath, type DocumentKind, ublPath } from "~/domain/order-document";
import { OrderFulfilment } from "./order-fulfilment";
import { OrderLinesTable } from "./order-lines";
import { OrderTimeline } from "./order-timeline";
import { useMoney } from "./money";
import { paymentLine, receivedPayments, type PaymentFacts } from "~/domain/order-payments";
import { formatDay } from "~/domain/order-states";
import { describeShipment } from "~/domain/shipping";

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800 inline-flex min-h-11 items-center";

/** The top of an order's page: the way back to its list, the order's summary and its number. */
export function OrderHeading({
  back,
  order,
}: {
  back: { to: string; label: string };
  order: { id: string; number: string; summary: string };
}) {
  return (
    <>
      <p>
        <Link to={back.to} className="font-medium text-brand-700 underline hover:text-brand-800">
          {back.label}
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Order {order.number}</h1>
      <p className="mt-1 text-slate-700">{order.summary}</p>
    </>
  );
}

/** What the customer's and the admin's order pages both show: lines, delivery, timeline, papers. */
export function OrderDetails({
  order,
  timeline,
  documents,
}: {
  order: {
    id: string;
    userName: string;
    phone: string;
    address: string;
    shipment: { carrier: string; trackingNumber: string | null } | null;
  } & ComponentProps<typeof OrderFulfilment>["order"] &
    Pick<ComponentProps<typeof OrderLinesTable>, "lines" | "totalCents" | "netCents" | "taxLines">;
  timeline: ComponentProps<typeof OrderTimeline>["events"];
  documents: readonly DocumentKind[];
}) {
  return (
    <>
      <div className="mt-4">
        <OrderLinesTable
          lines={order.lines}
          totalCents={order.totalCents}
          netCents={order.netCents}
          taxLines={order.taxLines}
          caption="Every line of this order"
        />
      </div>
      <OrderFulfilment order={order} orderId={order.id} />
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <section aria-labelledby="delivery-heading" className="min-w-0 break-words">
          <h2 id="delivery-heading" className="font-semibold">
            Delivery
          </h2>
          <p className="text-slate-800">{order.userName}</p>
          <p className="text-slate-800">{order.phone}</p>
          <p className="whitespace-pre-line text-slate-800">{order.address}</p>
          {order.shipments.length > 1 ? null : <Shipment shipment={order.shipment} />}
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
                {kind === "invoice" ? (
                  <a href={ublPath(order.id)} download className={linkClass}>
                    E-invoice (UBL XML)
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** How the order left: the carrier with a link to its tracking page, or collected. */
function Shipment({ shipment }: { shipment: { carrier: string; trackingNumber: string | null } | null }) {
  const shown = describeShipment(shipment);
  if (!shown) return null;
  return (
    <p className="mt-2 text-slate-800" data-testid="shipment">
      Shipped with {shown.text}
      {shown.trackingUrl ? (
        <>
          {" "}
          <a href={shown.trackingUrl} className="font-medium text-brand-700 underline" rel="noreferrer">
            Track the parcel
          </a>
        </>
      ) : null}
    </p>
  );
}

/**
 * The order's money: total, how it is paid (card or on account with terms and due date), received, balance;
 * in the order's currency (the page's `InCurrency`, and the order's own for the payment line).
 */
export function PaymentSummary({
  order,
}: {
  order: PaymentFacts & {
    dueAt: string | null;
    invoicedAt: string | null;
    invoiceNumber: number | null;
    status: string;
  };
}) {
  const money = useMoney();
  if (order.status === "cancelled" || order.status === "removed") return null;
  const received = receivedPayments(order);
  return (
    <dl
      className="mt-3 grid gap-x-4 gap-y-1 rounded border border-slate-200 bg-slate-50 p-3 sm:grid-cols-[max-content_1fr]"
      data-testid="payment-summary"
    >
      <dt className="font-medium text-slate-700">Payment</dt>
      <dd data-testid="payment-line">{paymentLine(order)}</dd>
      {order.invoiceNumber && order.invoicedAt ? (
        <>
          <dt className="font-medium text-slate-700">Invoice date</dt>
          <dd data-testid="invoice-date">{formatDay(order.invoicedAt)}</dd>
        </>
      ) : null}
      {order.dueAt ? (
        <>
          <dt className="font-medium text-slate-700">Due</dt>
          <dd>{formatDay(order.dueAt)}</dd>
        </>
      ) : null}
      <dt className="font-medium text-slate-700">Total</dt>
      <dd>{money(order.totalCents)}</dd>
      <dt className="font-medium text-slate-700">Received</dt>
      <dd>
        {money(order.paidCents)}
        {received.length ? (
          <ul className="text-sm text-slate-700" data-testid="payments-received">
            {received.map((payment, index) => (
              <li key={index}>
                {formatDay(payment.on)}: {money(payment.amountCents)} by {payment.method.toLowerCase()}
                {payment.reference ? `, reference ${payment.reference}` : ""}
              </li>
            ))}
          </ul>
        ) : null}
      </dd>
      <dt className="font-medium text-slate-700">Balance</dt>
      <dd data-testid="balance">{money(order.balanceCents)}</dd>
    </dl>
  );
}
