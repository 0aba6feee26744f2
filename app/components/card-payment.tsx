/** Paying an order by card: Stripe's Payment Element on the page, or Stripe's hosted Checkout page. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe as StripeJs } from "@stripe/stripe-js";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { ErrorList, SubmitButton } from "~/components/forms";
import { useMoney } from "./money";

/** Who pays, as Stripe is told (the form does not ask again). */
type Billing = { name: string; email: string };
/** The order being paid: where Stripe comes back to, and the amount on the button. */
type PaidOrder = { id: string; totalCents: number };

/** Stripe's hosted Checkout: the way to pay without JavaScript, and the fallback when Stripe.js cannot load. */
export function CardPaymentForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form] = useForm({ id: "checkout", lastResult });
  const [pending, setPending] = useState(false);
  useEffect(() => {
    // Coming back with the browser's Back button shows this page from its cache: not pending any more.
    const reset = () => setPending(false);
    window.addEventListener("pageshow", reset);
    return () => window.removeEventListener("pageshow", reset);
  }, []);
  return (
    // A full page submission: the answer is a redirect to Stripe's own site.
    <Form method="post" reloadDocument {...getFormProps(form)} onSubmit={() => setPending(true)} className="mt-3">
      <input type="hidden" name="intent" value="checkout" />
      <p className="text-slate-700">You enter your card on Stripe&apos;s secure page and come back here afterwards.</p>
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton pending={pending} pendingText="Opening Stripe…">
        Pay with card
      </SubmitButton>
    </Form>
  );
}

/**
 * Stripe.js is loaded only here, only in the browser, once this page has rendered: its loader
 * (the ESM build of `@stripe/stripe-js/pure`, which adds the script only when asked) is a
 * separate chunk that other pages never fetch.
 */
function useStripeJs(publishableKey: string) {
  const [stripe, setStripe] = useState<Promise<StripeJs | null> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let settled = false;
    const promise = import("@stripe/stripe-js/pure/index.mjs")
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .catch((error: unknown) => {
        console.error("Stripe.js could not load", error);
        return null;
      })
      .then((loaded) => {
        settled = true;
        if (!loaded) setFailed(true);
        return loaded;
      });
    setStripe(promise);
    // A script that never arrives (a blocked or very slow network) must not leave the page stuck.
    const timer = setTimeout(() => {
      if (!settled) setFailed(true);
    }, 20_000);
    return () => clearTimeout(timer);
  }, [publishableKey]);
  return { stripe, failed };
}

/**
 * The card payment of an order: Stripe's Payment Element once Stripe.js runs, else (server-rendered,
 * without JavaScript, or when it cannot load) the button to Stripe's hosted Checkout page.
 */
export function CardPayment({
  clientSecret,
  publishableKey,
  billing,
  order,
  lastResult,
}: {
  clientSecret: string;
  publishableKey: string;
  billing: Billing;
  order: PaidOrder;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { stripe, failed: scriptFailed } = useStripeJs(publishableKey);
  const [elementFailed, setElementFailed] = useState(false);
  const options = useMemo(() => ({ clientSecret, appearance: { theme: "stripe" as const } }), [clientSecret]);
  const failed = scriptFailed || elementFailed;
  // Server-rendered (and without JavaScript): the Checkout button. Once Stripe.js runs: the Payment Element.
  if (!stripe || failed || lastResult) {
    return (
      <>
        {failed ? (
          <p className="mt-3 text-slate-700" role="alert">
            The card form could not load. You can still pay on Stripe&apos;s secure page.
          </p>
        ) : null}
        <CardPaymentForm lastResult={lastResult} />
      </>
    );
  }
  return (
    <Elements stripe={stripe} options={options}>
      <PaymentForm billing={billing} order={order} onLoadError={() => setElementFailed(true)} />
    </Elements>
  );
}

function PaymentForm({ billing, order, onLoadError }: { billing: Billing; order: PaidOrder; onLoadError: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const money = useMoney();
  const [ready, setReady] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || pending) return;
    setPending(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: {
        return_url: new URL(`/dashboard/payment/${order.id}/success`, window.location.origin).href,
        payment_method_data: { billing_details: { name: billing.name, email: billing.email } },
      },
    });
    // Only a payment that could not be confirmed comes back here; success goes to return_url.
    const { error: failure } = result;
    setError(
      failure.type === "card_error" || failure.type === "validation_error"
        ? (failure.message ?? "Your card was declined.")
        : "The payment could not be completed. Please try again.",
    );
    setPending(false);
  }

  return (
    <form onSubmit={pay} className="mt-3" aria-describedby="payment-error" data-testid="payment-element-form">
      <p className="mb-3 text-sm text-slate-700 [overflow-wrap:anywhere]">
        Paying as <strong>{billing.name}</strong> ({billing.email})
      </p>
      {ready ? null : <p className="text-slate-600">Loading the card form…</p>}
      <PaymentElement
        options={{ fields: { billingDetails: { name: "never", email: "never" } } }}
        onReady={() => setReady(true)}
        onLoadError={onLoadError}
      />
      <ErrorList id="payment-error" errors={error ? [error] : null} />
      <SubmitButton pending={pending} pendingText="Paying…" disabled={!stripe || !elements || !ready}>
        Pay {money(order.totalCents)}
      </SubmitButton>
    </form>
  );
}
