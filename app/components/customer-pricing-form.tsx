import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { US_STATES } from "~/content/tax-rates";
import { customerPricingSchema } from "~/forms/pricing-forms";
import { COUNTRY_OPTIONS } from "~/domain/tax-id";

const selectClass =
  "block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 aria-[invalid=true]:border-red-700";

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
      <div className="sm:col-span-2">
        <label htmlFor={fields.priceGroupId.id} className="mb-1 block text-sm font-medium text-slate-800">
          Price group
        </label>
        <select {...getSelectProps(fields.priceGroupId)} key={fields.priceGroupId.key} className={selectClass}>
          <option value="">None: list prices and volume breaks</option>
          {groups.map((group) => (
            <option key={group.id} value={group.id}>
              {group.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.priceGroupId.errorId} errors={fields.priceGroupId.errors} />
      </div>
      <div>
        <label htmlFor={fields.country.id} className="mb-1 block text-sm font-medium text-slate-800">
          Taxed in (country)
        </label>
        <select {...getSelectProps(fields.country)} key={fields.country.key} className={selectClass}>
          <option value="">Not recorded</option>
          {COUNTRY_OPTIONS.filter((option) => option.code !== "OTHER").map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.country.errorId} errors={fields.country.errors} />
      </div>
      <div>
        <label htmlFor={fields.state.id} className="mb-1 block text-sm font-medium text-slate-800">
          US state
        </label>
        <select {...getSelectProps(fields.state)} key={fields.state.key} className={selectClass}>
          <option value="">Not in the US</option>
          {US_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
        <ErrorList id={fields.state.errorId} errors={fields.state.errors} />
      </div>
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
