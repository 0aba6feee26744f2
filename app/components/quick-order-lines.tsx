/** The quick-order pad's answer to "Check the lines": each line as it was read, priced, and what is wrong with it. */
import { useMoney } from "~/components/money";
import { useEffect, useRef } from "react";
import { PriceWithList } from "~/components/prices";
import { DataTable, type Column } from "~/components/ui/data-table";
import { formatQuantity } from "~/format";
import { QUICK_ORDER_PATH } from "~/forms/quick-order";

/** A line of the pad, checked (services/quick-order.server.ts) and priced for the customer. */
type CheckedLine = {
  lineNumbers: number[];
  partNumber: string;
  quantityText: string;
  quantity: number | null;
  part: { name: string; priceCents: number; minOrderQuantity: number } | null;
  lineTotalCents: number | null;
  backorder: string | null;
  listPriceCents?: number | null;
  problem: { reason: string; message: string } | null;
};

const CHECK_COLUMNS: Column[] = [
  { label: "Part" },
  { label: "Line" },
  { label: "Quantity", align: "right" },
  { label: "Unit price", align: "right" },
  { label: "Line total", align: "right" },
  { label: "Check" },
];

/** Each checked line: a table row on a desktop, a card on a phone, its reason and any "Round up" on it. */
export function CheckedLines({
  checks,
  valid,
  formId,
  stamp,
}: {
  checks: CheckedLine[];
  valid: CheckedLine[];
  formId: string;
  /** A new answer: a hydrated page stays where the button was, so it is brought into view and read out. */
  stamp: number;
}) {
  const money = useMoney();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus({ preventScroll: true });
  }, [stamp]);
  const total = valid.reduce((sum, check) => sum + (check.lineTotalCents ?? 0), 0);
  const broken = checks.length - valid.length;
  return (
    <section
      aria-labelledby="checked-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
      id="checked"
    >
      <h2 id="checked-heading" ref={heading} tabIndex={-1} className="scroll-mt-4 text-xl font-semibold outline-none">
        Checked lines
      </h2>
      <p className="mt-1 text-slate-700" data-testid="pad-summary">
        {valid.length} valid {valid.length === 1 ? "line" : "lines"} ({money(total)})
        {broken ? `, ${broken} to fix` : ""}.
      </p>
      <DataTable caption="Each line of the pad, checked" columns={CHECK_COLUMNS}>
        {checks.map((check) => (
          <tr key={check.lineNumbers[0]} data-testid={`pad-line-${check.partNumber}`}>
            <th scope="row" className="px-3 py-2 font-medium">
              <span className="font-mono">{check.partNumber}</span>
              <span className="block font-normal text-slate-700">{check.part?.name ?? "—"}</span>
            </th>
            <td className="px-3 py-2" data-label="Line">
              {check.lineNumbers.join(", ")}
            </td>
            <td className="px-3 py-2 md:text-right" data-label="Quantity">
              {check.quantity === null ? check.quantityText : formatQuantity(check.quantity)}
            </td>
            <td className="px-3 py-2 md:text-right" data-label="Unit price">
              {check.part ? <PriceWithList cents={check.part.priceCents} listCents={check.listPriceCents} /> : "—"}
            </td>
            <td className="px-3 py-2 md:text-right" data-label="Line total">
              {check.lineTotalCents !== null ? money(check.lineTotalCents) : "—"}
            </td>
            <td className="px-3 py-2 max-md:col-span-2" data-label="Check">
              <span className={check.problem ? "text-red-700" : "text-green-800"} data-testid="pad-check">
                {check.problem
                  ? check.problem.message
                  : check.lineNumbers.length > 1
                    ? `OK (lines ${check.lineNumbers.slice(0, -1).join(", ")} and ${check.lineNumbers.at(-1)} merged)`
                    : "OK"}
              </span>
              {check.backorder && !check.problem ? (
                <span className="block text-sm text-amber-900" data-testid="pad-backorder">
                  {check.backorder}
                </span>
              ) : null}
              {check.problem?.reason === "below-minimum" && check.part ? (
                // Submits the pad (the form above) with this line raised to the minimum, and checks again.
                <button
                  type="submit"
                  form={formId}
                  name="intent"
                  value="check"
                  formAction={`${QUICK_ORDER_PATH}?roundUp=${encodeURIComponent(check.partNumber)}`}
                  formNoValidate
                  className="mt-1 flex min-h-11 items-center rounded border border-brand-700 px-3 py-1 text-sm font-medium text-brand-800 hover:bg-brand-50"
                >
                  Round up to {formatQuantity(check.part.minOrderQuantity)}
                  <span className="sr-only"> units of {check.partNumber}</span>
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
