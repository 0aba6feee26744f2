import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useLocation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { CURRENCIES } from "~/content/currencies";
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { displayCurrencySchema } from "~/forms/currency-forms";
import { SelectField, SubmitButton, useIsPending } from "./forms";

/**
 * The visitor's "Prices in" choice: a form posted to /currency, which remembers it and brings the
 * visitor back to the page they were on (with or without JavaScript). A customer buys in their
 * company's currency: they are told which, not asked.
 */
export function CurrencyPicker({
  current,
  customer,
  lastResult = null,
}: {
  current: Currency;
  /** A signed-in customer: their company's currency, shown, not chosen. */
  customer: boolean;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const location = useLocation();
  const pending = useIsPending({ formAction: "/currency" });
  const [form, fields] = useForm({
    id: "display-currency",
    lastResult,
    constraint: getZodConstraint(displayCurrencySchema),
    defaultValue: { currency: current },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: displayCurrencySchema }),
  });
  if (customer) {
    return <p data-testid="shown-currency">Prices in {CURRENCIES[current].plural}, your company&apos;s currency.</p>;
  }
  const back = location.pathname === "/currency" ? "/" : `${location.pathname}${location.search}`;
  return (
    <Form
      method="post"
      action="/currency"
      {...getFormProps(form)}
      className="flex flex-wrap items-end justify-center gap-2"
    >
      <input type="hidden" name="redirectTo" value={back} />
      <SelectField meta={fields.currency} label="Show prices in" alwaysChosen className="text-left">
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code}>
            {CURRENCIES[code].symbol} {CURRENCIES[code].name} ({code})
          </option>
        ))}
      </SelectField>
      {/* Level with the select: below it sits the room its error list keeps. */}
      <SubmitButton pending={pending} pendingText="Saving…" variant="secondary" className="mb-8">
        Show
      </SubmitButton>
    </Form>
  );
}
