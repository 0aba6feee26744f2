/**
 * The request form's reading of quoteRequestSchema: the form shows empty rows to type into (without
 * JavaScript there is no adding one at a time), so a row left wholly empty is skipped, and a row
 * begun needs its part number and quantity. Errors keep the row's place on the screen.
 */
import { z } from "zod";
import { MAX_QUOTE_LINES } from "~/domain/quotes";
import { quoteRequestLineSchema, quoteRequestSchema, type QuoteRequestValue } from "./quote-forms";

/** Empty rows the form starts with (and "Add more lines" adds without JavaScript). */
export const EMPTY_QUOTE_ROWS = 3;

const rowSchema = quoteRequestLineSchema.partial();
type Row = z.infer<typeof rowSchema> | undefined;

export const isBlankRow = (row: Row) => !row || (!row.partNumber && row.quantity === undefined && !row.targetPrice);

export const quoteRequestFormSchema = quoteRequestSchema.extend({
  lines: z
    .array(rowSchema.optional(), { required_error: "Add at least one part" })
    .max(MAX_QUOTE_LINES + EMPTY_QUOTE_ROWS, `A quote request has at most ${MAX_QUOTE_LINES} lines`)
    .superRefine((rows, ctx) => {
      const begun = rows.filter((row) => !isBlankRow(row)).length;
      if (begun === 0) ctx.addIssue({ code: "custom", message: "Add at least one part" });
      if (begun > MAX_QUOTE_LINES)
        ctx.addIssue({ code: "custom", message: `A quote request has at most ${MAX_QUOTE_LINES} lines` });
      rows.forEach((row, index) => {
        if (isBlankRow(row)) return;
        if (!row?.partNumber)
          ctx.addIssue({ code: "custom", message: "Enter a part number", path: [index, "partNumber"] });
        if (row?.quantity === undefined)
          ctx.addIssue({ code: "custom", message: "Quantity is Required", path: [index, "quantity"] });
      });
    }),
});
export type QuoteRequestForm = z.infer<typeof quoteRequestFormSchema>;

/**
 * The request as the service takes it (its rows begun only), and where each of its lines sits on
 * the screen, so the service's errors (`lines[0].quantity`) land on the row the buyer typed.
 */
export function compactRequest(form: QuoteRequestForm): { value: QuoteRequestValue; rowOf: number[] } {
  const rowOf: number[] = [];
  const lines: QuoteRequestValue["lines"] = [];
  form.lines.forEach((row, index) => {
    if (isBlankRow(row) || !row?.partNumber || row.quantity === undefined) return;
    rowOf.push(index);
    lines.push({ partNumber: row.partNumber, quantity: row.quantity, targetPrice: row.targetPrice });
  });
  return { value: { intent: "request", lines, wantedBy: form.wantedBy, note: form.note }, rowOf };
}

/** The service's errors by field, with each line's index turned back into its row on the screen. */
export function errorsOnRows(errors: Record<string, string[]>, rowOf: number[]) {
  return Object.fromEntries(
    Object.entries(errors).map(([name, messages]) => [
      name.replace(/^lines\[(\d+)\]/, (_, index: string) => `lines[${rowOf[Number(index)] ?? index}]`),
      messages,
    ]),
  );
}
