/**
 * A quote's events: each change of a quote notes its event on the quote in the same update
 * (`eventsPending`); the service then writes its mail (quote-mail.server.ts) and its webhook
 * deliveries, and takes the note off once both are written. What a crash or a failed write leaves
 * noted, the quote sweep raises again; the outbox and delivery keys make a second raise write nothing.
 */
import { logFailure } from "~/services/log.server";
import { addDelivery, endpointsForOrderOf } from "~/models/webhook.server";
import { listAdminRecipients } from "~/models/user.server";
import { queueWebhookDelivery } from "~/services/delivery-jobs.server";
import type { QuoteEventKind } from "./model/quote-schema.server";
import { markQuoteEventRaised, type QuoteVersionView, type QuoteView } from "./model/quotes.server";
import { mailQuoteEvent } from "./quote-mail.server";

/** The names webhook receivers see; a revision asked and a decline are mail only. */
export const QUOTE_WEBHOOK_EVENT_TYPES = ["quote.requested", "quote.sent", "quote.accepted", "quote.expired"] as const;
export type QuoteWebhookEventType = (typeof QUOTE_WEBHOOK_EVENT_TYPES)[number];

const TYPE_OF: Record<QuoteEventKind, QuoteWebhookEventType | null> = {
  requested: "quote.requested",
  sent: "quote.sent",
  revision: null,
  accepted: "quote.accepted",
  declined: null,
  expired: "quote.expired",
};

/** The quote as the audit log names it. */
export const quoteTarget = (quote: QuoteView) => ({
  type: "quote" as const,
  id: quote.id,
  label: `${quote.label} for ${quote.userEmail}`,
});

/** The same id each time the event is raised again: a version sent is its own event. */
export function quoteEventId(kind: QuoteEventKind, quote: QuoteView) {
  return kind === "sent" ? `evt_${quote.id}_sent_${quote.versions.length}` : `evt_${quote.id}_${kind}`;
}

/** One version as receivers and the API see it (the API's quote lists every version so). */
export function quoteVersionPayload(version: QuoteVersionView) {
  return {
    number: version.label,
    version: version.version,
    validUntil: version.validUntilDay,
    netCents: version.netCents,
    partialAllowed: version.partialAllowed,
    terms: version.terms,
    lines: version.lines.map((line) => ({
      partId: line.partId,
      partNumber: line.partNumber,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      leadTimeDays: line.leadTimeDays,
    })),
  };
}

/**
 * What a receiver gets of a quote: its lines asked for, the latest version's prices (every `…Cents`
 * in the minor unit of `currency`, lower case as Stripe writes it) and the order its acceptance placed.
 */
export function quotePayload(quote: QuoteView) {
  const current = quote.current;
  return {
    id: quote.id,
    number: quote.label,
    status: quote.status,
    currency: quote.currency.toLowerCase(),
    customer: { id: quote.userId, email: quote.userEmail, name: quote.userName, companyName: quote.companyName },
    wantedBy: quote.wantedBy,
    lines: quote.lines.map((line) => ({
      partId: line.partId,
      partNumber: line.partNumber,
      name: line.productName,
      quantity: line.quantity,
      targetUnitPriceCents: line.targetUnitPriceCents,
    })),
    version: current ? quoteVersionPayload(current) : null,
    order: quote.orderId ? { id: quote.orderId, number: quote.orderNumber } : null,
    createdAt: quote.createdAt,
    acceptedAt: quote.acceptedAt,
  };
}

async function queueQuoteWebhooks(kind: QuoteEventKind, quote: QuoteView) {
  const type = TYPE_OF[kind];
  if (!type) return true;
  try {
    const found = await endpointsForOrderOf({ companyId: quote.companyId ?? "" });
    if (!found.length) return true;
    // An endpoint for everything is its owner's while they are an admin (as for orders).
    const admins = found.some((endpoint) => endpoint.scope === "all")
      ? new Set((await listAdminRecipients()).map((admin) => admin.id))
      : new Set<string>();
    const eventId = quoteEventId(kind, quote);
    const body = JSON.stringify({
      id: eventId,
      type,
      createdAt: new Date().toISOString(),
      data: { quote: quotePayload(quote) },
    });
    for (const endpoint of found.filter((each) => each.scope === "own" || admins.has(each.ownerId))) {
      // A delivery names the document its event is of: here the quote (its id and number).
      const entry = {
        eventId,
        endpointId: endpoint.id,
        ownerId: endpoint.ownerId,
        type,
        orderId: quote.id,
        orderNumber: quote.label,
        body,
      };
      if (await addDelivery(entry)) await queueWebhookDelivery(`${eventId}|${endpoint.id}`);
    }
    return true;
  } catch (error) {
    logFailure(`Could not write the webhook deliveries of ${type} of ${quote.label}`, error);
    return false;
  }
}

/**
 * Writes the event's mail and webhook deliveries, then takes its note off the quote. Never throws:
 * what is not written stays noted for the quote sweep.
 */
export async function raiseQuoteEvent(kind: QuoteEventKind, quote: QuoteView) {
  const [mailed, queued] = await Promise.all([mailQuoteEvent(kind, quote), queueQuoteWebhooks(kind, quote)]);
  if (!mailed || !queued) return false;
  try {
    await markQuoteEventRaised(quote.id, kind);
  } catch (error) {
    logFailure(`Could not mark the ${kind} event of ${quote.label} as raised`, error);
  }
  return true;
}
