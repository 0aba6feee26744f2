/**
 * Checkout's steps for an order placed by accepting a quote (docs/decisions/0012-quotes-and-orders.md):
 * the quote is claimed for the order before anything is written, its lines are priced at the
 * version's prices, and once the order stands the quote is marked accepted with a link to it. The
 * rest (stock held, limits, approval, payment, tax) is every order's checkout.
 */
import { formatQuoteNumber } from "~/domain/quotes";
import { formatDay } from "~/domain/order-states";
import { parseOrderNumber } from "~/domain/order-number";
import { priceAgreed, type CustomerPricing } from "~/domain/pricing";
import { audit } from "~/services/audit-trail.server";
import { stop, type Step } from "~/services/workflow.server";
import type { MergedLine, Refusal } from "./checkout-order.server";
import type { Checkout } from "./checkout.server";
import { claimForAcceptance, getQuote, markAccepted, releaseAcceptance, type QuoteView } from "./model/quotes.server";
import { quoteTarget, raiseQuoteEvent } from "./quote-events.server";

/** What the quote gives the order: the version's prices and quantities, by part. */
export type QuoteTerms = {
  id: string;
  number: number;
  version: number;
  currency: QuoteView["currency"];
  lines: Map<string, { quantity: number; unitPriceCents: number; listPriceCents: number }>;
};

/** Why a quote cannot be accepted now, in the buyer's words. */
export function notAcceptable(quote: QuoteView | null, version: number) {
  if (!quote) return "We could not find that quote in your account.";
  const label = formatQuoteNumber(quote.number, version);
  if (quote.status === "accepted")
    return `${quote.label} is already accepted: see order ${quote.orderNumber ?? ""}.`.trim();
  if (quote.accepting) return `${quote.label} is being accepted just now; look at your orders in a moment.`;
  if (quote.status === "expired" || (quote.current && new Date(quote.current.validUntil) < new Date()))
    return `${label} expired on ${formatDay(quote.current?.validUntil ?? quote.updatedAt)}: ask us for a new version.`;
  if (quote.status === "declined") return `${quote.label} was declined: it cannot be accepted.`;
  if (quote.status !== "quoted") return `${quote.label} is waiting for our new version: it cannot be accepted yet.`;
  if (quote.current && quote.current.version !== version)
    return `${label} was replaced by ${quote.current.label}: read the new version and accept that one.`;
  return `${label} cannot be accepted now.`;
}

const refuse = (refusal: string, receipt?: unknown) => stop<Refusal>({ ok: false, failures: [], refusal }, receipt);

/**
 * Claims the quote for this order: only its latest version, still valid, that no other acceptance
 * holds. The lines must be the version's (all of them, or some when the shop allowed a partial
 * acceptance) at its quantities: the buyer changes neither prices nor quantities.
 */
export const claimQuote: Step<Checkout, Refusal> = {
  name: "claim-quote",
  run: async (c) => {
    const asked = c.input.quote;
    if (!asked) return { claimed: false };
    const quote = await claimForAcceptance(asked.id, asked.version, c.id);
    if (!quote) return refuse(notAcceptable(await getQuote(asked.id), asked.version), { claimed: false });
    const version = quote.versions[asked.version - 1];
    const lines = new Map(
      version.lines.map((line) => [
        line.partId,
        { quantity: line.quantity, unitPriceCents: line.unitPriceCents, listPriceCents: line.listUnitPriceCents },
      ]),
    );
    const problem = linesProblem(c.lines, lines, version.partialAllowed);
    if (problem) {
      await releaseAcceptance(asked.id, c.id);
      return refuse(problem, { claimed: false });
    }
    c.quote = { id: quote.id, number: quote.number, version: asked.version, currency: quote.currency, lines };
    return { claimed: true };
  },
  compensate: async (c, receipt) => {
    if (c.input.quote && (receipt as { claimed?: boolean } | undefined)?.claimed !== false)
      await releaseAcceptance(c.input.quote.id, c.id);
  },
};

function linesProblem(asked: MergedLine[], quoted: QuoteTerms["lines"], partialAllowed: boolean) {
  if (asked.some((line) => !quoted.has(line.partId))) return "Only the parts of the quote can be ordered with it.";
  if (asked.some((line) => quoted.get(line.partId)!.quantity !== line.quantity))
    return "A quote is ordered at its quantities: ask us for a revision to change one.";
  if (!partialAllowed && asked.length !== quoted.size)
    return "This quote is accepted whole: ask us for a revision to leave a line out.";
  return null;
}

/** The order stands: the quote is marked accepted with its link, and its event raised (mail, webhooks, audit). */
export const markQuoteAccepted: Step<Checkout, Refusal> = {
  name: "mark-quote-accepted",
  finishedBy: "the quote sweep (an acceptance whose order stands is marked accepted)",
  run: async (c) => {
    if (!c.quote || !c.order) return;
    const number = parseOrderNumber(c.order.number);
    const quote = await markAccepted(c.quote.id, { id: c.order.id, number }, c.quote.version);
    if (!quote) return;
    await raiseQuoteEvent("accepted", quote);
    const actor = { id: c.input.user.id, email: c.input.user.email };
    await audit({ action: "quote.accept", actor, target: quoteTarget(quote), after: { order: c.order.number } });
  },
};

/** The order's lines at the version's prices, in the quote's currency, with the tax for the delivery. */
export function priceAtQuote(c: Checkout, pricing: CustomerPricing) {
  const quote = c.quote!;
  const lines = c.lines.map((line) => ({ partId: line.partId, ...quote.lines.get(line.partId)! }));
  return priceAgreed({ ...pricing, currency: quote.currency }, lines, c.input.delivery);
}
