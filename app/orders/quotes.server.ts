/**
 * The quote services (docs/decisions/0012-quotes-and-orders.md): a buyer asks, the shop sends
 * versions or declines, the buyer asks for a revision or accepts, which places the order at the
 * version's prices through checkout (checkout-quote.server.ts). Each change is one conditional
 * update of the quote; the service then raises its event (mail, webhooks) and writes the audit log.
 * Refusals come back with messages by field, in Conform's names (`lines[1].unitPrice`).
 */
import { can } from "~/services/companies.server";
import { audit } from "~/services/audit-trail.server";
import { customerPricing } from "~/services/pricing.server";
import { findPartsByNumbers, matchOf, unmatchedMessage } from "~/services/part-number.server";
import { formatQuantity } from "~/format";
import { unitPriceCents, type QuoteRequestValue } from "~/forms/quote-forms";
import type { UserView } from "~/models/user.server";
import { insertQuote, markRevisionAsked } from "./model/quotes.server";
import { quoteTarget, raiseQuoteEvent } from "./quote-events.server";
import {
  ACCOUNTS_CANNOT_QUOTE,
  NOT_YOURS,
  quoteForCustomer,
  refused,
  whole,
  type Context,
  type FieldErrors,
  type QuoteOutcome,
} from "./quote-outcome.server";

export {
  ACCOUNTS_CANNOT_QUOTE,
  NOT_YOURS,
  quoteForCustomer,
  quoteScopeOf,
  quotesForCustomer,
  type FieldErrors,
  type QuoteOutcome,
} from "./quote-outcome.server";
export { declineQuote, lastValidityDay, sendQuoteVersion, staffLineFacts } from "./quote-answers.server";
export { acceptNotes, acceptQuote, type AcceptLineNote } from "./quote-accept.server";

// --- The buyer asks ------------------------------------------------------------------------------------

/**
 * A buyer's request: each line a part (by its number) at or above its minimum order, in the buyer's
 * currency (a part with no price list there may be asked for: that is what a quote is for).
 */
export async function requestQuote(user: UserView, value: QuoteRequestValue, context?: Context): Promise<QuoteOutcome> {
  if (user.role !== "customer") return whole(403, "Quotes are asked for by customers.");
  if (!can(user, "order")) return whole(403, ACCOUNTS_CANNOT_QUOTE);
  const { currency } = await customerPricing(user);
  const matches = await findPartsByNumbers(value.lines.map((line) => line.partNumber));
  const errors: FieldErrors = {};
  const seen = new Map<string, number>();
  const lines = value.lines.flatMap((line, index) => {
    const match = matchOf(matches, line.partNumber);
    if (!match.part) {
      errors[`lines[${index}].partNumber`] = [unmatchedMessage(line.partNumber, match)!];
      return [];
    }
    const part = match.part;
    if (seen.has(part.id)) {
      errors[`lines[${index}].partNumber`] = [`${part.partNumber} is already on line ${seen.get(part.id)! + 1}`];
      return [];
    }
    seen.set(part.id, index);
    if (line.quantity < part.minOrderQuantity)
      errors[`lines[${index}].quantity`] = [
        `The minimum order of ${part.partNumber} is ${formatQuantity(part.minOrderQuantity)} units`,
      ];
    const target = line.targetPrice ? unitPriceCents(line.targetPrice, currency) : null;
    if (line.targetPrice && target === null)
      errors[`lines[${index}].targetPrice`] = ["Target price must be a price such as 12.50"];
    return [
      {
        partId: part.id,
        partNumber: part.partNumber,
        productName: part.name,
        quantity: line.quantity,
        targetUnitPriceCents: target,
      },
    ];
  });
  if (Object.keys(errors).length) return refused(400, errors);
  const quote = await insertQuote({
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    companyId: user.companyId || null,
    companyName: user.company.companyName || null,
    currency,
    wantedBy: value.wantedBy || null,
    lines,
    message: value.note ? { authorName: user.name, text: value.note } : null,
  });
  await raiseQuoteEvent("requested", quote);
  await audit({
    context,
    action: "quote.request",
    actor: user,
    target: quoteTarget(quote),
    after: { lines: lines.length },
  });
  return { ok: true, quote };
}

/** The buyer asks for another version, with what to change. */
export async function askForRevision(user: UserView, quoteId: string, message: string, context?: Context) {
  const mine = await quoteForCustomer(quoteId, user);
  if (!mine) return whole(404, NOT_YOURS);
  if (!can(user, "order")) return whole(403, ACCOUNTS_CANNOT_QUOTE);
  const quote = await markRevisionAsked(quoteId, { id: user.id, name: user.name }, message);
  if (!quote)
    return whole(
      409,
      `${mine.label} is ${mine.status === "revision" ? "already waiting for a new version" : "not open for a revision"}.`,
    );
  await raiseQuoteEvent("revision", quote);
  await audit({ context, action: "quote.revision", actor: user, target: quoteTarget(quote) });
  return { ok: true as const, quote };
}
