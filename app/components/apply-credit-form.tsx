import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { applyCreditSchema } from "~/forms/order-forms";
import { CURRENCIES } from "~/content/currencies";
import { ErrorList, Field, SubmitButton } from "./forms";
import { useCurrency, useMoney } from "./money";

/** Staff take the account's credit off this order: all it can take, or at most the amount typed. */
export function ApplyCreditForm({
  heldCents,
  openCents,
  reply,
}: {
  heldCents: number;
  openCents: number;
  reply?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useForm({
    id: "apply-credit",
    lastResult: reply,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: applyCreditSchema }),
    shouldRevalidate: "onBlur",
  });
  const navigation = useNavigation();
  const currency = useCurrency();
  const money = useMoney();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "apply-credit";
  return (
    <section aria-labelledby="apply-credit-heading" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="apply-credit-heading" className="text-lg font-semibold">
        Apply account credit
      </h2>
      <p className="mt-1 text-slate-700">
        The account holds {money(heldCents)} of credit; {money(openCents)} of this order is still to pay. Empty takes as
        much as it can, oldest credit note first.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-2 grid gap-2 sm:max-w-md">
        <input type="hidden" name="intent" value="apply-credit" />
        <Field meta={fields.amount} label={`At most (${CURRENCIES[currency].plural}, optional)`} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div>
          <SubmitButton pending={pending} pendingText="Applying…" variant="secondary">
            Apply credit
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
