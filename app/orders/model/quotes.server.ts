/**
 * Quotes as the services read and change them: each change is one conditional update of the quote
 * that also notes its event (`eventsPending`), so two staff sending at once, or an acceptance racing
 * an expiry, leave one winner. The rules and words are domain/quotes.ts; the services orders/quotes.server.ts.
 */
import type { Types } from "mongoose";
import { currencyOf, type Currency } from "~/domain/money";
import { formatOrderNumber } from "~/domain/order-number";
import { formatQuoteNumber, QUOTE_NUMBER_BASE, WAITING_FOR_SHOP, type QuoteStatus } from "~/domain/quotes";
import { nextInSequence } from "~/models/counter.server";
import { isObjectId } from "~/models/part.server";
import { Quote, QUOTE_EVENT_KINDS, type QuoteDoc, type QuoteEventKind } from "./quote-schema.server";

export type QuoteRequestLine = {
  partId: string;
  partNumber: string;
  productName: string;
  quantity: number;
  targetUnitPriceCents: number | null;
};

export type QuotedLine = {
  partId: string;
  partNumber: string;
  productName: string;
  quantity: number;
  unitPriceCents: number;
  listUnitPriceCents: number;
  leadTimeDays: number;
  belowFloor: boolean;
};

export type QuoteVersionView = {
  version: number;
  /** "Q-100012-2" */
  label: string;
  lines: QuotedLine[];
  netCents: number;
  validUntilDay: string;
  validUntil: string;
  terms: string;
  note: string;
  partialAllowed: boolean;
  sentAt: string;
  sentByName: string;
};

export type QuoteMessage = {
  at: string;
  authorName: string;
  fromShop: boolean;
  text: string;
  kind: "request" | "sent" | "revision" | "declined";
};

export type QuoteView = {
  id: string;
  number: number;
  /** "Q-100012" */
  label: string;
  status: QuoteStatus;
  currency: Currency;
  userId: string;
  userEmail: string;
  userName: string;
  companyId: string | null;
  companyName: string | null;
  wantedBy: string | null;
  lines: QuoteRequestLine[];
  versions: QuoteVersionView[];
  /** The latest version, or null while none was sent. */
  current: QuoteVersionView | null;
  messages: QuoteMessage[];
  declineReason: string | null;
  orderId: string | null;
  /** "SO-100042" */
  orderNumber: string | null;
  acceptedVersion: number | null;
  acceptedAt: string | null;
  accepting: { orderId: string; version: number; since: string } | null;
  /** Since when it waits for the shop (requested or revision asked), else null. */
  waitingSince: string | null;
  createdAt: string;
  updatedAt: string;
};

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const idOf = (id: Types.ObjectId | null | undefined) => (id ? id.toString() : null);

export function toQuoteView(doc: QuoteDoc): QuoteView {
  const label = formatQuoteNumber(doc.number);
  const versions = (doc.versions ?? []).map((version): QuoteVersionView => ({
    version: version.version,
    label: formatQuoteNumber(doc.number, version.version),
    lines: version.lines.map((line) => ({
      partId: line.partId.toString(),
      partNumber: line.partNumber,
      productName: line.productName,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      listUnitPriceCents: line.listUnitPriceCents,
      leadTimeDays: line.leadTimeDays,
      belowFloor: Boolean(line.belowFloor),
    })),
    netCents: version.netCents,
    validUntilDay: version.validUntilDay,
    validUntil: version.validUntil.toISOString(),
    terms: version.terms ?? "",
    note: version.note ?? "",
    partialAllowed: Boolean(version.partialAllowed),
    sentAt: version.sentAt.toISOString(),
    sentByName: version.sentByName,
  }));
  return {
    id: doc._id.toString(),
    number: doc.number,
    label,
    status: doc.status,
    currency: currencyOf(doc.currency),
    userId: doc.userId.toString(),
    userEmail: doc.userEmail,
    userName: doc.userName,
    companyId: idOf(doc.companyId),
    companyName: doc.companyName ?? null,
    wantedBy: doc.wantedBy ?? null,
    lines: doc.lines.map((line) => ({
      partId: line.partId.toString(),
      partNumber: line.partNumber,
      productName: line.productName,
      quantity: line.quantity,
      targetUnitPriceCents: line.targetUnitPriceCents ?? null,
    })),
    versions,
    current: versions.at(-1) ?? null,
    messages: (doc.messages ?? []).map((message) => ({
      at: message.at.toISOString(),
      authorName: message.authorName,
      fromShop: message.fromShop,
      text: message.text,
      kind: message.kind as QuoteMessage["kind"],
    })),
    declineReason: doc.declineReason ?? null,
    orderId: idOf(doc.orderId),
    orderNumber: doc.orderNumber ? formatOrderNumber(doc.orderNumber) : null,
    acceptedVersion: doc.acceptedVersion ?? null,
    acceptedAt: iso(doc.acceptedAt),
    accepting: doc.accepting
      ? {
          orderId: doc.accepting.orderId.toString(),
          version: doc.accepting.version,
          since: doc.accepting.since.toISOString(),
        }
      : null,
    waitingSince: doc.status === "requested" || doc.status === "revision" ? iso(doc.waitingSince) : null,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

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

// --- What the sweeps find ----------------------------------------------------------------------------

export async function listQuotesPastValidity(now = new Date(), limit = 200) {
  const docs = await Quote.find({ status: "quoted", validUntil: { $lt: now } }, { _id: 1 })
    .limit(limit)
    .lean();
  return docs.map((doc) => doc._id.toString());
}

/** Quoted quotes that run out within `withinMs` and whose buyer was not yet reminded of this version. */
export async function listExpiringUnreminded(withinMs: number, now = new Date(), limit = 200) {
  const docs = await Quote.find({
    status: "quoted",
    validUntil: { $gte: now, $lte: new Date(now.getTime() + withinMs) },
  })
    .limit(limit)
    .lean<QuoteDoc[]>();
  return docs.filter((doc) => doc.expiryRemindedVersion !== doc.versions.length).map(toQuoteView);
}

/** Notes the reminder of this version as sent; false when another run noted it first. */
export async function claimExpiryReminder(id: string, version: number) {
  const result = await Quote.updateOne(
    { _id: id, status: "quoted", versions: { $size: version }, expiryRemindedVersion: { $ne: version } },
    { $set: { expiryRemindedVersion: version } },
  );
  return result.modifiedCount === 1;
}

/** Quotes waiting for the shop since before `before`, not yet reminded of. */
export async function listWaitingUnreminded(before: Date, limit = 50) {
  const docs = await Quote.find({
    status: { $in: WAITING_FOR_SHOP },
    waitingSince: { $lt: before },
    staffRemindedAt: { $exists: false },
  })
    .sort({ waitingSince: 1 })
    .limit(limit)
    .lean<QuoteDoc[]>();
  return docs.map(toQuoteView);
}

export async function markStaffReminded(ids: string[], now = new Date()) {
  if (ids.length) await Quote.updateMany({ _id: { $in: ids } }, { $set: { staffRemindedAt: now } });
}

/** Acceptances claimed before `before` (a crash between the claim and the order standing). */
export async function listLeftAccepting(before: Date, limit = 100) {
  const docs = await Quote.find({ "accepting.since": { $lt: before } })
    .limit(limit)
    .lean<QuoteDoc[]>();
  return docs.map(toQuoteView);
}

export async function markQuoteEventRaised(id: string, kind: QuoteEventKind) {
  await Quote.updateOne({ _id: id }, { $pull: { eventsPending: kind } });
}

/** Quotes with an event whose mail or webhooks are not written `graceMs` after their last change. */
export async function listQuotesWithPendingEvents({ graceMs, limit }: { graceMs: number; limit: number }) {
  const docs = await Quote.find({
    eventsPending: { $in: QUOTE_EVENT_KINDS },
    updatedAt: { $lte: new Date(Date.now() - graceMs) },
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean<QuoteDoc[]>();
  return docs.map((doc) => ({
    quote: toQuoteView(doc),
    events: (doc.eventsPending ?? []).filter((kind): kind is QuoteEventKind =>
      (QUOTE_EVENT_KINDS as readonly string[]).includes(kind),
    ),
  }));
}
