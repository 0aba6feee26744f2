import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { useMoney } from "./money";

/**
 * A customer's price with the list price beside it when theirs is lower (a group price or a volume
 * break); the list price alone otherwise. Amounts in the surrounding currency (`InCurrency`).
 */
export function PriceWithList({
  cents,
  listCents,
  className = "",
}: {
  cents: number;
  listCents?: number | null;
  className?: string;
}) {
  const money = useMoney();
  const lower = listCents != null && listCents > cents;
  return (
    <span className={className} data-testid="your-price">
      {money(cents)}
      {lower ? (
        <>
          {" "}
          <span className="text-xs font-normal text-slate-600">
            <span className="sr-only">list price </span>
            <s data-testid="list-price">{money(listCents)}</s>
          </span>
        </>
      ) : null}
    </span>
  );
}

type TaxRow = { label: string; amountCents: number; note: string | null; kind: string };

/** The net and each tax line (or why none is charged), as table rows above a table's total. */
export function TaxSummaryRows({
  netCents,
  taxLines,
  labelColSpan,
  trailingCells = 0,
}: {
  netCents: number;
  taxLines: TaxRow[];
  labelColSpan: number;
  trailingCells?: number;
}) {
  const money = useMoney();
  const trail = Array.from({ length: trailingCells }, (_, i) => <td key={i} />);
  return (
    <>
      <tr>
        <th scope="row" colSpan={labelColSpan} className="px-3 py-1 text-right font-normal">
          Net
        </th>
        <td className="px-3 py-1 text-right" data-testid="net-total">
          {money(netCents)}
        </td>
        {trail}
      </tr>
      {taxLines.map((line, index) => (
        <tr key={index} data-testid="tax-line">
          <th scope="row" colSpan={labelColSpan} className="px-3 py-1 text-right font-normal">
            {line.label}
            {line.note ? <span className="block text-xs text-slate-600">{line.note}</span> : null}
          </th>
          <td className="px-3 py-1 text-right" data-testid="tax-amount">
            {money(line.amountCents)}
          </td>
          {trail}
        </tr>
      ))}
    </>
  );
}

/** Where a part has no price list in the currency shown: not sold in it, never a converted price. */
export function NotSoldIn({ currency }: { currency: Currency }) {
  return (
    <span className="text-sm font-medium text-slate-700" data-testid="not-sold-in">
      No price in {CURRENCIES[currency].plural} yet
    </span>
  );
}
