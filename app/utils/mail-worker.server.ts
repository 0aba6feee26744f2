import { createHash } from "node:crypto";
import type { Agenda } from "agenda";
import mongoose from "mongoose";
import nodemailer from "nodemailer";
import { claimForSending, listStranded, markSent, releaseAfterFailure } from "~/models/outbox.server";
import { audit } from "./audit-trail.server";
import {
  getAgenda,
  JOBS_COLLECTION,
  OUTBOX_SWEEP_JOB,
  queueDelivery,
  RESET_REQUEST_JOB,
  SEND_EMAIL_JOB,
} from "./jobs.server";
import { sendPasswordResetLink } from "./password-reset.server";
import { getEnv } from "./env.server";
import { sweepOrderMail } from "~/orders/mail-sweep.server";
import { defineWebhookJobs, sweepWebhookDeliveries } from "./webhook-worker.server";

/** Waits 2 s, 4 s, 8 s … up to 10 minutes between tries: a down server delays mail. */
export function retryDelay(attempt: number) {
  return Math.min(2000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000);
}

/**
 * How long a claim holds: a little less than agenda's lock, so that the job agenda runs again
 * once the lock has expired (its process died or stalled) finds the message free to take.
 */
export function claimStaleMs(lockMs: number) {
  return lockMs - Math.min(5000, Math.floor(lockMs / 10));
}

/**
 * The Message-ID a message goes out with: the same on every attempt and every process, so a
 * second delivery (a stalled attempt that finished after another took over) is recognisable as
 * the same message by the receiving servers, and the outbox records which id was sent.
 */
export function messageIdFor(outboxId: string, from: string) {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? "partsworks.invalid";
  return `<${createHash("sha256").update(outboxId).digest("hex").slice(0, 32)}@${domain}>`;
}

type Logger = {
  info: (msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export type MailWorker = {
  agenda: Agenda;
  /** Takes no new jobs, waits for the mail being sent (up to `timeoutMs`), gives back the rest. */
  stop: (timeoutMs?: number) => Promise<void>;
};

/**
 * Starts processing the mail jobs in this process. Each outbox message is sent once through
 * `smtpUrl`: agenda locks a job to one worker for `lockMs`, the outbox claim (stale a little
 * before the lock expires) keeps a second attempt from sending it while the first one may, and an
 * attempt gives up on a silent SMTP server well before its lock expires. Failures retry with
 * backoff; after `maxAttempts` a message is marked failed (audit log and Shop Today, where an admin
 * sends it again). A sweep every `sweepMs` writes the mail of order events left without one
 * (orders/mail-sweep.server.ts) and gives a job to every message left without a live one.
 */
export async function startMailWorker({
  smtpUrl,
  from,
  logger,
  lockMs,
  sweepMs,
  maxAttempts,
}: {
  smtpUrl: string;
  from: string;
  logger: Logger;
  lockMs: number;
  sweepMs: number;
  maxAttempts: number;
}): Promise<MailWorker> {
  // Each phase of an SMTP conversation may be silent for at most a quarter of the lock, so a hung
  // server fails the attempt (and releases the claim) long before another process may take over.
  const phaseMs = Math.floor(lockMs / 4);
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: phaseMs,
    greetingTimeout: phaseMs,
    socketTimeout: phaseMs,
  });
  const staleMs = claimStaleMs(lockMs);
  const agenda = getAgenda();
  const sending = new Set<Promise<unknown>>();
  await mongoose.connection.db
    ?.collection(JOBS_COLLECTION)
    .createIndex({ name: 1, "data.outboxId": 1 })
    .catch(() => {});

  async function send(id: string) {
    const claim = await claimForSending(id, staleMs, messageIdFor(id, from));
    if (!claim) return; // already sent or failed, or another attempt has it in hand (the sweep watches it)
    const { message, token } = claim;
    try {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers ?? {},
        messageId: message.messageId,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const final = message.attempts >= maxAttempts;
      await releaseAfterFailure(id, token, reason, final);
      if (!final) {
        logger.warn({ outboxId: id, attempt: message.attempts }, `mail not sent yet: ${reason}`);
        throw error; // agenda tries again after retryDelay
      }
      logger.error({ outboxId: id, attempts: message.attempts }, `mail failed for good: ${reason}`);
      await audit({
        action: "mail.failed",
        target: { type: "mail", id, label: `${message.subject} → ${message.to}` },
        after: { attempts: message.attempts, error: reason.slice(0, 200) },
      });
      return;
    }
    await markSent(id);
  }

  agenda.define<{ outboxId: string }>(
    SEND_EMAIL_JOB,
    async (job) => {
      const running = send(job.attrs.data.outboxId);
      sending.add(running);
      try {
        await running;
      } finally {
        sending.delete(running);
      }
    },
    { concurrency: 5, lockLifetime: lockMs, backoff: ({ attempt }) => retryDelay(attempt), removeOnComplete: true },
  );

  agenda.define<{ email: string }>(RESET_REQUEST_JOB, (job) => sendPasswordResetLink(job.attrs.data.email), {
    removeOnComplete: true,
  });

  // Webhook deliveries: an outbox of the same design, sent by the same worker (webhook-worker.server.ts).
  const env = getEnv();
  await defineWebhookJobs(agenda, {
    logger,
    lockMs,
    staleMs,
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    allowLocalHttp: env.WEBHOOKS_ALLOW_LOCAL_HTTP,
    retryDelay,
  });

  agenda.define(OUTBOX_SWEEP_JOB, async () => {
    // Order events first (what they write is queued at once), then every message and delivery left without a live job.
    await sweepOrderMail().catch((error: unknown) => logger.warn({ err: error }, "order event sweep failed"));
    for (const id of await listStranded({ idleMs: sweepMs, staleMs })) await queueDelivery(id);
    await sweepWebhookDeliveries({ idleMs: sweepMs, staleMs }).catch((error: unknown) =>
      logger.warn({ err: error }, "webhook delivery sweep failed"),
    );
  });

  await agenda.start();
  await agenda.every(sweepMs, OUTBOX_SWEEP_JOB);
  logger.info(`Mail goes out through ${smtpUrl.replace(/\/\/[^@/]*@/, "//…@")}`);
  return {
    agenda,
    async stop(timeoutMs = lockMs) {
      // No new jobs; those fetched but not started are unlocked for another process at once.
      await agenda.stop(false);
      const all = Promise.allSettled([...sending]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      transport.close();
    },
  };
}
