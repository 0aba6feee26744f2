import { type ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/services/env.server";
import { readLimitedBody } from "~/services/form.server";
import { handleStripeEvent } from "~/orders/card-payments.server";
import { verifyWebhook, WebhookSignatureError } from "~/services/stripe.server";
import { appLogger, logFailure } from "~/services/log.server";

/** Stripe's events are a few kilobytes; anything far larger is not from Stripe. */
const MAX_BODY_BYTES = 256 * 1024;

const noStore = { "Cache-Control": "no-store" };

/**
 * POST /webhooks/stripe: Stripe's events, verified with STRIPE_WEBHOOK_SECRET over the raw body.
 * No session and no Origin check (server.ts lets this path through): the signature is the check.
 * A payment event marks its order paid, once (app/services/stripe.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...noStore } });
  }
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    // Anyone can post here: the answer names no setting; the shop's log tells the operator.
    appLogger().error("A Stripe webhook arrived, but STRIPE_WEBHOOK_SECRET is not set: it was not applied");
    return Response.json({ error: "Webhooks are not accepted yet" }, { status: 503, headers: noStore });
  }
  const raw = await readLimitedBody(request, MAX_BODY_BYTES);
  if (raw === null) return Response.json({ error: "Payload too large" }, { status: 413, headers: noStore });
  const body = raw.toString("utf8");

  let event;
  try {
    event = verifyWebhook(body, request.headers.get("Stripe-Signature"), secret);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      return Response.json({ error: "Invalid signature" }, { status: 400, headers: noStore });
    }
    throw error;
  }

  try {
    const result = await handleStripeEvent(event);
    return Response.json({ received: true, result }, { headers: noStore });
  } catch (error) {
    // Not applied: answer 500 so that Stripe delivers the event again later.
    logFailure(`Stripe event ${event.id} (${event.type}) could not be applied; Stripe sends it again`, error);
    return Response.json({ error: "The event could not be applied" }, { status: 500, headers: noStore });
  }
}

/** Only Stripe's POSTs belong here. */
export async function loader() {
  return Response.json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...noStore } });
}
