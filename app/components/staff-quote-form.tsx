/**
 * The shop's answer to a quote: for each line asked for a price a unit (against the list price and the
 * floor), a lead time and the override to quote below the floor; then the validity, terms and a note.
 * The server checks it all again (the floor, the validity, a version sent meanwhile).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ErrorList, Field, inputAttributes, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { CURRENCIES } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { formatDay } from "~/domain/order-states";
import { quoteVersionSchema } from "~/forms/quote-forms";
import { formatCents, formatQuantity } from "~/format";

export type PricedLine = {
  partId: string;
  partNumber: string;
  productName: string;
  quantity: number;
  targetUnitPriceCents: number | null;
  listUnitPriceCents: number | null;
  floorCents: number | null;
  availableQuantity: number;
  backorderable: boolean;
  gone: boolean;
};

export type VersionDefaults = {
  lines: { partId: string; unitPrice: string; leadTimeDays: string; belowFloor?: "on" }[];
  validUntil: string;
  terms: string;
  note: string;
  partialAllowed?: "on";
};

function stockWords(line: PricedLine) {
  if (line.gone) return "No longer sold";
  const stock = `${formatQuantity(Math.max(0, line.availableQuantity))} in stock`;
  if (line.quantity <= line.availableQuantity) return stock;
  return line.backorderable ? `${stock}; the rest may wait on backorder` : `${stock}; no backorders`;
}

export function QuoteVersionForm({
  quoteId,
  label,
  currency,
  versionCount,
  lines,
  defaults,
  today,
  lastDay,
  lastResult,
}: {
  quoteId: string;
  label: string;
  currency: Currency;
  versionCount: number;
  lines: PricedLine[];
  defaults: VersionDefaults;
  today: string;
  lastDay: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useForm({
    // A new id once a version is sent, so the form starts from that version's values.
    id: `quote-version-${quoteId}-${versionCount}`,
    lastResult,
    defaultValue: defaults,
    constraint: getZodConstraint(quoteVersionSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quoteVersionSchema }),
  });
  const pending = useIsPending();
  const lineFields = fields.lines.getFieldList();
  const { key: partialKey, ...partialProps } = inputAttributes(fields.partialAllowed, { type: "checkbox" });
  const money = (cents: number) => formatCents(cents, { currency });
  const next = versionCount + 1;
  return (
    <section
      aria-labelledby="quote-send-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="quote-send-heading" className="text-lg font-semibold">
        {versionCount ? `Revise and send ${label}-${next}` : `Price and send ${label}-1`}
      </h2>
      <p className="text-sm text-slate-600">
        Prices a unit in {CURRENCIES[currency].plural} ({CURRENCIES[currency].symbol}), net. Each version is kept; the
        buyer is emailed.
      </p>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="expectedVersions" value={versionCount} />
        <ul className="space-y-3" data-testid="price-lines">
          {lines.map((line, index) => {
            const field = lineFields[index]?.getFieldset();
            if (!field) return null;
            const { key: belowFloorKey, ...belowFloorProps } = inputAttributes(field.belowFloor, { type: "checkbox" });
            return (
              <li key={line.partId} className="rounded border border-slate-200 p-3" data-testid="price-line">
                <input type="hidden" name={field.partId.name} value={line.partId} />
                <p className="font-medium">
                  {formatQuantity(line.quantity)} × {line.productName}{" "}
                  <span className="font-normal text-slate-600">({line.partNumber})</span>
                </p>
                <p className="text-sm text-slate-700" data-testid="line-facts">
                  List {line.listUnitPriceCents ? money(line.listUnitPriceCents) : `none in ${currency}`}; floor{" "}
                  {line.floorCents ? money(line.floorCents) : "none"}; target{" "}
                  {line.targetUnitPriceCents ? money(line.targetUnitPriceCents) : "none given"}; {stockWords(line)}
                </p>
                <div className="mt-2 grid gap-x-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
                  <Field
                    meta={field.unitPrice}
                    label={`Price a unit of ${line.partNumber}`}
                    inputProps={{ inputMode: "decimal", autoComplete: "off" }}
                  />
                  <Field
                    meta={field.leadTimeDays}
                    label={`Lead time of ${line.partNumber} (days)`}
                    type="number"
                    inputProps={{ min: 0, max: 365, step: 1, inputMode: "numeric" }}
                  />
                  <label className="flex min-h-11 items-center gap-2 sm:pt-6">
                    <input key={belowFloorKey} {...belowFloorProps} className="h-5 w-5" />
                    <span>
                      Quote below the floor<span className="sr-only"> for {line.partNumber}</span>
                    </span>
                  </label>
                </div>
              </li>
            );
          })}
        </ul>
        <div className="mt-4 grid gap-x-4 sm:grid-cols-2">
          <Field
            meta={fields.validUntil}
            label="Valid until (last day)"
            inputProps={{ type: "date", min: today, max: lastDay }}
            help={`From today to ${formatDay(lastDay)} at most.`}
          />
          <label className="flex min-h-11 items-center gap-2 sm:pt-6">
            <input key={partialKey} {...partialProps} className="h-5 w-5" />
            <span>Allow accepting some lines only</span>
          </label>
        </div>
        <TextareaField meta={fields.terms} label="Terms" textareaProps={{ rows: 3 }} />
        <TextareaField meta={fields.note} label="Note to the buyer (optional)" textareaProps={{ rows: 3 }} />
        <SubmitButton pending={pending} pendingText="Sending…">
          Send version {next}
        </SubmitButton>
      </Form>
    </section>
  );
}
