import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { COUNTRY_OPTIONS } from "~/domain/tax-id";
import { companySchema } from "~/utils/trade-schemas";

type Company = { companyName: string; taxId: string; country: string; billingAddress: string };

/** My Profile: company name, country, VAT or tax number (checked against the country's format), billing address. */
export function CompanyForm({ company, lastResult }: { company: Company; lastResult?: SubmissionResult<string[]> }) {
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "company",
    lastResult,
    defaultValue: company,
    constraint: getZodConstraint(companySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companySchema }),
  });
  const { key: countryKey, ...countryProps } = getSelectProps(fields.country);
  return (
    <section aria-labelledby="company-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="company-heading" className="text-xl font-semibold text-slate-900">
        Save company details
      </h2>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-4 grid gap-x-6 gap-y-1 md:grid-cols-2">
        <input type="hidden" name="intent" value="company" />
        <Field meta={fields.companyName} label="Company name" inputProps={{ autoComplete: "organization" }} />
        <div>
          <label htmlFor={fields.country.id} className="mb-1 block text-sm font-medium text-slate-800">
            Country
          </label>
          <select
            key={countryKey}
            {...countryProps}
            className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
          >
            <option value="">Choose a country</option>
            {COUNTRY_OPTIONS.map((option) => (
              <option key={option.code} value={option.code}>
                {option.name}
              </option>
            ))}
          </select>
          <ErrorList id={fields.country.errorId} errors={fields.country.errors} />
        </div>
        <Field
          meta={fields.taxId}
          label="VAT or tax number"
          help="Checked against your country's format, e.g. DE123456789."
        />
        <TextareaField
          meta={fields.billingAddress}
          label="Billing address"
          textareaProps={{ rows: 3, autoComplete: "billing street-address" }}
        />
        <div className="md:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Saving…">
            Save company details
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
