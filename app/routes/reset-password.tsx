import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { inputAttributes, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { TOKEN_PAGE_HEADERS, tokenPageHeadersFunction } from "~/services/cache.server";
import { NEW_PASSWORD_HELP, resetPasswordSchema } from "~/forms/account-schemas";
import { endSession } from "~/services/session-cookie.server";
import { getUserByEmail } from "~/models/user.server";
import { parseForm, readForm } from "~/services/form.server";
import { passwordProblem } from "~/services/password.server";
import { checkResetToken, RESET_LINK_PROBLEMS, resetPassword } from "~/services/password-reset.server";
import { redirectWithSuccess } from "~/services/toast.server";

export const PASSWORD_CHANGED =
  "Your password has been changed and every device was signed out. Log in with your new password.";

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkResetToken(token);
  return data(
    { token, problem: check.state === "valid" ? null : RESET_LINK_PROBLEMS[check.state] },
    { headers: TOKEN_PAGE_HEADERS },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const link = await checkResetToken(submission.value.token);
  const owner = link.state === "valid" ? await getUserByEmail(link.email) : null;
  const common = passwordProblem(submission.value.password, {
    email: link.state === "valid" ? link.email : null,
    name: owner?.name,
    companyName: owner?.company.companyName,
  });
  if (common)
    return data(submission.reply({ fieldErrors: { password: [common] }, hideFields: ["password"] }), { status: 400 });
  const problem = await resetPassword(submission.value.token, submission.value.password);
  if (problem) {
    return data(submission.reply({ formErrors: [RESET_LINK_PROBLEMS[problem]], hideFields: ["password"] }), {
      status: 400,
    });
  }
  // Signed out here too: the new password opens the account from now on.
  return redirectWithSuccess("/login", PASSWORD_CHANGED, { headers: await endSession(request) });
}

export default function ResetPasswordPage() {
  const { token, problem } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    defaultValue: { token },
    constraint: getZodConstraint(resetPasswordSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Choose a new password</h1>
        {problem ? (
          <>
            <p
              role="alert"
              className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800"
              data-testid="reset-problem"
            >
              {problem}
            </p>
            <p className="mt-4 text-sm">
              <Link to="/forgot-password" className="font-medium text-brand-700 underline hover:text-brand-800">
                Ask for a new link
              </Link>
            </p>
          </>
        ) : (
          <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-1">
            <input {...inputAttributes(fields.token, { type: "hidden" })} key={fields.token.key} />
            <Field
              meta={fields.password}
              label="New password"
              type="password"
              inputProps={{ autoComplete: "new-password", autoFocus: form.valid }}
              help={NEW_PASSWORD_HELP}
            />
            <ErrorList id={form.errorId} errors={form.errors} />
            {form.errors?.length ? (
              <p className="text-sm">
                <Link to="/forgot-password" className="font-medium text-brand-700 underline hover:text-brand-800">
                  Ask for a new link
                </Link>
              </p>
            ) : null}
            <SubmitButton pending={isPending} pendingText="Saving…" className="w-full">
              Save new password
            </SubmitButton>
          </Form>
        )}
      </div>
    </div>
  );
}

export const headers = tokenPageHeadersFunction;

export const meta: MetaFunction = () => [
  { title: "Reset password — PartsWorks" },
  { name: "robots", content: "noindex" },
];
