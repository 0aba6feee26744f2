import { createHash } from "node:crypto";
import type { Agenda, Job } from "agenda";
import nodemailer from "nodemailer";
import { logFailure } from "../../server/request-context";
import { audit } from "./audit-trail.server";
import {
  claimStaleMs,
  defineDeliveryJob,
  MAIL_DELIVERIES,
  sweepDeliveries,
  WEBHOOK_DELIVERIES,
} from "./delivery-jobs.server";
import { getAgenda, OUTBOX_SWEEP_JOB, RESET_REQUEST_JOB } from "./jobs.server";
import { sendPasswordResetLink } from "./password-reset.server";
import { getEnv } from "./env.server";
import { defineWebhookJobs } from "./webhook-worker.server";

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
 * sends it again). A sweep every `sweepMs` runs `writeLeftMail` first (the order module's sweep of
 * events left without their mail, registered by app/runtime.server.ts) and gives a job to every
 * message left without a live one.
 */
export async function startMailWorker({
  smtpUrl,
  from,
  logger,
  lockMs,
  sweepMs,
  maxAttempts,
  writeLeftMail = async () => {},
}: {
  smtpUrl: string;
  from: string;
  logger: Logger;
  lockMs: number;
  sweepMs: number;
  maxAttempts: number;
  /** Writes the mail and deliveries that changes left unwritten (a crash between the change and its outbox). */
  writeLeftMail?: () => Promise<unknown>;
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
  const sending = await defineDeliveryJob(agenda, MAIL_DELIVERIES, {
    logger,
    lockMs,
    maxAttempts,
    // The same Message-ID on every attempt: a second delivery is recognisable as the same message.
    claimSet: (id) => ({ messageId: messageIdFor(id, from) }),
    send: async (message) => {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers ?? {},
        messageId: message.messageId,
      });
    },
    onFailed: async (message, reason) => {
      await audit({
        action: "mail.failed",
        target: { type: "mail", id: message._id, label: `${message.subject} → ${message.to}` },
        after: { attempts: message.attempts, error: reason.slice(0, 200) },
      });
    },
  });

  agenda.define<{ email: string }>(RESET_REQUEST_JOB, (job) => sendPasswordResetLink(job.attrs.data.email), {
    removeOnComplete: true,
  });

  // Webhook deliveries: an outbox of the same design, sent by the same worker (webhook-worker.server.ts).
  const env = getEnv();
  const delivering = await defineWebhookJobs(agenda, {
    logger,
    lockMs,
    maxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    allowLocalHttp: env.WEBHOOKS_ALLOW_LOCAL_HTTP,
  });

  agenda.define(OUTBOX_SWEEP_JOB, async () => {
    // Order events first (what they write is queued at once), then every message and delivery left without a live job.
    // A part that fails is one line, and the next sweep does it again.
    const again = `the outbox sweep runs again in ${sweepMs / 1000} s`;
    await writeLeftMail().catch((error: unknown) => logFailure(`Order event sweep failed; ${again}`, error));
    await sweepDeliveries(MAIL_DELIVERIES, { idleMs: sweepMs, staleMs }).catch((error: unknown) =>
      logFailure(`Mail sweep failed; ${again}`, error),
    );
    await sweepDeliveries(WEBHOOK_DELIVERIES, { idleMs: sweepMs, staleMs }).catch((error: unknown) =>
      logFailure(`Webhook delivery sweep failed; ${again}`, error),
    );
  });

  // Every other job that fails (the stock sweep and check, a reset request) is one line saying
  // whether it runs again; the deliveries say so themselves (delivery-jobs.server.ts).
  agenda.on("fail", (error: unknown, job: Job) => {
    const { name, repeatInterval } = job.attrs;
    if (name === MAIL_DELIVERIES.job || name === WEBHOOK_DELIVERIES.job) return;
    const every = typeof repeatInterval === "number" ? `${repeatInterval / 1000} s` : repeatInterval;
    const next = every ? `it runs again (every ${every})` : "it is not run again";
    logFailure(`Job ${name} failed; ${next}`, error, { job: name });
  });

  await agenda.start();
  await agenda.every(sweepMs, OUTBOX_SWEEP_JOB);
  logger.info(`Mail goes out through ${smtpUrl.replace(/\/\/[^@/]*@/, "//…@")}`);
  return {
    agenda,
    async stop(timeoutMs = lockMs) {
      // No new jobs; those fetched but not started are unlocked for another process at once.
      await agenda.stop(false);
      const all = Promise.allSettled([...sending, ...delivering]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      transport.close();
    },
  };
}
