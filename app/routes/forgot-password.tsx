import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { forgotPasswordSchema, RESET_LINK_SENT } from "~/forms/account-schemas";
import { parseForm, readForm } from "~/services/form.server";
import { mailRequestAttempt } from "~/services/mail-throttle.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { clientIp } from "~/services/rate-limit.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { sent: url.searchParams.has("sent") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { email } = submission.value;
  const refusal = await mailRequestAttempt({ ip: clientIp(context), email, action: "password-reset" });
  if (refusal) {
    return data(submission.reply({ formErrors: [refusal.message] }), {
      status: 429,
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  }
  await requestPasswordReset(email);
  // The same answer, in the same time, whether or not the account exists.
  return redirect("/forgot-password?sent");
}

export default function ForgotPasswordPage() {
  const { sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult,
    constraint: getZodConstraint(forgotPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Forgot password?</h1>
        {sent ? (
          <p
            role="status"
            className="mt-4 rounded border border-green-700 bg-green-50 p-3 text-sm text-green-900"
            data-testid="reset-sent"
          >
            {RESET_LINK_SENT}
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            Enter the email address of your account and we will send you a link to choose a new password.
          </p>
        )}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-1">
          <Field
            meta={fields.email}
            label="Email"
            type="email"
            inputProps={{ autoComplete: "email", autoFocus: !sent && form.valid }}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Sending…" className="w-full">
            {sent ? "Send another link" : "Send me a link"}
          </SubmitButton>
        </Form>
        <p className="mt-4 text-sm text-slate-700">
          Remembered it?{" "}
          <Link to="/login" className="font-medium text-brand-700 underline hover:text-brand-800">
            Back to Login
          </Link>
        </p>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Forgot password — PartsWorks" }];
