import type { Agenda } from "agenda";
import mongoose from "mongoose";
import type { DeliveryQueue, QueuedEntry } from "~/models/delivery-queue.server";
import { outboxQueue, type OutboxDoc } from "~/models/outbox.server";
import { webhookQueue, type DeliveryDoc } from "~/models/webhook.server";
import { DELIVER_WEBHOOK_JOB, getAgenda, JOBS_COLLECTION, SEND_EMAIL_JOB } from "./jobs.server";
import { logFailure } from "../../server/request-context";

/**
 * The shop's one delivery mechanism, as jobs (mail and webhook deliveries alike): an entry of an
 * outbox (models/delivery-queue.server.ts) gets one agenda job; the job claims the entry for one
 * attempt, sends it, and marks it done, or releases it to be tried again after a backoff, or marks
 * it failed after the last attempt. The outbox sweep gives a job to every entry left without one.
 */

/** Waits 2 s, 4 s, 8 s … up to 10 minutes between tries: a receiver that is down delays, never loses. */
export function retryDelay(attempt: number) {
  return Math.min(2000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000);
}

/**
 * How long a claim holds: a little less than agenda's lock, so that the job agenda runs again
 * once the lock has expired (its process died or stalled) finds the entry free to take.
 */
export function claimStaleMs(lockMs: number) {
  return lockMs - Math.min(5000, Math.floor(lockMs / 10));
}

/** One kind of delivery: its agenda job, the job's data field with the entry's id, its outbox. */
export type DeliveryKind<Doc extends QueuedEntry> = {
  job: string;
  idField: string;
  queue: DeliveryQueue<Doc>;
  /** For the log: "mail", "webhook delivery". */
  label: string;
};

/** Mail: one outbox message, sent through SMTP (mail-worker.server.ts). */
export const MAIL_DELIVERIES: DeliveryKind<OutboxDoc> = {
  job: SEND_EMAIL_JOB,
  idField: "outboxId",
  queue: outboxQueue,
  label: "mail",
};

/** One webhook delivery to one endpoint (webhook-worker.server.ts). */
export const WEBHOOK_DELIVERIES: DeliveryKind<DeliveryDoc> = {
  job: DELIVER_WEBHOOK_JOB,
  idField: "deliveryId",
  queue: webhookQueue,
  label: "webhook delivery",
};

type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/**
 * Creates the delivery job of an entry, unless it has one (waiting, retrying or held by a process
 * that died: agenda runs that one again once its lock expires). If this fails (or the process stops
 * first), the entry stays in its outbox and the sweep queues it: delayed, never lost, and the step
 * that caused it does not fail.
 */
export async function queueDeliveryJob<Doc extends QueuedEntry>(kind: DeliveryKind<Doc>, id: string) {
  try {
    await getAgenda()
      .create(kind.job, { [kind.idField]: id })
      .unique({ [`data.${kind.idField}`]: id }, { insertOnly: true })
      .save();
    await kind.queue.markQueued(id);
  } catch (error) {
    logFailure(`Queueing ${kind.label} ${id} failed; the outbox sweep will queue it`, error, { [kind.idField]: id });
  }
}

export const queueMail = (outboxId: string) => queueDeliveryJob(MAIL_DELIVERIES, outboxId);
export const queueWebhookDelivery = (deliveryId: string) => queueDeliveryJob(WEBHOOK_DELIVERIES, deliveryId);

/** A failed attempt already logged, thrown for agenda to try the delivery again after its backoff. */
class TriedAgainLater extends Error {}

/** What a failed attempt adds to the entry, and whether it is the last whatever the count. */
export type FailureNote = {
  set?: Record<string, unknown>;
  unset?: Record<string, "">;
  final?: boolean;
  detail?: string;
};

/**
 * Defines the job of one kind of delivery on the worker's agenda. `send` makes one attempt and
 * returns what to record with "done"; a throw is a failed attempt (`noteFailure` says what to keep
 * of it). After `maxAttempts` the entry is failed for good and `onFailed` runs (the audit log, say).
 * Returns the attempts in flight, for a shutdown to wait on.
 */
export async function defineDeliveryJob<Doc extends QueuedEntry>(
  agenda: Agenda,
  kind: DeliveryKind<Doc>,
  options: {
    logger: Logger;
    lockMs: number;
    maxAttempts: number;
    concurrency?: number;
    claimSet?: (id: string) => Record<string, unknown>;
    send: (entry: Doc) => Promise<Record<string, unknown> | void>;
    noteFailure?: (error: unknown) => FailureNote;
    onFailed?: (entry: Doc, reason: string) => Promise<void>;
  },
) {
  const { logger, lockMs, maxAttempts } = options;
  const staleMs = claimStaleMs(lockMs);
  const inFlight = new Set<Promise<unknown>>();
  await mongoose.connection.db
    ?.collection(JOBS_COLLECTION)
    .createIndex({ name: 1, [`data.${kind.idField}`]: 1 })
    .catch(() => {});

  async function attempt(id: string) {
    const claimed = await kind.queue.claim(id, staleMs, options.claimSet?.(id));
    if (!claimed) return; // done or failed, or another attempt has it in hand (the sweep watches it)
    const { entry, token } = claimed;
    let done: Record<string, unknown> | void;
    try {
      done = await options.send(entry);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const note = options.noteFailure?.(error) ?? {};
      const final = entry.attempts >= maxAttempts || Boolean(note.final);
      await kind.queue.release(id, token, { error: reason, final, set: note.set, unset: note.unset });
      const where = { [kind.idField]: id, attempts: entry.attempts };
      if (!final) {
        logger.warn(where, `${kind.label} not made yet: ${reason}${note.detail ?? ""}`);
        throw new TriedAgainLater(reason, { cause: error }); // agenda tries again after retryDelay
      }
      logger.error(where, `${kind.label} failed for good: ${reason}${note.detail ?? ""}`);
      await options.onFailed?.(entry, reason);
      return;
    }
    await kind.queue.markDone(id, done ?? {});
  }

  agenda.define<Record<string, string>>(
    kind.job,
    async (job) => {
      const id = job.attrs.data[kind.idField];
      const running = attempt(id);
      inFlight.add(running);
      try {
        await running;
      } catch (error) {
        // The database failed the claim or the record of the outcome: one line, and agenda tries again.
        if (!(error instanceof TriedAgainLater))
          logFailure(`${kind.label} ${id} not made yet; agenda tries it again`, error, { [kind.idField]: id });
        throw error;
      } finally {
        inFlight.delete(running);
      }
    },
    {
      concurrency: options.concurrency ?? 5,
      lockLifetime: lockMs,
      backoff: ({ attempt }) => retryDelay(attempt),
      removeOnComplete: true,
    },
  );
  return inFlight;
}

/** The sweep's share for one kind: every entry left without a live job gets one. */
export async function sweepDeliveries<Doc extends QueuedEntry>(
  kind: DeliveryKind<Doc>,
  { idleMs, staleMs }: { idleMs: number; staleMs: number },
) {
  for (const id of await kind.queue.listStranded({ idleMs, staleMs })) await queueDeliveryJob(kind, id);
}
