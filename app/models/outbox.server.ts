import mongoose, { Schema } from "mongoose";
import { deliveryQueue } from "./delivery-queue.server";
import { isDuplicateKeyError } from "./user.server";

/**
 * Mail waiting to go out. A message is written here in the same step as the change that causes it
 * and sent by a job (app/services/mail-worker.server.ts). Its `_id` is the event that caused it (e.g.
 * `order:<id>:placed`), so writing it again (a retried step, a second instance, the order mail
 * sweep) never duplicates it: `_id` is unique.
 */
const outboxSchema = new Schema(
  {
    _id: { type: String, required: true },
    to: { type: String, required: true },
    subject: { type: String, required: true },
    html: { type: String, required: true },
    text: { type: String, required: true },
    /** Extra headers, e.g. List-Unsubscribe. */
    headers: { type: Schema.Types.Mixed },
    /** pending → sending → sent; or failed, after its last attempt, until an admin sends it again. */
    status: { type: String, enum: ["pending", "sending", "sent", "failed"], required: true, default: "pending" },
    /** When a delivery job was created for it (unset: the sweep creates one). */
    queuedAt: { type: Date },
    /** When a worker took it; a claim older than the lock lifetime is taken again. */
    sendingSince: { type: Date },
    /** Which attempt holds it: a stale holder that finishes late cannot release a newer one's claim. */
    claimToken: { type: String },
    /** The Message-ID it goes out with, the same on every attempt (mail-worker.server.ts). */
    messageId: { type: String },
    failedAt: { type: Date },
    attempts: { type: Number, required: true, default: 0 },
    lastError: { type: String },
    sentAt: { type: Date },
  },
  { timestamps: true },
);

outboxSchema.index({ status: 1, createdAt: 1 });
// The sweep: messages waiting, or held by an attempt that stopped, the oldest first.
outboxSchema.index({ status: 1, updatedAt: 1 });

export type OutboxStatus = "pending" | "sending" | "sent" | "failed";

export type OutboxDoc = {
  _id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  status: OutboxStatus;
  queuedAt?: Date;
  sendingSince?: Date;
  claimToken?: string;
  messageId?: string;
  failedAt?: Date;
  attempts: number;
  lastError?: string;
  sentAt?: Date;
  createdAt: Date;
  updatedAt: Date;
};

export const Outbox: mongoose.Model<OutboxDoc> =
  (mongoose.models.Outbox as mongoose.Model<OutboxDoc>) ?? mongoose.model<OutboxDoc>("Outbox", outboxSchema);

/** Its claim, lease, release and strand: the shop's one delivery mechanism (delivery-queue.server.ts). */
export const outboxQueue = deliveryQueue<OutboxDoc>(Outbox, { doneStatus: "sent", doneAt: "sentAt", errorMax: 500 });

export type OutboxEntry = Pick<OutboxDoc, "_id" | "to" | "subject" | "html" | "text" | "headers">;

/** Writes the message once: true when it is new, false when this event already has its message. */
export async function addToOutbox(entry: OutboxEntry) {
  try {
    const result = await Outbox.updateOne(
      { _id: entry._id },
      { $setOnInsert: { ...entry, status: "pending", attempts: 0 } },
      { upsert: true },
    );
    return result.upsertedCount === 1;
  } catch (error) {
    // Two writers of the same event at once (the step and the sweep): the other one wrote it.
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export type FailedMail = Pick<OutboxDoc, "_id" | "to" | "subject" | "attempts" | "lastError" | "failedAt">;

/** Messages that ran out of attempts, the newest first (Shop Today lists them for an admin). */
export async function listFailedMail(limit = 20): Promise<{ items: FailedMail[]; total: number }> {
  const [items, total] = await Promise.all([
    Outbox.find({ status: "failed" })
      .sort({ updatedAt: -1 })
      .limit(limit)
      .select({ _id: 1, to: 1, subject: 1, attempts: 1, lastError: 1, failedAt: 1 })
      .lean(),
    Outbox.countDocuments({ status: "failed" }),
  ]);
  return { items, total };
}

/** An admin sends a failed message again: it gets a fresh set of attempts. Null when it is not failed. */
export async function retryFailedMail(id: string) {
  return Outbox.findOneAndUpdate(
    { _id: id, status: "failed" },
    { $set: { status: "pending", attempts: 0 }, $unset: { failedAt: "", queuedAt: "" } },
    { returnDocument: "after" },
  )
    .select({ _id: 1, to: 1, subject: 1 })
    .lean();
}

/** A message that already ran out of attempts, written once (the demo data shows Shop Today's list with it). */
export async function addFailedMail(entry: OutboxEntry & { attempts: number; lastError: string }) {
  const now = new Date();
  await Outbox.updateOne(
    { _id: entry._id },
    { $setOnInsert: { ...entry, status: "failed", failedAt: now } },
    { upsert: true },
  );
}
