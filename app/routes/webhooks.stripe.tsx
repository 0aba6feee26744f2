import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/utils/env.server";
import { handleStripeEvent, verifyWebhook, WebhookSignatureError } from "~/utils/stripe.server";

/** Stripe's events are a few kilobytes; anything far larger is not from Stripe. */
const MAX_BODY_BYTES = 256 * 1024;

const noStore = { "Cache-Control": "no-store" };

/** The raw body as text (the signature is over the exact bytes), or null when it is too large. */
async function readRawBody(request: Request) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * POST /webhooks/stripe: Stripe's events, verified with STRIPE_WEBHOOK_SECRET over the raw body.
 * No session and no Origin check (server.ts lets this path through): the signature is the check.
 * A payment event marks its order paid, once (app/utils/stripe.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...noStore } });
  }
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    return json(
      { error: "Stripe webhooks are not configured: set STRIPE_WEBHOOK_SECRET." },
      { status: 503, headers: noStore },
    );
  }
  const body = await readRawBody(request);
  if (body === null) return json({ error: "Payload too large" }, { status: 413, headers: noStore });

  let event;
  try {
    event = verifyWebhook(body, request.headers.get("Stripe-Signature"), secret);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      return json({ error: "Invalid signature" }, { status: 400, headers: noStore });
    }
    throw error;
  }

  try {
    const result = await handleStripeEvent(event);
    return json({ received: true, result }, { headers: noStore });
  } catch (error) {
    // Not applied: answer 500 so that Stripe delivers the event again later.
    console.error(`Stripe event ${event.id} (${event.type}) could not be applied`, error);
    return json({ error: "The event could not be applied" }, { status: 500, headers: noStore });
  }
}

/** Only Stripe's POSTs belong here. */
export async function loader() {
  return json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...noStore } });
}
