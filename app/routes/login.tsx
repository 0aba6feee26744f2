import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { inputAttributes, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { authPageHeaders, GoogleSignIn } from "~/components/google-button";
import { loginSchema } from "~/forms/account-schemas";
import { authenticateWithPassword, INVALID_LOGIN } from "~/services/sign-in.server";
import { requireAnonymous } from "~/services/guards.server";
import { isGoogleSignInAvailable, linkPendingGoogle, type GoogleFailure } from "~/services/google-sign-in.server";
import { startSession } from "~/services/session-cookie.server";
import { getPart } from "~/models/part.server";
import { safeRedirect } from "~/domain/safe-redirect";
import { clientIp, signInThrottle, type Refusal } from "~/services/rate-limit.server";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";
import { finishSignIn, redirectAfterSignIn } from "~/services/sign-in-intent.server";

const googleMessages: Record<GoogleFailure, string> = {
  cancelled: "Google sign-in was cancelled. You can try again, or log in with your email and password.",
  failed: "Google sign-in did not work. Please try again, or log in with your email and password.",
  unverified: "Your Google account's email address is not verified, so it cannot be used to sign in here.",
  conflict: "This email address already belongs to an account linked to a different Google account.",
  unavailable: "Google sign-in is not available on this shop. Please log in with your email and password.",
  "unverified-account":
    "An account with this email already exists and its address is not verified yet. Log in with its password (or reset it with Forgot password?), confirm the address from the email we send, then Continue with Google.",
  "link-needed":
    "An account with this email already exists. Log in with its password once to link your Google account (or reset the password with Forgot password? first); after that Continue with Google signs you in.",
};

export const GOOGLE_LINKED =
  "Your Google account is now linked: Continue with Google signs you in from now on. Every other session was signed out.";

/** Pages that make no sense to return to after signing in (the home page is where they came in, not a destination). */
const NOT_A_DESTINATION = /^\/(login|signup|logout|auth)(\/|\?|$)|^\/$/;

/** The page the visitor came from (same origin only), when the link to /login did not name one. */
function refererPath(request: Request) {
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  try {
    const from = new URL(referer);
    if (from.origin !== new URL(request.url).origin) return null;
    const path = `${from.pathname}${from.search}`;
    return NOT_A_DESTINATION.test(path) ? null : path;
  } catch {
    return null;
  }
}

/** The part a visitor was about to order (the page they return to is its page), to name it here. */
async function waitingPart(redirectTo: string) {
  const id = /^\/parts\/([a-f0-9]{24})(?:[?#]|$)/i.exec(redirectTo)?.[1];
  const part = id ? await getPart(id) : null;
  return part ? { partNumber: part.partNumber, name: part.name, img: part.img } : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo") ?? refererPath(request), "");
  await requireAnonymous(request, redirectTo || "/");
  const googleError = url.searchParams.get("googleError");
  return {
    redirectTo,
    waitingPart: await waitingPart(redirectTo),
    googleAvailable: isGoogleSignInAvailable(),
    googleMessage: googleError && googleError in googleMessages ? googleMessages[googleError as GoogleFailure] : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  // Refused attempts keep the email in the form and say when to try again.
  const tooMany = (refusal: Refusal) =>
    data(submission.reply({ formErrors: [refusal.message], hideFields: ["password"] }), {
      status: 429,
      headers: { "Retry-After": String(refusal.retryAfterSeconds) },
    });
  const attempt = await signInThrottle().beginLogin({ ip: clientIp(context), email: submission.value.email });
  if (attempt.refused) return tooMany(attempt.refused);
  const user = await authenticateWithPassword(request, formData, context);
  if (!user) {
    const refusal = await attempt.failed();
    if (refusal) return tooMany(refusal);
    return data(submission.reply({ formErrors: [INVALID_LOGIN], hideFields: ["password"] }), { status: 401 });
  }
  await attempt.succeeded();
  // A Google sign-in waiting for this password proof is linked now; every other session ends.
  const google = await linkPendingGoogle(request, user);
  const headers = new Headers(await startSession(request, user.id, context, { endOthers: google.linked }));
  if (google.clearCookie) headers.append("Set-Cookie", google.clearCookie);
  // The page asked for, or the person's own start page; an Add to cart that waited goes into the cart now.
  const finished = await finishSignIn(request, user, safeRedirect(submission.value.redirectTo, ""));
  for (const cookie of finished.setCookies) headers.append("Set-Cookie", cookie);
  if (google.linked) return redirectWithSuccess(finished.to, GOOGLE_LINKED, { headers });
  return redirectAfterSignIn(finished, headers);
}

export default function LoginPage() {
  const { redirectTo, waitingPart, googleAvailable, googleMessage } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    defaultValue: { redirectTo },
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });

  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Login</h1>
        {waitingPart ? (
          <div
            className="mt-4 flex items-center gap-3 rounded border border-slate-200 bg-slate-50 p-3"
            data-testid="waiting-part"
          >
            <img
              src={waitingPart.img}
              alt=""
              width={80}
              height={50}
              className="h-12 w-20 shrink-0 rounded bg-white object-cover"
            />
            <p className="min-w-0 break-words text-slate-800">
              Sign in to order{" "}
              <strong>
                {waitingPart.partNumber} {waitingPart.name}
              </strong>
            </p>
          </div>
        ) : null}
        {googleMessage ? (
          <p
            role="alert"
            className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800"
            data-testid="google-error"
          >
            {googleMessage}
          </p>
        ) : null}
        {/* Always noValidate: the server (and Conform, once hydrated) show the shop's own messages. */}
        <Form method="post" {...getFormProps(form)} noValidate className="mt-4 space-y-1">
          <input {...inputAttributes(fields.redirectTo, { type: "hidden" })} key={fields.redirectTo.key} />
          <Field
            meta={fields.email}
            label="Email"
            type="email"
            inputProps={{ autoComplete: "email", autoFocus: form.valid }}
          />
          <Field
            meta={fields.password}
            label="Password"
            type="password"
            inputProps={{ autoComplete: "current-password" }}
          />
          <p className="-mt-1 text-right text-sm">
            <Link to="/forgot-password" className="text-brand-700 underline hover:text-brand-800">
              Forgot password?
            </Link>
          </p>
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Logging in…" className="w-full">
            Login
          </SubmitButton>
        </Form>
        <p className="mt-4 text-sm text-slate-700">
          New to PartsWorks?{" "}
          <Link
            to={redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : "/signup"}
            className="font-medium text-brand-700 underline hover:text-brand-800"
          >
            Create a new account
          </Link>
        </p>
        <GoogleSignIn available={googleAvailable} redirectTo={redirectTo} label="Continue with Google" />
      </div>
    </div>
  );
}

export const headers = authPageHeaders;

export const meta: MetaFunction = () => [{ title: "Login — PartsWorks" }];
