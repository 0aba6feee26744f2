/** The buyer accepts a quote: what each line would do now, and the order placed through checkout. */
import { formatQuantity } from "~/format";
import { lineProblem, expectedRestockDay } from "~/domain/order-lines";
import type { AcceptQuoteValue } from "~/forms/quote-forms";
import { getPartsByIds } from "~/models/part.server";
import type { UserView } from "~/models/user.server";
import type { PartView } from "~/domain/catalogue";
import type { QuotedLine, QuoteView } from "./model/quotes.server";
import { NOT_YOURS, quoteForCustomer, refused, whole, type QuoteOutcome } from "./quote-outcome.server";
import { placeCustomerOrder, type PlaceResult } from "./service.server";

// --- The buyer accepts ----------------------------------------------------------------------------------

/** What accepting would do to each line now: from stock, part on backorder (and when), or not possible. */
export type AcceptLineNote = { partId: string; kind: "stock" | "backorder" | "short" | "gone"; message: string };

export async function acceptNotes(quote: QuoteView): Promise<AcceptLineNote[]> {
  if (!quote.current) return [];
  const parts = await getPartsByIds(quote.current.lines.map((line) => line.partId));
  return quote.current.lines.map((line) => noteOf(line, parts.get(line.partId)));
}

function noteOf(line: QuotedLine, part: PartView | undefined): AcceptLineNote {
  if (!part)
    return { partId: line.partId, kind: "gone", message: `${line.partNumber} is no longer sold: ask for a revision` };
  if (line.quantity <= part.availableQuantity)
    return { partId: line.partId, kind: "stock", message: `${formatQuantity(line.quantity)} in stock` };
  const problem = lineProblem(part, line.quantity);
  if (problem?.reason === "above-stock")
    return { partId: line.partId, kind: "short", message: `${problem.message} now: ask for a revision` };
  const waiting = line.quantity - Math.max(0, part.availableQuantity);
  const day = expectedRestockDay(part);
  return {
    partId: line.partId,
    kind: "backorder",
    message: `${formatQuantity(waiting)} of ${formatQuantity(line.quantity)} will wait on backorder${day ? `, expected ${day}` : ""}`,
  };
}

/**
 * Accepting places the order through checkout at the version's prices: the lines chosen (every line
 * unless the shop allowed some only), delivered and paid as any order, within the buyer's limits.
 */
export async function acceptQuote(
  user: UserView,
  quoteId: string,
  value: AcceptQuoteValue,
): Promise<PlaceResult | Extract<QuoteOutcome, { ok: false }>> {
  const quote = await quoteForCustomer(quoteId, user);
  if (!quote) return whole(404, NOT_YOURS);
  const version = quote.versions[value.version - 1];
  if (!version) return whole(409, `${quote.label} has no version ${value.version}.`);
  const chosen = value.partIds?.length ? new Set(value.partIds) : null;
  const lines = version.lines
    .filter((line) => !chosen || chosen.has(line.partId))
    .map((line) => ({ partId: line.partId, quantity: line.quantity }));
  if (!lines.length) return refused(400, { partIds: ["Choose at least one line to order"] });
  return placeCustomerOrder({
    lines,
    phone: value.phone,
    delivery: value.delivery,
    quotedTotalCents: value.quotedTotalCents,
    poNumber: value.poNumber,
    user,
    payment: value.payment,
    remember: { addressId: value.addressId, save: value.saveAddress },
    quote: { id: quote.id, version: value.version },
  });
}
