import { Form } from "@remix-run/react";
import { useIsPending } from "./forms";

/** On every dashboard screen until the account's address is verified. Works without JavaScript. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const isPending = useIsPending({ formAction: "/dashboard/email" });
  return (
    <div
      role="note"
      data-testid="verify-email-banner"
      className="mb-4 rounded border border-amber-600 bg-amber-50 p-3 text-sm text-amber-900"
    >
      Please confirm your email address, {email}: open the link we emailed you.{" "}
      <Form method="post" action="/dashboard/email" className="inline">
        <input type="hidden" name="intent" value="resend-verification" />
        <button type="submit" className="font-medium underline" aria-disabled={isPending || undefined}>
          {isPending ? "Sending…" : "Send the link again"}
        </button>
      </Form>
    </div>
  );
}

/** In place of the forms that make API keys and webhooks while the address is unproved. */
export function VerifyFirstNotice({ message }: { message: string }) {
  return (
    <p
      data-testid="verify-first"
      className="mt-4 max-w-xl rounded border border-amber-600 bg-amber-50 p-4 text-sm text-amber-900"
    >
      {message}
    </p>
  );
}
