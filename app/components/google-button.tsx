import type { HeadersFunction } from "@remix-run/node";
import { Form } from "@remix-run/react";

/**
 * Starts Google sign-in with a plain POST (a full page navigation, with or without JavaScript).
 * When the shop has no Google keys there is no button (and no "or" before it): what to configure is
 * shown to admins on their dashboard, never to visitors.
 */
export function GoogleSignIn({
  available,
  redirectTo,
  label,
}: {
  available: boolean;
  redirectTo: string;
  label: string;
}) {
  if (!available) return null;
  return (
    <>
      <OrDivider />
      <GoogleButton redirectTo={redirectTo} label={label} />
    </>
  );
}

function GoogleButton({ redirectTo, label }: { redirectTo: string; label: string }) {
  return (
    <Form method="post" action="/auth/google" reloadDocument>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className="flex min-h-11 w-full items-center justify-center gap-3 rounded border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
      >
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48">
          <path
            fill="#EA4335"
            d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
          />
          <path
            fill="#4285F4"
            d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z"
          />
          <path
            fill="#FBBC05"
            d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z"
          />
          <path
            fill="#34A853"
            d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z"
          />
        </svg>
        {label}
      </button>
    </Form>
  );
}

/** The "or" between the password form and the Google button. */
function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
      <span className="h-px flex-1 bg-slate-300" />
      or
      <span className="h-px flex-1 bg-slate-300" />
    </div>
  );
}

/** Login and sign-up pages: never cached, and a rate-limited answer keeps its Retry-After. */
export const authPageHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
