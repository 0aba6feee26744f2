/**
 * Stripe as the shop's card-payment provider: the client, payment intents and Checkout sessions for an
 * order's amount, refunds, and what Stripe's objects and signed events say (evidence of a payment, the
 * status of refunds). What a payment does to an order is the order module's (app/orders/card-payments.server.ts).
 */
import Stripe from "stripe";
import type { RefundStatus } from "~/domain/credit-notes";
import { getEnv } from "./env.server";
import { formatCents, formatQuantity } from "~/format";
import { currencyOf } from "~/domain/money";

/** What Stripe says was paid for one of our orders (its id in the metadata). */
export type CardEvidence = { orderId: string; transactionId: string; amountCents: number; currency: string };

/** The order as a charge describes it: its id, number, lines and total. */
export type ChargedOrder = {
  id: string;
  number: string;
  summary: string;
  userEmail: string;
  /** The currency of the sale (ISO 4217): Stripe charges in it. */
  currency: string;
  totalCents: number;
  /** What the card brings: the total less account credit taken off the order. */
  toPayCents: number;
  totalQuantity: number;
  lines: { quantity: number; productName: string; unitPriceCents: number }[];
};

/** Card payments need the first two; webhooks (the confirmation that does not rely on the browser) the third. */
export const STRIPE_VARIABLES = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;
export type StripeVariable = (typeof STRIPE_VARIABLES)[number];

/** The Stripe variables that are not set (empty when everything is). */
export function missingStripeVariables(env = getEnv()): StripeVariable[] {
  return STRIPE_VARIABLES.filter((name) => !env[name]);
}

/** Card payments can be taken: the secret and the publishable key are both set. */
export function canTakeCardPayments(env = getEnv()) {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);
}

/** host/port/protocol for the Stripe library when STRIPE_API_URL points it elsewhere (stripe-mock). */
function apiTarget(apiUrl: string | undefined) {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? ("http" as const) : ("https" as const);
  return { host: url.hostname, port: url.port || (protocol === "http" ? "80" : "443"), protocol };
}

let client: { key: string; stripe: Stripe } | undefined;

/** The Stripe client for the configured secret key, or null when there is none. */
export function getStripe(env = getEnv()): Stripe | null {
  const key = env.STRIPE_SECRET_KEY;
  if (!key) return null;
  if (client?.key !== key) {
    client = {
      key,
      stripe: new Stripe(key, {
        ...apiTarget(env.STRIPE_API_URL),
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: "PartsWorks shop" },
      }),
    };
  }
  return client.stripe;
}

function requireStripe() {
  const stripe = getStripe();
  if (!stripe) throw new Error("Stripe is not configured (STRIPE_SECRET_KEY is not set)");
  return stripe;
}

function describe(order: ChargedOrder) {
  const lines = order.lines.map((line) => `${line.quantity} x ${line.productName}`).join(", ");
  // Stripe keeps descriptions under 1000 characters.
  return `PartsWorks order ${order.number}: ${lines}`.slice(0, 1000);
}

function describeUnits(order: ChargedOrder) {
  if (order.lines.length === 1) {
    const [line] = order.lines;
    return `${line.quantity} units at ${formatCents(line.unitPriceCents, { currency: currencyOf(order.currency) })} each`;
  }
  return `${order.lines.length} lines, ${formatQuantity(order.totalQuantity)} units`;
}

/**
 * The PaymentIntent for an order, for the Payment Element. The amount comes from the order in the
 * database. One idempotency key per order and amount: reloading the pay screen returns the same
 * intent instead of creating another.
 */
export async function createOrderPaymentIntent(order: ChargedOrder) {
  const intent = await requireStripe().paymentIntents.create(
    {
      amount: order.toPayCents,
      currency: order.currency.toLowerCase(),
      allowed_payment_method_types: ["card"],
      description: describe(order),
      metadata: { orderId: order.id },
    },
    { idempotencyKey: `pi-${order.id}-${order.toPayCents}` },
  );
  if (!intent.client_secret) throw new Error(`PaymentIntent ${intent.id} has no client secret`);
  return { id: intent.id, clientSecret: intent.client_secret };
}

const CHECKOUT_WINDOW_MS = 10 * 60 * 1000;

/**
 * A Stripe Checkout Session for an order (the pay screen without JavaScript). Within a 10-minute
 * window the same request (a double click, a reload) returns the same session; the session expires
 * 35 to 45 minutes after it was made, so a stale payment page cannot be paid much later.
 */
export async function createOrderCheckoutSession(order: ChargedOrder) {
  const env = getEnv();
  const windowStart = Math.floor(Date.now() / CHECKOUT_WINDOW_MS) * CHECKOUT_WINDOW_MS;
  const base = env.PUBLIC_URL.replace(/\/$/, "");
  const payUrl = `${base}/dashboard/payment/${order.id}`;
  const session = await requireStripe().checkout.sessions.create(
    {
      // Checkout offers the payment methods enabled in the Stripe dashboard (cards by default); a
      // method that settles later is confirmed by checkout.session.async_payment_succeeded.
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: order.currency.toLowerCase(),
            unit_amount: order.toPayCents,
            product_data: {
              name: order.summary,
              description: describeUnits(order),
            },
          },
        },
      ],
      customer_email: order.userEmail,
      client_reference_id: order.id,
      metadata: { orderId: order.id },
      payment_intent_data: { description: describe(order), metadata: { orderId: order.id } },
      success_url: `${payUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: payUrl,
      expires_at: Math.floor((windowStart + 45 * 60 * 1000) / 1000),
    },
    { idempotencyKey: `cs-${order.id}-${order.toPayCents}-${windowStart}` },
  );
  if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
  return { id: session.id, url: session.url };
}

// --- Evidence from Stripe -------------------------------------------------------------------------

function idOf(value: string | { id: string } | null | undefined) {
  return typeof value === "string" ? value : (value?.id ?? null);
}

/** A succeeded PaymentIntent that names one of our orders, as evidence; anything else is null. */
export function evidenceFromPaymentIntent(intent: Stripe.PaymentIntent): CardEvidence | null {
  const orderId = intent.metadata?.orderId;
  if (intent.status !== "succeeded" || !orderId) return null;
  return { orderId, transactionId: intent.id, amountCents: intent.amount_received, currency: intent.currency };
}

/** A paid Checkout Session that names one of our orders, as evidence; anything else is null. */
export function evidenceFromCheckoutSession(session: Stripe.Checkout.Session): CardEvidence | null {
  const orderId = session.metadata?.orderId;
  if (session.payment_status !== "paid" || !orderId) return null;
  if (session.client_reference_id && session.client_reference_id !== orderId) return null;
  const transactionId = idOf(session.payment_intent);
  if (!transactionId || session.amount_total === null || !session.currency) return null;
  return { orderId, transactionId, amountCents: session.amount_total, currency: session.currency };
}

const PAYMENT_EVENTS = new Set([
  "payment_intent.succeeded",
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
]);

/** A payment event's evidence, or null for any other event. */
export function evidenceFromEvent(event: Stripe.Event): CardEvidence | null {
  if (!PAYMENT_EVENTS.has(event.type)) return null;
  const object = event.data.object as { object?: string };
  if (object.object === "payment_intent") return evidenceFromPaymentIntent(object as Stripe.PaymentIntent);
  if (object.object === "checkout.session") return evidenceFromCheckoutSession(object as Stripe.Checkout.Session);
  return null;
}

/** Gives back a card payment that cannot go to its order (a second payment, a cancelled order, a wrong amount). */
export async function refundCharge({ transactionId, orderId }: CardEvidence, duplicate: boolean) {
  const stripe = getStripe();
  if (!stripe || !transactionId.startsWith("pi_")) return;
  await stripe.refunds.create(
    { payment_intent: transactionId, ...(duplicate ? { reason: "duplicate" as const } : {}), metadata: { orderId } },
    { idempotencyKey: `refund-${transactionId}` },
  );
}

// --- Refunds of credit notes -------------------------------------------------------------------------

const REFUND_STATUS: Record<string, RefundStatus> = {
  pending: "pending",
  requires_action: "pending",
  succeeded: "succeeded",
  failed: "failed",
  canceled: "canceled",
};

/**
 * Refunds `amountCents` of a card payment for a credit note. One idempotency key per credit note, so a
 * retry (the sweep after a crash, a double submit) never refunds twice. Returns the refund's id and status.
 */
export async function createCreditRefund({
  paymentIntentId,
  amountCents,
  orderId,
  creditNoteId,
  creditNote,
}: {
  paymentIntentId: string;
  amountCents: number;
  orderId: string;
  creditNoteId: string;
  creditNote: string;
}) {
  const refund = await requireStripe().refunds.create(
    {
      payment_intent: paymentIntentId,
      amount: amountCents,
      reason: "requested_by_customer",
      metadata: { orderId, creditNoteId, creditNote },
    },
    { idempotencyKey: `refund-${orderId}-${creditNoteId}` },
  );
  return { id: refund.id, status: REFUND_STATUS[refund.status ?? "pending"] ?? "pending" };
}

const REFUND_EVENTS = new Set([
  "charge.refunded",
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.refund.updated",
]);

/** The refunds a refund event reports (a Refund object, or the refunds listed on a Charge); null for any other event. */
export function refundsReported(event: Stripe.Event) {
  if (!REFUND_EVENTS.has(event.type)) return null;
  const object = event.data.object as { object?: string };
  const one = (refund: Stripe.Refund) => ({
    id: refund.id,
    status: REFUND_STATUS[refund.status ?? "pending"] ?? "pending",
    orderId: refund.metadata?.orderId,
    creditNoteId: refund.metadata?.creditNoteId,
  });
  if (object.object === "refund") return [one(object as Stripe.Refund)];
  if (object.object === "charge") return ((object as Stripe.Charge).refunds?.data ?? []).map(one);
  return [];
}

export class WebhookSignatureError extends Error {}

/** Verifies Stripe's signature over the raw body and returns the event. */
export function verifyWebhook(body: string, signature: string | null, secret: string): Stripe.Event {
  if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : "Invalid signature");
  }
}

/** What Stripe itself says of a payment the customer came back from. */
export type ReturnEvidence =
  { outcome: "evidence"; evidence: CardEvidence } | { outcome: "processing" | "not_paid" | "other_order" };

/**
 * The customer came back from Stripe: asks Stripe itself (never the query string) whether the
 * PaymentIntent or Checkout Session for this order succeeded.
 */
export async function evidenceOnReturn(
  orderId: string,
  { paymentIntentId, sessionId }: { paymentIntentId?: string; sessionId?: string },
): Promise<ReturnEvidence> {
  const stripe = requireStripe();
  if (paymentIntentId) {
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
    if (intent.metadata?.orderId !== orderId) return { outcome: "other_order" };
    if (intent.status === "processing") return { outcome: "processing" };
    const evidence = evidenceFromPaymentIntent(intent);
    return evidence ? { outcome: "evidence", evidence } : { outcome: "not_paid" };
  }
  if (sessionId) {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    if (session.metadata?.orderId !== orderId) return { outcome: "other_order" };
    const evidence = evidenceFromCheckoutSession(session);
    if (evidence) return { outcome: "evidence", evidence };
    return { outcome: session.status === "complete" ? "processing" : "not_paid" };
  }
  return { outcome: "not_paid" };
}
