import { randomUUID } from "node:crypto";
import type mongoose from "mongoose";

/**
 * The one delivery mechanism of the shop's outboxes (mail's outbox, webhook deliveries): an entry
 * is written with the change that causes it (`pending`), taken by one attempt at a time (`sending`,
 * with a claim token and since when), released for the next try or marked `failed` after the last,
 * or marked done. A claim older than `staleMs` (its process died or stalled) may be taken again, and
 * the sweep hands a job again to what sat pending past `idleMs` or was held past `staleMs`.
 * Services (app/services/delivery-jobs.server.ts) run the attempts on agenda.
 */
export type QueuedEntry = {
  _id: string;
  status: string;
  attempts: number;
  queuedAt?: Date;
  sendingSince?: Date;
  claimToken?: string;
  lastError?: string;
  failedAt?: Date;
  updatedAt: Date;
};

export type Claimed<Doc> = { entry: Doc; token: string };

export type DeliveryQueue<Doc extends QueuedEntry> = {
  /** A job was created for it (the sweep leaves it alone while it is young). */
  markQueued(id: string): Promise<void>;
  /** Takes the entry for one attempt (with `set` written in the same step); null when done, failed or held. */
  claim(id: string, staleMs: number, set?: Record<string, unknown>): Promise<Claimed<Doc> | null>;
  /** The attempt succeeded (whoever holds the claim now: it went out). */
  markDone(id: string, set?: Record<string, unknown>): Promise<void>;
  /**
   * The attempt failed: pending again for the next, or failed after the last. Only the attempt that
   * holds the claim releases it; false when it no longer did.
   */
  release(
    id: string,
    token: string,
    outcome: { error: string; final: boolean; set?: Record<string, unknown>; unset?: Record<string, ""> },
  ): Promise<boolean>;
  /** The entries the sweep hands a job again, the longest waiting first. */
  listStranded(options: { idleMs: number; staleMs: number; limit?: number }): Promise<string[]>;
  /** How much waits (pending or being sent), since when the oldest of it, and how much failed (/metrics). */
  backlog(): Promise<QueueBacklog>;
};

export type QueueBacklog = { waiting: number; oldestAt: Date | null; failed: number };

export function deliveryQueue<Doc extends QueuedEntry>(
  // Each outbox's model has its own document type; the queue reads and writes only the fields above.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: mongoose.Model<any>,
  { doneStatus, doneAt, errorMax }: { doneStatus: string; doneAt: string; errorMax: number },
): DeliveryQueue<Doc> {
  return {
    async markQueued(id) {
      await model.updateOne({ _id: id, queuedAt: { $exists: false } }, { $set: { queuedAt: new Date() } });
    },

    async claim(id, staleMs, set = {}) {
      const now = new Date();
      const token = randomUUID();
      const entry = await model
        .findOneAndUpdate(
          {
            _id: id,
            $or: [
              { status: "pending" },
              { status: "sending", sendingSince: { $lt: new Date(now.getTime() - staleMs) } },
            ],
          },
          { $set: { ...set, status: "sending", sendingSince: now, claimToken: token }, $inc: { attempts: 1 } },
          { returnDocument: "after" },
        )
        .lean<Doc>();
      return entry ? { entry, token } : null;
    },

    async markDone(id, set = {}) {
      await model.updateOne(
        { _id: id, status: { $ne: doneStatus } },
        {
          $set: { ...set, status: doneStatus, [doneAt]: new Date() },
          $unset: { lastError: "", claimToken: "", sendingSince: "" },
        },
      );
    },

    async release(id, token, { error, final, set = {}, unset = {} }) {
      const result = await model.updateOne(
        { _id: id, status: "sending", claimToken: token },
        {
          $set: {
            ...set,
            status: final ? "failed" : "pending",
            lastError: error.slice(0, errorMax),
            ...(final ? { failedAt: new Date() } : {}),
          },
          $unset: { ...unset, sendingSince: "", claimToken: "" },
        },
      );
      return result.modifiedCount === 1;
    },

    async listStranded({ idleMs, staleMs, limit = 100 }) {
      const now = Date.now();
      const docs = await model
        .find({
          $or: [
            { status: "pending", updatedAt: { $lt: new Date(now - idleMs) } },
            { status: "sending", sendingSince: { $lt: new Date(now - staleMs) } },
          ],
        })
        .sort({ updatedAt: 1 })
        .limit(limit)
        .select({ _id: 1 })
        .lean<{ _id: string }[]>();
      return docs.map((doc) => doc._id);
    },

    async backlog() {
      const waitingFilter = { status: { $in: ["pending", "sending"] } };
      const [waiting, oldest, failed] = await Promise.all([
        model.countDocuments(waitingFilter),
        model.findOne(waitingFilter).sort({ createdAt: 1 }).select({ createdAt: 1 }).lean<{ createdAt?: Date }>(),
        model.countDocuments({ status: "failed" }),
      ]);
      return { waiting, oldestAt: oldest?.createdAt ?? null, failed };
    },
  };
}
