import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { authPageHeaders, GoogleSignIn } from "~/components/google-button";
import { createPasswordUser } from "~/models/user-credentials.server";
import { getUserByEmail, isDuplicateKeyError } from "~/models/user.server";
import { EMAIL_TAKEN, NEW_PASSWORD_HELP, signupSchema } from "~/forms/account-schemas";
import { requireAnonymous } from "~/services/guards.server";
import { isGoogleSignInAvailable } from "~/services/google-sign-in.server";
import { startSession } from "~/services/session-cookie.server";
import { passwordProblem, hashPassword } from "~/services/password.server";
import { clientIp, signInThrottle } from "~/services/rate-limit.server";
import { parseForm, readForm } from "~/services/form.server";
import { sendWelcomeEmail } from "~/services/email-verification.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { finishSignIn, redirectAfterSignIn } from "~/services/sign-in-intent.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "");
  await requireAnonymous(request, redirectTo || "/dashboard");
  return { googleAvailable: isGoogleSignInAvailable(), redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: signupSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { name, email, password } = submission.value;
  const common = passwordProblem(password, { email, name });
  if (common)
    return data(submission.reply({ fieldErrors: { password: [common] }, hideFields: ["password"] }), { status: 400 });
  const refusal = await signInThrottle().signupAttempt({ ip: clientIp(context) });
  if (refusal) {
    return data(submission.reply({ formErrors: [refusal.message], hideFields: ["password"] }), {
      status: 429,
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  }
  const taken = () =>
    data(submission.reply({ fieldErrors: { email: [EMAIL_TAKEN] }, hideFields: ["password"] }), { status: 409 });
  if (await getUserByEmail(email)) return taken();
  let user: Awaited<ReturnType<typeof createPasswordUser>>;
  try {
    user = await createPasswordUser({ name, email, passwordHash: await hashPassword(password) });
  } catch (error) {
    // The same email signed up a moment ago: the unique index refused the second one.
    if (isDuplicateKeyError(error)) return taken();
    throw error;
  }
  await sendWelcomeEmail(user);
  const headers = new Headers(await startSession(request, user.id, context));
  // Back where they were (or the catalogue), not the profile form: its optional fields wait there.
  const finished = await finishSignIn(request, user, safeRedirect(formData.get("redirectTo"), "") || "/parts");
  for (const cookie of finished.setCookies) headers.append("Set-Cookie", cookie);
  const welcome = `Welcome to PartsWorks, ${name}!`;
  return redirectAfterSignIn(
    {
      ...finished,
      toast: finished.toast
        ? { ...finished.toast, message: `${welcome} ${finished.toast.message}` }
        : { kind: "success", message: welcome },
    },
    headers,
  );
}

export default function SignupPage() {
  const { googleAvailable, redirectTo } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "signup",
    lastResult,
    constraint: getZodConstraint(signupSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Sign Up</h1>
        {/* Always noValidate: the server (and Conform, once hydrated) show the shop's own messages. */}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-1">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "name", autoFocus: form.valid }} />
          <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
          <Field
            meta={fields.password}
            label="Password"
            type="password"
            inputProps={{ autoComplete: "new-password" }}
            help={NEW_PASSWORD_HELP}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Creating your account…" className="w-full">
            Sign Up
          </SubmitButton>
        </Form>
        <p className="mt-4 text-sm text-slate-700">
          Already have an account?{" "}
          <Link
            to={redirectTo ? `/login?${new URLSearchParams({ redirectTo })}` : "/login"}
            className="font-medium text-brand-700 underline hover:text-brand-800"
          >
            Please login
          </Link>
        </p>
        <GoogleSignIn available={googleAvailable} redirectTo={redirectTo || "/parts"} label="Sign up with Google" />
      </div>
    </div>
  );
}

export const headers = authPageHeaders;

export const meta: MetaFunction = () => [{ title: "Sign Up — PartsWorks" }];
