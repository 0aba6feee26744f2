import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import {
  checkLeitwegCountry,
  LEITWEG_EXAMPLE,
  LEITWEG_MESSAGES,
  leitwegIdFields,
  mayHoldLeitwegId,
} from "~/domain/leitweg";
import { ErrorList, Field, SubmitButton } from "./forms";

/**
 * Staff mark a German company as a public buyer with its Leitweg-ID: its e-invoices are then XRechnung
 * 3.0, the Leitweg-ID their buyer reference. Removing it is a button of its own. A company whose
 * country is not DE is told why it has none (the server refuses one too).
 */
export function LeitwegIdForm({
  leitwegId,
  country,
  reply,
}: {
  leitwegId: string | null;
  country: string;
  reply?: SubmissionResult<string[]>;
}) {
  const schema = leitwegIdFields.superRefine(checkLeitwegCountry(country));
  const [form, fields] = useForm({
    id: "leitweg-id",
    lastResult: reply,
    constraint: getZodConstraint(schema),
    defaultValue: { leitwegId: leitwegId ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "leitweg";
  const german = mayHoldLeitwegId(country);
  return (
    <>
      <p className="mt-1 text-slate-700" data-testid="leitweg-id">
        {leitwegId
          ? `A German public buyer: its e-invoices are XRechnung 3.0, with ${leitwegId} as the buyer reference.`
          : german
            ? "None: its e-invoices claim EN 16931 (or Peppol BIS), with its PO number as the buyer reference."
            : LEITWEG_MESSAGES.notGerman(country)}
      </p>
      {german || reply ? (
        <Form
          method="post"
          {...getFormProps(form)}
          className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,22rem)_auto] sm:items-start"
        >
          <input type="hidden" name="intent" value="leitweg" />
          <Field
            meta={fields.leitwegId}
            label="Leitweg-ID"
            inputProps={{ autoComplete: "off", placeholder: LEITWEG_EXAMPLE }}
          />
          <div className="sm:pt-6">
            <SubmitButton pending={pending} pendingText="Saving…" variant="secondary">
              Save Leitweg-ID
            </SubmitButton>
          </div>
          <ErrorList id={form.errorId} errors={form.errors} />
        </Form>
      ) : null}
      {leitwegId ? (
        <Form method="post" className="mt-2">
          <input type="hidden" name="intent" value="leitweg-remove" />
          <button type="submit" className="min-h-11 text-sm text-brand-700 underline">
            Remove the Leitweg-ID
          </button>
        </Form>
      ) : null}
    </>
  );
}
