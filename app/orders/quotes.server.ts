/**
 * The quote services (docs/decisions/0012-quotes-and-orders.md): a buyer asks, the shop sends
 * versions or declines, the buyer asks for a revision or accepts, which places the order at the
 * version's prices through checkout (checkout-quote.server.ts). Each change is one conditional
 * update of the quote; the service then raises its event (mail, webhooks) and writes the audit log.
 * Refusals come back with messages by field, in Conform's names (`lines[1].unitPrice`).
 */
import { can } from "~/services/companies.server";
import { audit, type AuditEvent } from "~/services/audit-trail.server";
import { customerPricing } from "~/services/pricing.server";
import { findPartsByNumbers, matchOf, unmatchedMessage } from "~/services/part-number.server";
import { formatQuantity, formatCents } from "~/format";
import { inCurrency } from "~/domain/pricing";
import { lineProblem, expectedRestockDay } from "~/domain/order-lines";
import { belowFloorMessage, endOfValidity, floorPrice, MAX_VALIDITY_DAYS, type QuoteStatus } from "~/domain/quotes";
import {
  unitPriceCents,
  type AcceptQuoteValue,
  type QuoteRequestValue,
  type QuoteVersionValue,
} from "~/forms/quote-forms";
import { getPartsByIds, getQuoteFloors } from "~/models/part.server";
import type { UserView } from "~/models/user.server";
import type { PartView } from "~/domain/catalogue";
import {
  getQuote,
  getQuoteFor,
  insertQuote,
  listQuotesOf,
  markDeclined,
  markRevisionAsked,
  pushVersion,
  type QuotedLine,
  type QuoteScope,
  type QuoteView,
} from "./model/quotes.server";
import { quoteTarget, raiseQuoteEvent } from "./quote-events.server";
import { placeCustomerOrder, type PlaceResult } from "./service.server";

type Context = AuditEvent["context"];
type Staff = { id: string; email: string; name: string };

export type FieldErrors = Record<string, string[]>;
export type QuoteOutcome =
  { ok: true; quote: QuoteView } | { ok: false; status: 400 | 403 | 404 | 409; errors: FieldErrors };

const refused = (status: 400 | 403 | 404 | 409, errors: FieldErrors): QuoteOutcome => ({ ok: false, status, errors });
/** A refusal of the whole form, said above it (Conform's form-level errors are under ""). */
const whole = (status: 400 | 403 | 404 | 409, message: string) => refused(status, { "": [message] });

export const NOT_YOURS = "We could not find that quote in your account.";
export const ACCOUNTS_CANNOT_QUOTE =
  "Your role in the company is accounts: a buyer or an owner asks for quotes and accepts them.";

/** Whose quotes a customer sees: their own; an owner (or accounts, who pay) the company's. */
export function quoteScopeOf(user: Pick<UserView, "id" | "companyId" | "role" | "companyRole">): QuoteScope {
  return {
    id: user.id,
    companyId: user.companyId,
    seesCompany: can(user, "manage") || user.companyRole === "accounts",
  };
}

export const quoteForCustomer = (id: string, user: UserView) => getQuoteFor(id, quoteScopeOf(user));
export const quotesForCustomer = (user: UserView, page = 1) => listQuotesOf(quoteScopeOf(user), { page });

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
): Promise<PlaceResult | QuoteOutcome> {
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
