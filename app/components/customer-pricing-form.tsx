import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ErrorList, Field, SelectField, SubmitButton, useIsPending } from "~/components/forms";
import { US_STATES } from "~/content/tax-rates";
import { customerPricingSchema } from "~/forms/pricing-forms";
import { COUNTRY_OPTIONS } from "~/domain/tax-id";

/** A customer's price group and tax details, on their record (the company's, once companies exist). */
export function CustomerPricingForm({
  reply,
  groups,
  current,
}: {
  reply: SubmissionResult<string[]> | undefined;
  groups: { id: string; name: string }[];
  current: {
    priceGroupId: string | null;
    tax: {
      country: string;
      state: string | null;
      vatNumber: string | null;
      exemptionCertificate: string | null;
    } | null;
  };
}) {
  const [form, fields] = useForm({
    id: "customer-pricing",
    lastResult: reply,
    constraint: getZodConstraint(customerPricingSchema),
    defaultValue: {
      priceGroupId: current.priceGroupId ?? "",
      country: current.tax?.country ?? "",
      state: current.tax?.state ?? "",
      vatNumber: current.tax?.vatNumber ?? "",
      exemptionCertificate: current.tax?.exemptionCertificate ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: customerPricingSchema }),
  });
  const isPending = useIsPending();
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="pricing" />
      <SelectField meta={fields.priceGroupId} label="Price group" className="sm:col-span-2">
        <option value="">None: list prices and volume breaks</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name}
          </option>
        ))}
      </SelectField>
      <SelectField meta={fields.country} label="Taxed in (country)">
        <option value="">Not recorded</option>
        {COUNTRY_OPTIONS.filter((option) => option.code !== "OTHER").map((option) => (
          <option key={option.code} value={option.code}>
            {option.name}
          </option>
        ))}
      </SelectField>
      <SelectField meta={fields.state} label="US state">
        <option value="">Not in the US</option>
        {US_STATES.map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </SelectField>
      <Field
        meta={fields.vatNumber}
        label="EU VAT number (business buyers)"
        inputProps={{ autoComplete: "off", spellCheck: false, placeholder: "DE811907980" }}
      />
      <Field
        meta={fields.exemptionCertificate}
        label="Resale or exemption certificate (US)"
        inputProps={{ autoComplete: "off", placeholder: "MI-RS-0042" }}
      />
      <div className="sm:col-span-2">
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={isPending} pendingText="Saving…">
          Save prices and tax
        </SubmitButton>
      </div>
    </Form>
  );
}
