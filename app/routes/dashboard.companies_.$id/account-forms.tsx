/**
 * Staff's forms for a company's trade account on its record: the currency it buys in, and its payment
 * terms with the credit limit (typed in whole units of that currency).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList, Field, SelectField, SubmitButton } from "~/components/forms";
import { CURRENCIES } from "~/content/currencies";
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { PAYMENT_TERMS, termsWords } from "~/domain/order-states";
import { accountTermsSchema, companyCurrencySchema } from "./forms";

type Result = SubmissionResult<string[]> | null;

const usePendingIntent = (intent: string) => {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
};

export function TermsForm({
  lastResult,
  termsDays,
  creditLimitCents,
  currency,
}: {
  lastResult: Result;
  termsDays: number;
  creditLimitCents: number;
  currency: Currency;
}) {
  const pending = usePendingIntent("terms");
  const schema = accountTermsSchema(currency);
  const [form, fields] = useForm({
    id: "company-terms",
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue: {
      termsDays: String(termsDays),
      creditLimit: String(creditLimitCents / 10 ** CURRENCIES[currency].minorUnits),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="terms" />
      <SelectField meta={fields.termsDays} label="Terms" alwaysChosen>
        {PAYMENT_TERMS.map((days) => (
          <option key={days} value={String(days)}>
            {termsWords(days)}
          </option>
        ))}
      </SelectField>
      <Field
        meta={fields.creditLimit}
        label={`Credit limit (whole ${CURRENCIES[currency].units})`}
        type="number"
        inputProps={{ min: 0, step: 1, inputMode: "numeric" }}
      />
      <div className="sm:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={pending} pendingText="Saving…">
          Save terms
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The currency the company buys in: one of the shop's, chosen from the list. */
export function CurrencyForm({ lastResult, currency }: { lastResult: Result; currency: Currency }) {
  const pending = usePendingIntent("currency");
  const [form, fields] = useForm({
    id: "company-currency",
    lastResult,
    constraint: getZodConstraint(companyCurrencySchema),
    defaultValue: { currency },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companyCurrencySchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="currency" />
      <SelectField meta={fields.currency} label="Currency" alwaysChosen>
        {CURRENCY_CODES.map((code) => (
          <option key={code} value={code}>
            {CURRENCIES[code].symbol} {CURRENCIES[code].name} ({code})
          </option>
        ))}
      </SelectField>
      <div className="sm:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={pending} pendingText="Saving…">
          Save currency
        </SubmitButton>
      </div>
    </Form>
  );
}
