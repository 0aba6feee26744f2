import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { inputAttributes, ErrorList, Field, SubmitButton } from "~/components/forms";
import { changeEmailSchema } from "~/forms/account-schemas";

/**
 * My Profile's email: a change of address (confirmed by a link to the new one; an account without
 * a password approves it by a link to the current one first), and whether order updates are mailed.
 */
export function EmailSettings({
  email,
  hasPassword,
  orderUpdateEmails,
  changeResult,
  pendingIntent,
}: {
  email: string;
  hasPassword: boolean;
  orderUpdateEmails: boolean;
  changeResult: SubmissionResult<string[]> | undefined;
  pendingIntent: string | undefined;
}) {
  const [changeForm, changeFields] = useForm({
    id: "change-email",
    lastResult: changeResult,
    constraint: getZodConstraint(changeEmailSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changeEmailSchema }),
  });
  const [prefsForm, prefsFields] = useForm({
    id: "email-preferences",
    defaultValue: { orderUpdateEmails: orderUpdateEmails ? "on" : undefined },
  });
  const { key: prefsKey, ...checkboxProps } = inputAttributes(prefsFields.orderUpdateEmails, { type: "checkbox" });
  return (
    <section aria-labelledby="email-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="email-heading" className="text-xl font-semibold text-slate-900">
        Email
      </h2>
      <Form method="post" {...getFormProps(changeForm)} noValidate className="mt-4 max-w-md">
        <input type="hidden" name="intent" value="change-email" />
        <Field
          meta={changeFields.newEmail}
          label="New email"
          type="email"
          inputProps={{ autoComplete: "email" }}
          help={
            hasPassword
              ? `We mail a link to the new address; until you open it, your account keeps ${email}.`
              : `We first mail ${email} a link to approve the change, then a link to the new address.`
          }
        />
        {hasPassword ? (
          <Field
            meta={changeFields.currentPassword}
            label="Current password"
            type="password"
            inputProps={{ autoComplete: "current-password" }}
          />
        ) : null}
        <ErrorList id={changeForm.errorId} errors={changeForm.errors} />
        <SubmitButton pending={pendingIntent === "change-email"} pendingText="Sending…">
          Change email
        </SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(prefsForm)} className="mt-6 max-w-md" data-testid="email-preferences">
        <input type="hidden" name="intent" value="email-preferences" />
        <label className="flex items-start gap-2 text-slate-800">
          <input key={prefsKey} {...checkboxProps} className="mt-1 h-5 w-5" />
          <span>
            Order update emails: order placed, cancellations. Receipts of payments, shipping notices and account emails
            always come.
          </span>
        </label>
        <SubmitButton
          className="mt-3"
          variant="secondary"
          pending={pendingIntent === "email-preferences"}
          pendingText="Saving…"
        >
          Save email settings
        </SubmitButton>
      </Form>
    </section>
  );
}
