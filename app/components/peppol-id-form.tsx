import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { PEPPOL_SCHEMES, peppolIdFields, checkPeppolId, peppolIdWords, type PeppolId } from "~/domain/peppol";
import { ErrorList, Field, SelectField, SubmitButton } from "./forms";

const schema = peppolIdFields.superRefine(checkPeppolId);

/**
 * Staff set a company's Peppol participant id: its e-invoices are then addressed to it and claim
 * Peppol BIS Billing 3.0; without one they claim plain EN 16931. Removing it is a button of its own.
 */
export function PeppolIdForm({ peppol, reply }: { peppol: PeppolId | null; reply?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "peppol-id",
    lastResult: reply,
    constraint: getZodConstraint(schema),
    defaultValue: peppol ?? undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "peppol";
  return (
    <>
      <p className="mt-1 text-slate-700" data-testid="peppol-id">
        {peppol
          ? `Its e-invoices go to ${peppolIdWords(peppol)} over Peppol (BIS Billing 3.0).`
          : "None: its e-invoices (UBL) claim plain EN 16931 and are sent by e-mail."}
      </p>
      <Form
        method="post"
        {...getFormProps(form)}
        className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,16rem)_minmax(0,14rem)_auto] sm:items-start"
      >
        <input type="hidden" name="intent" value="peppol" />
        <SelectField meta={fields.scheme} label="Scheme" alwaysChosen>
          {Object.entries(PEPPOL_SCHEMES).map(([code, scheme]) => (
            <option key={code} value={code}>
              {code}: {scheme.name}
            </option>
          ))}
        </SelectField>
        <Field meta={fields.id} label="Identifier" inputProps={{ autoComplete: "off" }} />
        <div className="sm:pt-6">
          <SubmitButton pending={pending} pendingText="Saving…" variant="secondary">
            Save Peppol id
          </SubmitButton>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
      </Form>
      {peppol ? (
        <Form method="post" className="mt-2">
          <input type="hidden" name="intent" value="peppol-remove" />
          <button type="submit" className="min-h-11 text-sm text-brand-700 underline">
            Remove the Peppol id
          </button>
        </Form>
      ) : null}
    </>
  );
}
