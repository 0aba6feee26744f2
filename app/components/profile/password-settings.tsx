import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { changePasswordSchema, NEW_PASSWORD_HELP } from "~/forms/account-schemas";

/**
 * My Profile's password: a change asks for the current password and signs out every other
 * session; an account that signs in only with Google gets a password by a link mailed to it.
 */
export function PasswordSettings({
  hasPassword,
  lastResult,
  pendingIntent,
}: {
  hasPassword: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  pendingIntent: string | undefined;
}) {
  const [form, fields] = useForm({
    id: "change-password",
    lastResult,
    constraint: getZodConstraint(changePasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  return (
    <section aria-labelledby="password-heading" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="password-heading" className="text-xl font-semibold text-slate-900">
        Password
      </h2>
      {hasPassword ? (
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 max-w-md">
          <input type="hidden" name="intent" value="change-password" />
          <Field
            meta={fields.currentPassword}
            label="Current password"
            type="password"
            inputProps={{ autoComplete: "current-password" }}
          />
          <Field
            meta={fields.newPassword}
            label="New password"
            type="password"
            inputProps={{ autoComplete: "new-password" }}
            help={`${NEW_PASSWORD_HELP} Your other sessions end, and so do the API keys and webhooks you made.`}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={pendingIntent === "change-password"} pendingText="Changing…">
            Change password
          </SubmitButton>
        </Form>
      ) : (
        <Form method="post" className="mt-4 max-w-md">
          <input type="hidden" name="intent" value="set-password" />
          <p className="text-slate-700">
            You sign in with Google. To sign in with a password too, we mail you a link to choose one.
          </p>
          <ErrorList id="set-password-errors" errors={lastResult?.error?.[""] ?? undefined} />
          <SubmitButton className="mt-3" pending={pendingIntent === "set-password"} pendingText="Sending…">
            Mail me a link to set a password
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
