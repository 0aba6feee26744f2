import { formatCents } from "~/utils/misc";

type Line = {
  partId: string;
  partNumber: string;
  productName: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
};

/** Every line of an order: part number, part, unit price, quantity, line total, and the order's total. */
export function OrderLinesTable({
  lines,
  totalCents,
  caption,
}: {
  lines: Line[];
  totalCents: number;
  caption: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="order-lines">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-100 text-slate-800">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Part number
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Part
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Unit price
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Quantity
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Line total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {lines.map((line) => (
            <tr key={line.partId} data-testid="order-line">
              <td className="px-3 py-2 font-mono">{line.partNumber || "—"}</td>
              <th scope="row" className="px-3 py-2 font-medium">
                {line.productName}
              </th>
              <td className="px-3 py-2 text-right">{formatCents(line.unitPriceCents)}</td>
              <td className="px-3 py-2 text-right">{line.quantity.toLocaleString("en-US")}</td>
              <td className="px-3 py-2 text-right">{formatCents(line.lineTotalCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={4} className="px-3 py-2 text-right font-semibold">
              Total
            </th>
            <td className="px-3 py-2 text-right font-semibold" data-testid="order-total">
              {formatCents(totalCents)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** In a list row: the lines of an order of several lines, folded (a native <details>, no JavaScript needed). */
export function OrderLinesDetails({ lines }: { lines: Line[] }) {
  if (lines.length < 2) return null;
  return (
    <details className="mt-1 text-xs font-normal">
      <summary className="cursor-pointer text-brand-700">All {lines.length} lines</summary>
      <ul className="mt-1 space-y-0.5 text-slate-700">
        {lines.map((line) => (
          <li key={line.partId}>
            <span className="font-mono">{line.partNumber}</span> {line.productName}:{" "}
            {line.quantity.toLocaleString("en-US")} × {formatCents(line.unitPriceCents)} ={" "}
            {formatCents(line.lineTotalCents)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** In a list row: the buyer's purchase-order number, when the order has one. */
export function PoNumber({ poNumber }: { poNumber: string | null }) {
  if (!poNumber) return null;
  return (
    <span className="block text-xs font-normal text-slate-700" data-testid="po-number">
      PO {poNumber}
    </span>
  );
}
