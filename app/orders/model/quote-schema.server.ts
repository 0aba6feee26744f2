/**
 * A quote as stored (domain/quotes.ts): the buyer's request, each version the shop sent (kept whole,
 * numbered Q-…-1, -2), the conversation, and the order accepting it placed. One document: every change
 * of a quote is one conditional update of it, and the order links it by id and number.
 */
import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { CURRENCY_CODES, HOME_CURRENCY } from "~/domain/money";
import { MAX_LEAD_TIME_DAYS, MAX_QUOTE_LINES, QUOTE_STATUSES } from "~/domain/quotes";

/** The changes that mail someone and tell webhooks, noted on the quote until both are written. */
export const QUOTE_EVENT_KINDS = ["requested", "sent", "revision", "accepted", "declined", "expired"] as const;
export type QuoteEventKind = (typeof QUOTE_EVENT_KINDS)[number];

const requestLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    partNumber: { type: String, required: true, maxlength: 32 },
    productName: { type: String, required: true, maxlength: 120 },
    quantity: { type: Number, required: true, min: 1, validate: Number.isInteger },
    /** The price a unit the buyer hopes for, in the quote's currency (optional). */
    targetUnitPriceCents: { type: Number, min: 1, validate: Number.isInteger },
  },
  { _id: false },
);

const quotedLineSchema = new Schema(
  {
    partId: { type: Schema.Types.ObjectId, required: true },
    partNumber: { type: String, required: true, maxlength: 32 },
    productName: { type: String, required: true, maxlength: 120 },
    quantity: { type: Number, required: true, min: 1, validate: Number.isInteger },
    unitPriceCents: { type: Number, required: true, min: 1, validate: Number.isInteger },
    /** The part's list price there when quoted: what the quote saves is shown against it. */
    listUnitPriceCents: { type: Number, required: true, min: 1, validate: Number.isInteger },
    leadTimeDays: { type: Number, required: true, min: 0, max: MAX_LEAD_TIME_DAYS, validate: Number.isInteger },
    /** Quoted below the part's floor by an admin's override (audited). */
    belowFloor: { type: Boolean },
  },
  { _id: false },
);

const versionSchema = new Schema(
  {
    version: { type: Number, required: true, min: 1 },
    lines: { type: [quotedLineSchema], required: true },
    netCents: { type: Number, required: true, min: 1 },
    /** The last day it may be accepted (YYYY-MM-DD) and the end of that day. */
    validUntilDay: { type: String, required: true },
    validUntil: { type: Date, required: true },
    terms: { type: String, default: "", maxlength: 2000 },
    note: { type: String, default: "", maxlength: 2000 },
    /** The buyer may accept some of the lines only. */
    partialAllowed: { type: Boolean, default: false },
    sentAt: { type: Date, required: true },
    sentById: { type: Schema.Types.ObjectId, required: true },
    sentByName: { type: String, required: true },
  },
  { _id: false },
);

const messageSchema = new Schema(
  {
    at: { type: Date, required: true },
    authorId: { type: Schema.Types.ObjectId, required: true },
    authorName: { type: String, required: true },
    fromShop: { type: Boolean, required: true },
    text: { type: String, required: true, maxlength: 2000 },
    /** What the message came with: a request, a version sent, a revision asked, a decline. */
    kind: { type: String, enum: ["request", "sent", "revision", "declined"], required: true },
  },
  { _id: false },
);

const quoteSchema = new Schema(
  {
    number: { type: Number, required: true },
    status: { type: String, enum: QUOTE_STATUSES, required: true, default: "requested" },
    currency: { type: String, enum: CURRENCY_CODES, required: true, default: HOME_CURRENCY },
    userId: { type: Schema.Types.ObjectId, required: true },
    userEmail: { type: String, required: true },
    userName: { type: String, required: true },
    companyId: { type: Schema.Types.ObjectId },
    companyName: { type: String },
    /** The day the buyer wants the goods (YYYY-MM-DD), optional. */
    wantedBy: { type: String },
    lines: {
      type: [requestLineSchema],
      required: true,
      validate: (lines: unknown[]) => lines.length >= 1 && lines.length <= MAX_QUOTE_LINES,
    },
    versions: { type: [versionSchema], default: [] },
    messages: { type: [messageSchema], default: [] },
    /** The current version's end of validity (the expiry sweep's index). */
    validUntil: { type: Date },
    declineReason: { type: String, maxlength: 2000 },
    declinedAt: { type: Date },
    expiredAt: { type: Date },
    /** An acceptance under way: the order checkout is placing for it (checkout-quote.server.ts). */
    accepting: {
      type: new Schema(
        {
          orderId: { type: Schema.Types.ObjectId, required: true },
          version: { type: Number, required: true },
          since: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: undefined,
    },
    orderId: { type: Schema.Types.ObjectId },
    orderNumber: { type: Number },
    acceptedVersion: { type: Number },
    acceptedAt: { type: Date },
    /** Since when it waits for the shop (requested or revision asked): the staff reminder counts from it. */
    waitingSince: { type: Date },
    /** The version whose expiry the buyer was reminded of, and when staff were reminded of a waiting request. */
    expiryRemindedVersion: { type: Number },
    staffRemindedAt: { type: Date },
    eventsPending: { type: [{ type: String, enum: QUOTE_EVENT_KINDS }], default: undefined },
  },
  { timestamps: true },
);

quoteSchema.index({ number: 1 }, { unique: true });
// A company's quotes and one person's, newest first (the buyer's list); the staff list by state.
quoteSchema.index({ companyId: 1, createdAt: -1, _id: -1 });
quoteSchema.index({ userId: 1, createdAt: -1, _id: -1 });
quoteSchema.index({ status: 1, updatedAt: -1, _id: -1 });
quoteSchema.index({ createdAt: -1, _id: -1 });
// The sweeps: versions running out, acceptances a crash left, events still to raise.
quoteSchema.index({ status: 1, validUntil: 1 });
quoteSchema.index({ "accepting.since": 1 }, { sparse: true });
quoteSchema.index({ eventsPending: 1 }, { sparse: true });
quoteSchema.index({ status: 1, waitingSince: 1 });

export type QuoteDoc = InferSchemaType<typeof quoteSchema> & { _id: Types.ObjectId; createdAt: Date; updatedAt: Date };

export const Quote: mongoose.Model<QuoteDoc> =
  (mongoose.models.Quote as mongoose.Model<QuoteDoc>) ?? mongoose.model<QuoteDoc>("Quote", quoteSchema);
