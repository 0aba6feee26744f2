import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { PostalAddressFields } from "~/components/delivery-fields";
import { ErrorList, Field, SelectField, SubmitButton, useIsPending } from "~/components/forms";
import { parseLegacyAddress, type PostalAddress } from "~/domain/address";
import { COUNTRY_OPTIONS } from "~/domain/tax-id";
import { companySchema } from "~/forms/trade-schemas";

type Company = {
  companyName: string;
  taxId: string;
  country: string;
  billingAddress: string;
  billing: PostalAddress | null;
  billingToConfirm: boolean;
};

/**
 * My Profile: company name, country, VAT or tax number (checked against the country's format), and the
 * billing address field by field (the delivery address's fieldset and checks). One kept as text from
 * before is filled in as far as it reads, with its text shown for the owner to check.
 */
export function CompanyForm({ company, lastResult }: { company: Company; lastResult?: SubmissionResult<string[]> }) {
  const isPending = useIsPending();
  const billing =
    company.billing ?? (company.billingAddress ? parseLegacyAddress(company.billingAddress).address : null);
  const [form, fields] = useForm({
    id: "company",
    lastResult,
    defaultValue: {
      companyName: company.companyName,
      taxId: company.taxId,
      country: company.country,
      ...(billing ? { billing } : {}),
    },
    constraint: getZodConstraint(companySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companySchema }),
  });
  return (
    <section aria-labelledby="company-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="company-heading" className="text-xl font-semibold text-slate-900">
        Save company details
      </h2>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-4 grid gap-x-6 gap-y-1 md:grid-cols-2">
        <input type="hidden" name="intent" value="company" />
        <Field meta={fields.companyName} label="Company name" inputProps={{ autoComplete: "organization" }} />
        <SelectField meta={fields.country} label="Country of the tax number">
          <option value="">Choose a country</option>
          {COUNTRY_OPTIONS.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </SelectField>
        <Field
          meta={fields.taxId}
          label="VAT or tax number"
          help="Checked against your country's format, e.g. DE123456789."
        />
        <div className="md:col-span-2">
          {company.billingToConfirm ? (
            <div
              className="mb-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="confirm-billing"
            >
              <p className="font-medium">Please check the billing address.</p>
              <p>
                It was saved as one block of text: <span className="whitespace-pre-line">{company.billingAddress}</span>
                . We filled in what we could read; check each field and save. Until then documents print the text as it
                is.
              </p>
            </div>
          ) : null}
          <PostalAddressFields meta={fields.billing} legend="Billing address (optional)" section="billing" />
        </div>
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
