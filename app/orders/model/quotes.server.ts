/**
 * Quotes as the services read and change them: each change is one conditional update of the quote
 * that also notes its event (`eventsPending`), so two staff sending at once, or an acceptance racing
 * an expiry, leave one winner. The rules and words are domain/quotes.ts; the services orders/quotes.server.ts.
 */
import type { Currency } from "~/domain/money";
import { QUOTE_NUMBER_BASE, WAITING_FOR_SHOP, type QuoteStatus } from "~/domain/quotes";
import { nextInSequence } from "~/models/counter.server";
import { isObjectId } from "~/models/part.server";
import { Quote, type QuoteDoc } from "./quote-schema.server";
import { toQuoteView, type QuotedLine, type QuoteRequestLine } from "./quote-view.server";

export * from "./quote-view.server";
export * from "./quote-sweeps.server";

const viewOf = (doc: QuoteDoc | null) => (doc ? toQuoteView(doc) : null);
const AFTER = { returnDocument: "after" as const };

// --- Reads -------------------------------------------------------------------------------------------

export async function getQuote(id: string) {
  if (!isObjectId(id)) return null;
  return viewOf(await Quote.findById(id).lean<QuoteDoc>());
}

/**
 * Whose quotes a customer sees: their own, and an owner every quote of the company (a buyer asks,
 * the owners watch what the company is offered).
 */
export type QuoteScope = { id: string; companyId?: string | null; seesCompany: boolean };

function scopeFilter(scope: QuoteScope) {
  return scope.seesCompany && scope.companyId && isObjectId(scope.companyId)
    ? { companyId: scope.companyId }
    : { userId: scope.id };
}

export async function getQuoteFor(id: string, scope: QuoteScope) {
  if (!isObjectId(id)) return null;
  return viewOf(await Quote.findOne({ _id: id, ...scopeFilter(scope) }).lean<QuoteDoc>());
}

export const QUOTES_PER_PAGE = 25;

/** A customer's quotes (or their company's), newest first, a page at a time. */
export async function listQuotesOf(scope: QuoteScope, { page = 1 } = {}) {
  const filter = scopeFilter(scope);
  const [docs, total] = await Promise.all([
    Quote.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * QUOTES_PER_PAGE)
      .limit(QUOTES_PER_PAGE)
      .lean<QuoteDoc[]>(),
    Quote.countDocuments(filter),
  ]);
  return { quotes: docs.map(toQuoteView), total, page, pages: Math.max(1, Math.ceil(total / QUOTES_PER_PAGE)) };
}

export type StaffQuoteFilter = { status?: QuoteStatus | "waiting" | null; customer?: string | null; page?: number };

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every quote for staff: by state ("waiting": requested or revision asked), by customer (email, name or company). */
export async function listQuotes({ status, customer, page = 1 }: StaffQuoteFilter = {}) {
  const filter: Record<string, unknown> = {};
  if (status === "waiting") filter.status = { $in: WAITING_FOR_SHOP };
  else if (status) filter.status = status;
  const who = customer?.trim();
  if (who) {
    const pattern = new RegExp(escapeRegex(who), "i");
    filter.$or = [{ userEmail: pattern }, { userName: pattern }, { companyName: pattern }];
  }
  const [docs, total] = await Promise.all([
    Quote.find(filter)
      .sort(status === "waiting" ? { waitingSince: 1, _id: 1 } : { updatedAt: -1, _id: -1 })
      .skip((page - 1) * QUOTES_PER_PAGE)
      .limit(QUOTES_PER_PAGE)
      .lean<QuoteDoc[]>(),
    Quote.countDocuments(filter),
  ]);
  return { quotes: docs.map(toQuoteView), total, page, pages: Math.max(1, Math.ceil(total / QUOTES_PER_PAGE)) };
}

/** The quotes waiting for the shop, oldest first (Shop Today). */
export async function quotesToAnswer(limit = 10) {
  const filter = { status: { $in: WAITING_FOR_SHOP } };
  const [docs, total] = await Promise.all([
    Quote.find(filter).sort({ waitingSince: 1, _id: 1 }).limit(limit).lean<QuoteDoc[]>(),
    Quote.countDocuments(filter),
  ]);
  return { quotes: docs.map(toQuoteView), total };
}

// --- Changes -----------------------------------------------------------------------------------------

export type NewQuote = {
  userId: string;
  userEmail: string;
  userName: string;
  companyId: string | null;
  companyName: string | null;
  currency: Currency;
  wantedBy: string | null;
  lines: QuoteRequestLine[];
  message: { authorName: string; text: string } | null;
};

export async function insertQuote(fields: NewQuote, now = new Date()) {
  const number = QUOTE_NUMBER_BASE + (await nextInSequence("quote"));
  const doc = await Quote.create({
    number,
    status: "requested",
    currency: fields.currency,
    userId: fields.userId,
    userEmail: fields.userEmail,
    userName: fields.userName,
    ...(fields.companyId ? { companyId: fields.companyId } : {}),
    ...(fields.companyName ? { companyName: fields.companyName } : {}),
    ...(fields.wantedBy ? { wantedBy: fields.wantedBy } : {}),
    lines: fields.lines.map((line) => ({
      ...line,
      targetUnitPriceCents: line.targetUnitPriceCents ?? undefined,
    })),
    messages: fields.message
      ? [
          {
            at: now,
            authorId: fields.userId,
            authorName: fields.message.authorName,
            fromShop: false,
            text: fields.message.text,
            kind: "request",
          },
        ]
      : [],
    waitingSince: now,
    eventsPending: ["requested"],
  });
  return toQuoteView(doc.toObject() as QuoteDoc);
}

export type NewVersion = {
  lines: QuotedLine[];
  validUntilDay: string;
  validUntil: Date;
  terms: string;
  note: string;
  partialAllowed: boolean;
  sentBy: { id: string; name: string };
};

/**
 * The shop's next version, only while the quote waits for it or stands quoted with `expectedVersions`
 * versions (a second admin sending at the same time finds it moved on: null).
 */
export async function pushVersion(id: string, expectedVersions: number, version: NewVersion, now = new Date()) {
  if (!isObjectId(id)) return null;
  const netCents = version.lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const entry = {
    version: expectedVersions + 1,
    lines: version.lines,
    netCents,
    validUntilDay: version.validUntilDay,
    validUntil: version.validUntil,
    terms: version.terms,
    note: version.note,
    partialAllowed: version.partialAllowed,
    sentAt: now,
    sentById: version.sentBy.id,
    sentByName: version.sentBy.name,
  };
  const message = version.note
    ? [
        {
          at: now,
          authorId: version.sentBy.id,
          authorName: version.sentBy.name,
          fromShop: true,
          text: version.note,
          kind: "sent",
        },
      ]
    : [];
  return viewOf(
    await Quote.findOneAndUpdate(
      {
        _id: id,
        status: { $in: ["requested", "revision", "quoted"] },
        versions: { $size: expectedVersions },
        accepting: { $exists: false },
      },
      {
        $set: { status: "quoted", validUntil: version.validUntil },
        $push: { versions: entry, messages: { $each: message }, eventsPending: "sent" },
        $unset: { waitingSince: 1, staffRemindedAt: 1 },
      },
      AFTER,
    ).lean<QuoteDoc>(),
  );
}

/** The buyer asks for another version of a quoted quote, with their message. */
export async function markRevisionAsked(
  id: string,
  author: { id: string; name: string },
  text: string,
  now = new Date(),
) {
  if (!isObjectId(id)) return null;
  return viewOf(
    await Quote.findOneAndUpdate(
      { _id: id, status: "quoted", accepting: { $exists: false } },
      {
        $set: { status: "revision", waitingSince: now },
        $unset: { staffRemindedAt: 1 },
        $push: {
          messages: { at: now, authorId: author.id, authorName: author.name, fromShop: false, text, kind: "revision" },
          eventsPending: "revision",
        },
      },
      AFTER,
    ).lean<QuoteDoc>(),
  );
}

/** The shop declines a quote that is not accepted, ended or being accepted. */
export async function markDeclined(id: string, author: { id: string; name: string }, reason: string, now = new Date()) {
  if (!isObjectId(id)) return null;
  return viewOf(
    await Quote.findOneAndUpdate(
      { _id: id, status: { $in: ["requested", "revision", "quoted"] }, accepting: { $exists: false } },
      {
        $set: { status: "declined", declineReason: reason, declinedAt: now },
        $unset: { waitingSince: 1 },
        $push: {
          messages: {
            at: now,
            authorId: author.id,
            authorName: author.name,
            fromShop: true,
            text: reason,
            kind: "declined",
          },
          eventsPending: "declined",
        },
      },
      AFTER,
    ).lean<QuoteDoc>(),
  );
}

/**
 * Checkout claims the quote for the order it places: only the latest version, still valid, of a
 * quote that stands quoted and that no other acceptance holds. Null when it cannot be claimed.
 */
export async function claimForAcceptance(id: string, version: number, orderId: string, now = new Date()) {
  if (!isObjectId(id)) return null;
  return viewOf(
    await Quote.findOneAndUpdate(
      {
        _id: id,
        status: "quoted",
        versions: { $size: version },
        validUntil: { $gte: now },
        accepting: { $exists: false },
      },
      { $set: { accepting: { orderId, version, since: now } } },
      AFTER,
    ).lean<QuoteDoc>(),
  );
}

/** Lets go of a claim this order holds (checkout did not place it). */
export async function releaseAcceptance(id: string, orderId: string) {
  await Quote.updateOne({ _id: id, "accepting.orderId": orderId }, { $unset: { accepting: 1 } });
}

/** The order stands: the quote is accepted and links it. Idempotent (the sweep may run it again). */
export async function markAccepted(
  id: string,
  order: { id: string; number: number | null },
  version: number,
  now = new Date(),
) {
  const doc = await Quote.findOneAndUpdate(
    { _id: id, "accepting.orderId": order.id, status: "quoted" },
    {
      $set: {
        status: "accepted",
        acceptedAt: now,
        acceptedVersion: version,
        orderId: order.id,
        ...(order.number ? { orderNumber: order.number } : {}),
      },
      $unset: { accepting: 1, validUntil: 1 },
      $push: { eventsPending: "accepted" },
    },
    AFTER,
  ).lean<QuoteDoc>();
  return viewOf(doc ?? (await Quote.findOne({ _id: id, orderId: order.id }).lean<QuoteDoc>()));
}

/** A quoted quote past its validity expires (none that an acceptance holds). */
export async function expireQuote(id: string, now = new Date()) {
  return viewOf(
    await Quote.findOneAndUpdate(
      { _id: id, status: "quoted", validUntil: { $lt: now }, accepting: { $exists: false } },
      { $set: { status: "expired", expiredAt: now }, $push: { eventsPending: "expired" } },
      AFTER,
    ).lean<QuoteDoc>(),
  );
}
