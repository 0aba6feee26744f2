import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { Button, ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { MAX_QUOTE_LINES } from "~/domain/quotes";
import { NEW_QUOTE_PATH, QUOTES_PATH } from "~/forms/quote-forms";
import { quoteRequestFormSchema } from "~/forms/quote-request-form";
import { useHydrated } from "~/hooks/hydrated";

export type RequestRow = { partNumber: string; quantity: string; targetPrice?: string };

/**
 * The buyer's request for a quote: a row per part (part number, quantity, an optional target price a
 * unit), the delivery date wanted and a note. Rows are added and removed in the page with JavaScript;
 * without it the form starts with empty rows and "Add more lines" posts back with more, nothing lost.
 */
export function QuoteRequestForm({
  rows,
  currency,
  lastResult,
  today,
}: {
  rows: RequestRow[];
  currency: Currency;
  lastResult: SubmissionResult<string[]> | undefined;
  today: string;
}) {
  const [form, fields] = useForm({
    id: "quote-request",
    lastResult,
    constraint: getZodConstraint(quoteRequestFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { lines: rows, wantedBy: "", note: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quoteRequestFormSchema }),
  });
  const hydrated = useHydrated();
  const isPending = useIsPending({ formAction: NEW_QUOTE_PATH });
  const lines = fields.lines.getFieldList();
  const symbol = CURRENCIES[currency].symbol;
  return (
    <Form method="post" action={NEW_QUOTE_PATH} className="mt-6" {...getFormProps(form)}>
      {/* Enter in a field sends the request: the first submit button of a form is the one Enter presses. */}
      <button type="submit" className="hidden" tabIndex={-1} aria-hidden="true">
        Request the quote
      </button>
      <input type="hidden" name="intent" value="request" />
      <fieldset className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
        <legend className="px-1 text-lg font-semibold">Parts</legend>
        <p className="text-sm text-slate-600">
          A row per part, at or above its minimum order. The target price is what you hope to pay a unit, in {currency}{" "}
          ({symbol}); leave it empty if you have none. Empty rows are left out.
        </p>
        <ErrorList id={fields.lines.errorId} errors={fields.lines.errors} />
        <ol className="divide-y divide-slate-200" data-testid="quote-request-rows">
          {lines.map((line, index) => {
            const row = line.getFieldset();
            return (
              <li key={line.key} className="grid gap-x-3 py-2 sm:grid-cols-[1fr_8rem_9rem_auto] sm:items-start">
                <Field
                  meta={row.partNumber}
                  label={`Part number, line ${index + 1}`}
                  inputProps={{ autoComplete: "off", spellCheck: false }}
                />
                <Field
                  meta={row.quantity}
                  label="Quantity"
                  type="number"
                  inputProps={{ min: 1, step: 1, inputMode: "numeric" }}
                />
                <Field
                  meta={row.targetPrice}
                  label={`Target price (${symbol})`}
                  inputProps={{ inputMode: "decimal", autoComplete: "off", placeholder: "optional" }}
                />
                {lines.length > 1 ? (
                  <div className="sm:pt-6">
                    <Button
                      variant="secondary"
                      {...form.remove.getButtonProps({ name: fields.lines.name, index })}
                      aria-label={`Remove line ${index + 1}`}
                    >
                      Remove
                    </Button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
        {lines.length < MAX_QUOTE_LINES ? (
          hydrated ? (
            <Button variant="secondary" className="mt-2" {...form.insert.getButtonProps({ name: fields.lines.name })}>
              Add more lines
            </Button>
          ) : (
            // Without JavaScript: back with every row as typed and empty rows below them.
            <Button variant="secondary" className="mt-2" type="submit" name="more" value="rows" formNoValidate>
              Add more lines
            </Button>
          )
        ) : null}
      </fieldset>
      <div className="mt-4 grid gap-x-4 sm:grid-cols-2">
        <Field
          meta={fields.wantedBy}
          label="Delivery wanted by (optional)"
          inputProps={{ type: "date", min: today }}
          help="The day you need the parts; we quote lead times against it."
        />
      </div>
      <TextareaField
        meta={fields.note}
        label="Note (optional)"
        textareaProps={{ rows: 3 }}
        help={{
          id: "quote-note-help",
          text: "Anything we should know: packaging, a project, a price you were offered.",
        }}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pending={isPending} pendingText="Sending the request…">
          Request the quote
        </SubmitButton>
        <Link to={QUOTES_PATH} className="inline-flex min-h-11 items-center font-medium text-brand-700 underline">
          Back to my quotes
        </Link>
      </div>
      <p className="mt-2 text-sm text-slate-600">
        We answer within a working day, on your quote&apos;s page and by email.
      </p>
    </Form>
  );
}
