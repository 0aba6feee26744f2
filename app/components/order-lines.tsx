import { DataTable, type Column } from "~/components/ui/data-table";
import { PriceWithList, TaxSummaryRows } from "~/components/prices";
import { formatQuantity } from "~/format";
import { useMoney } from "./money";

type Line = {
  partId: string;
  partNumber: string;
  productName: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  listUnitPriceCents?: number | null;
};

type TaxLine = { kind: string; label: string; amountCents: number; note: string | null };

const LINE_COLUMNS: Column[] = [
  { label: "Part number" },
  { label: "Part" },
  { label: "Unit price", align: "right" },
  { label: "Quantity", align: "right" },
  { label: "Line total", align: "right" },
];

/**
 * Every line of an order: part number, part, unit price, quantity, line total, and the order's total,
 * in the surrounding currency (the order's page wraps it in the order's `InCurrency`).
 * Below `md` each line is a card (the part is its title), as in every DataTable.
 */
export function OrderLinesTable({
  lines,
  totalCents,
  netCents,
  taxLines = [],
  caption,
}: {
  lines: Line[];
  totalCents: number;
  /** The net and tax lines frozen on the order (orders placed before tax have none: total only). */
  netCents?: number;
  taxLines?: TaxLine[];
  caption: string;
}) {
  const money = useMoney();
  return (
    <DataTable
      caption={caption}
      columns={LINE_COLUMNS}
      className=""
      testId="order-lines"
      footer={
        <>
          {taxLines.length ? (
            <TaxSummaryRows netCents={netCents ?? totalCents} taxLines={taxLines} labelColSpan={4} />
          ) : null}
          <tr>
            <th scope="row" colSpan={4} className="px-3 py-2 text-right font-semibold">
              {taxLines.length ? "Total with tax" : "Total"}
            </th>
            <td className="px-3 py-2 text-right font-semibold" data-testid="order-total">
              {money(totalCents)}
            </td>
          </tr>
        </>
      }
    >
      {lines.map((line) => (
        <tr key={line.partId} data-testid="order-line">
          <td className="px-3 py-2" data-label="Part number">
            <span className="font-mono">{line.partNumber || "—"}</span>
          </td>
          <th scope="row" className="px-3 py-2 font-medium max-md:order-first">
            {line.productName}
          </th>
          <td className="px-3 py-2 text-right" data-label="Unit price">
            <PriceWithList cents={line.unitPriceCents} listCents={line.listUnitPriceCents} />
          </td>
          <td className="px-3 py-2 text-right" data-label="Quantity">
            {formatQuantity(line.quantity)}
          </td>
          <td className="px-3 py-2 text-right" data-label="Line total">
            {money(line.lineTotalCents)}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** In a list row: the lines of an order of several lines, folded (a native <details>, no JavaScript needed). */
export function OrderLinesDetails({ lines }: { lines: Line[] }) {
  const money = useMoney();
  if (lines.length < 2) return null;
  return (
    <details className="text-xs font-normal">
      <summary className="cursor-pointer py-3.5 text-brand-700">All {lines.length} lines</summary>
      <ul className="mt-1 space-y-0.5 text-slate-700">
        {lines.map((line) => (
          <li key={line.partId}>
            <span className="font-mono">{line.partNumber}</span> {line.productName}: {formatQuantity(line.quantity)} ×{" "}
            {money(line.unitPriceCents)} = {money(line.lineTotalCents)}
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
