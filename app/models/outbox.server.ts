import mongoose, { Schema } from "mongoose";
import { isDuplicateKeyError } from "./user.server";

/**
 * Mail waiting to go out. A message is written here in the same step as the change that causes it
 * and sent by a job (app/utils/mail-worker.server.ts). Its `_id` is the event that caused it (e.g.
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
    status: { type: String, enum: ["pending", "sending", "sent"], required: true, default: "pending" },
    /** When a delivery job was created for it (unset: the sweep creates one). */
    queuedAt: { type: Date },
    /** When a worker took it; a claim older than the lock lifetime is taken again. */
    sendingSince: { type: Date },
    attempts: { type: Number, required: true, default: 0 },
    lastError: { type: String },
    sentAt: { type: Date },
  },
  { timestamps: true },
);

outboxSchema.index({ status: 1, createdAt: 1 });

export type OutboxDoc = {
  _id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string>;
  status: "pending" | "sending" | "sent";
  queuedAt?: Date;
  sendingSince?: Date;
  attempts: number;
  lastError?: string;
  sentAt?: Date;
  createdAt: Date;
};

export const Outbox: mongoose.Model<OutboxDoc> =
  (mongoose.models.Outbox as mongoose.Model<OutboxDoc>) ?? mongoose.model<OutboxDoc>("Outbox", outboxSchema);

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

export async function markQueued(id: string) {
  await Outbox.updateOne({ _id: id, queuedAt: { $exists: false } }, { $set: { queuedAt: new Date() } });
}

/**
 * Takes the message for sending: only one worker gets it, unless the one that took it stopped
 * without finishing for longer than `staleMs`. Null when it is sent or taken.
 */
export async function claimForSending(id: string, staleMs: number) {
  const now = new Date();
  return Outbox.findOneAndUpdate(
    {
      _id: id,
      $or: [{ status: "pending" }, { status: "sending", sendingSince: { $lt: new Date(now.getTime() - staleMs) } }],
    },
    { $set: { status: "sending", sendingSince: now }, $inc: { attempts: 1 } },
    { returnDocument: "after" },
  ).lean();
}

export async function markSent(id: string) {
  await Outbox.updateOne({ _id: id }, { $set: { status: "sent", sentAt: new Date() }, $unset: { lastError: "" } });
}

/** Sending failed: back to pending for the next try. */
export async function releaseAfterFailure(id: string, error: string) {
  await Outbox.updateOne(
    { _id: id, status: "sending" },
    { $set: { status: "pending", lastError: error.slice(0, 500) }, $unset: { sendingSince: "" } },
  );
}

/** Messages written but never given a job (the process stopped in between). */
export async function listUnqueued(olderThan: Date, limit = 100) {
  const docs = await Outbox.find({ status: "pending", queuedAt: { $exists: false }, createdAt: { $lt: olderThan } })
    .sort({ createdAt: 1 })
    .limit(limit)
    .select({ _id: 1 })
    .lean();
  return docs.map((doc) => doc._id);
}
