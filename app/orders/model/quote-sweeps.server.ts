/** What the quote sweep finds (quote-jobs.server.ts): each a read, or an update that applies once. */
import { WAITING_FOR_SHOP } from "~/domain/quotes";
import { Quote, QUOTE_EVENT_KINDS, type QuoteDoc, type QuoteEventKind } from "./quote-schema.server";
import { toQuoteView } from "./quote-view.server";

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
