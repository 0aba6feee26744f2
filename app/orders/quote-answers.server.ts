/** The shop's answers to a quote: the facts beside each line, a version sent, a decline. */
import { audit } from "~/services/audit-trail.server";
import { formatCents } from "~/format";
import { inCurrency } from "~/domain/pricing";
import { belowFloorMessage, endOfValidity, floorPrice, MAX_VALIDITY_DAYS, type QuoteStatus } from "~/domain/quotes";
import { unitPriceCents, type QuoteVersionValue } from "~/forms/quote-forms";
import { getPartsByIds, getQuoteFloors } from "~/models/part.server";
import { getQuote, markDeclined, pushVersion, type QuotedLine, type QuoteView } from "./model/quotes.server";
import { quoteTarget, raiseQuoteEvent } from "./quote-events.server";
import { refused, whole, type Context, type FieldErrors, type Staff } from "./quote-outcome.server";

// --- The shop answers ----------------------------------------------------------------------------------

/** The last day a version may be valid until (YYYY-MM-DD): three months from today. */
export const lastValidityDay = (now = new Date()) =>
  new Date(now.getTime() + MAX_VALIDITY_DAYS * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** What the staff page shows beside each line: the list price in the quote's currency and the floor. */
export async function staffLineFacts(quote: QuoteView) {
  const ids = quote.lines.map((line) => line.partId);
  const [parts, floors] = await Promise.all([getPartsByIds(ids), getQuoteFloors(ids, quote.currency)]);
  return new Map(
    quote.lines.map((line) => {
      const part = parts.get(line.partId);
      const listed = part ? inCurrency(part, quote.currency) : null;
      return [
        line.partId,
        {
          listUnitPriceCents: listed?.priceCents ?? null,
          floorCents: listed ? floorPrice(listed, floors.get(line.partId)) : (floors.get(line.partId) ?? null),
          availableQuantity: part?.availableQuantity ?? 0,
          backorderable: part?.backorderable ?? false,
          gone: !part,
        },
      ];
    }),
  );
}

/**
 * Sends the next version: a price a unit and lead time for every line asked for, a validity from
 * today to three months, terms and a note. A price below the part's floor needs the override (each
 * one audited); a quote accepted, declined, expired or moved on meanwhile is refused (409).
 */
export async function sendQuoteVersion(staff: Staff, quoteId: string, value: QuoteVersionValue, context?: Context) {
  const quote = await getQuote(quoteId);
  if (!quote) return whole(404, "There is no such quote.");
  const ended: QuoteStatus[] = ["accepted", "declined", "expired"];
  if (ended.includes(quote.status)) return whole(409, `${quote.label} is ${quote.status}: it cannot be sent again.`);
  if (quote.versions.length !== value.expectedVersions)
    return whole(
      409,
      `${quote.label} changed just now (version ${quote.versions.length} is the latest): read it again.`,
    );
  const errors: FieldErrors = {};
  if (value.validUntil > lastValidityDay())
    errors.validUntil = [`A quote is valid for at most ${MAX_VALIDITY_DAYS} days, until ${lastValidityDay()}`];
  const facts = await staffLineFacts(quote);
  const priced = new Map(value.lines.map((line, index) => [line.partId, { line, index }]));
  const overrides: QuotedLine[] = [];
  const lines = quote.lines.flatMap((asked, order): QuotedLine[] => {
    const entry = priced.get(asked.partId);
    if (!entry) {
      errors[`lines[${order}].unitPrice`] = [`Price ${asked.partNumber}`];
      return [];
    }
    const { line, index } = entry;
    const cents = line.unitPrice ? unitPriceCents(line.unitPrice, quote.currency) : null;
    if (cents === null) {
      errors[`lines[${index}].unitPrice`] = [
        line.unitPrice ? "Price a unit must be a price such as 12.50" : `Price ${asked.partNumber}`,
      ];
      return [];
    }
    const fact = facts.get(asked.partId)!;
    const belowFloor = fact.floorCents !== null && cents < fact.floorCents;
    if (belowFloor && !line.belowFloor) {
      errors[`lines[${index}].unitPrice`] = [belowFloorMessage(fact.floorCents!, quote.currency)];
      return [];
    }
    const quoted = {
      partId: asked.partId,
      partNumber: asked.partNumber,
      productName: asked.productName,
      quantity: asked.quantity,
      unitPriceCents: cents,
      listUnitPriceCents: fact.listUnitPriceCents ?? cents,
      leadTimeDays: line.leadTimeDays,
      belowFloor,
    };
    if (belowFloor) overrides.push(quoted);
    return [quoted];
  });
  if (value.lines.some((line) => !quote.lines.some((asked) => asked.partId === line.partId)))
    errors[""] = ["Only the parts asked for can be quoted"];
  if (Object.keys(errors).length) return refused(400, errors);
  const sent = await pushVersion(quoteId, value.expectedVersions, {
    lines,
    validUntilDay: value.validUntil,
    validUntil: endOfValidity(value.validUntil),
    terms: value.terms ?? "",
    note: value.note ?? "",
    partialAllowed: Boolean(value.partialAllowed),
    sentBy: { id: staff.id, name: staff.name },
  });
  if (!sent) return whole(409, `${quote.label} changed just now: read it again.`);
  await raiseQuoteEvent("sent", sent);
  const target = quoteTarget(sent);
  await audit({
    context,
    action: "quote.send",
    actor: staff,
    target,
    after: {
      version: sent.current!.label,
      net: formatCents(sent.current!.netCents, { currency: sent.currency }),
      validUntil: value.validUntil,
    },
  });
  for (const line of overrides) {
    const floor = facts.get(line.partId)!.floorCents!;
    await audit({
      context,
      action: "quote.floor-override",
      actor: staff,
      target,
      before: { part: line.partNumber, floor: formatCents(floor, { currency: sent.currency }) },
      after: { part: line.partNumber, price: formatCents(line.unitPriceCents, { currency: sent.currency }) },
    });
  }
  return { ok: true as const, quote: sent };
}

/** The shop declines a request (or a quote not yet accepted) with its reason, told to the buyer. */
export async function declineQuote(staff: Staff, quoteId: string, reason: string, context?: Context) {
  const quote = await markDeclined(quoteId, { id: staff.id, name: staff.name }, reason);
  if (!quote) {
    const found = await getQuote(quoteId);
    return found
      ? whole(409, `${found.label} is ${found.status}: it cannot be declined now.`)
      : whole(404, "There is no such quote.");
  }
  await raiseQuoteEvent("declined", quote);
  await audit({ context, action: "quote.decline", actor: staff, target: quoteTarget(quote), after: { reason } });
  return { ok: true as const, quote };
}
