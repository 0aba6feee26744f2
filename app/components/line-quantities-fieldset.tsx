import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { Field } from "./forms";

type OrderLine = { productName: string; partNumber: string };
// Any form's `lines` list: Conform types a field by its form, which differs from form to form.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LinesMeta = FieldMetadata<{ quantity: number }[] | undefined, any, string[]>;

/**
 * A number of units for each line of an order (names `lines[i].quantity`, by the line's place on
 * the order): the part's name and number, what `detail` says of the line, and its units field
 * (0 up to `max`) with its errors. The server checks each line's units again.
 */
export function LineQuantitiesFieldset<Line extends OrderLine>({
  legend,
  meta,
  lines,
  max,
  detail,
  testId,
  className,
}: {
  legend: string;
  meta: LinesMeta;
  lines: Line[];
  max: (line: Line, index: number) => number;
  /** What the customer or staff should know of the line's units (shipped, on backorder, …). */
  detail: (line: Line, index: number) => ReactNode;
  testId: string;
  className?: string;
}) {
  const lineFields = meta.getFieldList();
  return (
    <fieldset className={className}>
      <legend className="mb-1 block text-sm font-medium text-slate-800">{legend}</legend>
      <ul className="divide-y divide-slate-200 rounded border border-slate-200" data-testid={testId}>
        {lines.map((line, index) => {
          const quantity = lineFields[index]?.getFieldset().quantity;
          if (!quantity) return null;
          return (
            <li key={index} className="grid gap-2 p-3 sm:grid-cols-[1fr_10rem] sm:items-start">
              <div className="text-sm">
                <p className="font-medium">
                  {line.productName} <span className="font-normal text-slate-600">({line.partNumber})</span>
                </p>
                <p className="text-slate-700">{detail(line, index)}</p>
              </div>
              <Field
                meta={quantity}
                label={`Units of ${line.partNumber || line.productName}`}
                type="number"
                inputProps={{ min: 0, max: max(line, index), step: 1, inputMode: "numeric" }}
              />
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
