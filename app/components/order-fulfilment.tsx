import { Link } from "@remix-run/react";
import { formatDay } from "~/domain/order-states";
import { formatQuantity } from "~/format";
import { describeShipment } from "~/domain/shipping";

type FulfilmentOrder = {
  lines: {
    productName: string;
    partNumber: string;
    quantity: number;
    backorderedQuantity: number;
    backorderExpectedOn: string | null;
    shippedQuantity: number;
  }[];
  shipments: {
    id: string;
    number: number;
    carrier: string;
    trackingNumber: string | null;
    shippedAt: string;
    note: string | null;
    lines: { productName: string; partNumber: string; quantity: number }[];
  }[];
};

/**
 * What of the order waits on backorder (and when it is expected) and every parcel it left in, with
 * its lines, carrier and tracking. Nothing when the order is neither backordered nor part-shipped.
 */
export function OrderFulfilment({ order, orderId }: { order: FulfilmentOrder; orderId?: string }) {
  const waiting = order.lines.filter((line) => line.backorderedQuantity > 0);
  const parcels = order.shipments.length > 1 || order.lines.some((line) => line.shippedQuantity < line.quantity);
  if (!waiting.length && !(order.shipments.length && parcels)) return null;
  return (
    <section aria-labelledby="fulfilment-heading" className="mt-6 min-w-0 break-words" data-testid="fulfilment">
      <h2 id="fulfilment-heading" className="font-semibold">
        Shipping and backorders
      </h2>
      {waiting.length ? (
        <ul className="mt-1 space-y-1" data-testid="backorders">
          {waiting.map((line, index) => (
            <li key={index} className="rounded bg-amber-50 px-3 py-2 text-amber-900">
              {formatQuantity(line.backorderedQuantity)} × {line.productName} on backorder
              {line.backorderExpectedOn ? `, expected ${formatDay(line.backorderExpectedOn)}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {order.shipments.length ? (
        <ol className="mt-2 space-y-2" data-testid="parcels">
          {order.shipments.map((parcel) => {
            const shown = describeShipment(parcel);
            return (
              <li key={parcel.id} className="rounded border border-slate-200 p-3">
                <p className="font-medium">
                  Parcel {parcel.number}, {formatDay(parcel.shippedAt)}
                </p>
                <p className="text-slate-800">
                  {parcel.lines.map((line) => `${formatQuantity(line.quantity)} × ${line.productName}`).join("; ")}
                </p>
                {shown ? (
                  <p className="text-slate-700">
                    {shown.text}
                    {shown.trackingUrl ? (
                      <>
                        {" "}
                        <a href={shown.trackingUrl} className="font-medium text-brand-700 underline" rel="noreferrer">
                          Track parcel {parcel.number}
                        </a>
                      </>
                    ) : null}
                  </p>
                ) : null}
                {parcel.note ? <p className="text-sm text-slate-600">Note: {parcel.note}</p> : null}
                {orderId && parcel.id !== "whole" ? (
                  <Link
                    to={`/documents/${orderId}/packing-slip?parcel=${parcel.number}`}
                    className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
                  >
                    Packing slip of parcel {parcel.number}
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}
