import type { Agenda } from "agenda";
import nodemailer from "nodemailer";
import { claimForSending, listUnqueued, markSent, releaseAfterFailure } from "~/models/outbox.server";
import { getAgenda, OUTBOX_SWEEP_JOB, queueDelivery, RESET_REQUEST_JOB, SEND_EMAIL_JOB } from "./jobs.server";
import { sendPasswordResetLink } from "./password-reset.server";
import { sweepOrderMail } from "./order-mail-sweep.server";

/** A claimed message not sent within this time is taken again by another try. */
const CLAIM_STALE_MS = 5 * 60_000;

/** Retries forever, waiting 2 s, 4 s, 8 s … up to 10 minutes between tries: a down server delays mail. */
export function retryDelay(attempt: number) {
  return Math.min(2000 * 2 ** Math.max(0, attempt - 1), 10 * 60_000);
}

type Logger = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/**
 * Starts processing the mail jobs in this process: each outbox message is sent once through
 * `smtpUrl` (agenda locks a job to one worker, and the outbox claim keeps a second try from sending
 * it again), failures retry with backoff, and a sweep every minute writes the mail of order events
 * left without one (order-mail-sweep.server.ts) and queues messages left unqueued.
 */
export async function startMailWorker({
  smtpUrl,
  from,
  logger,
}: {
  smtpUrl: string;
  from: string;
  logger: Logger;
}): Promise<{ agenda: Agenda; stop: () => Promise<void> }> {
  const transport = nodemailer.createTransport(smtpUrl);
  const agenda = getAgenda();

  agenda.define<{ outboxId: string }>(
    SEND_EMAIL_JOB,
    async (job) => {
      const id = job.attrs.data.outboxId;
      const message = await claimForSending(id, CLAIM_STALE_MS);
      if (!message) return; // already sent, or another try has it in hand
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          headers: message.headers ?? {},
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await releaseAfterFailure(id, reason);
        logger.warn({ outboxId: id, attempt: message.attempts }, `mail not sent yet: ${reason}`);
        throw error;
      }
      await markSent(id);
    },
    { concurrency: 5, lockLifetime: 60_000, backoff: ({ attempt }) => retryDelay(attempt), removeOnComplete: true },
  );

  agenda.define<{ email: string }>(RESET_REQUEST_JOB, (job) => sendPasswordResetLink(job.attrs.data.email), {
    removeOnComplete: true,
  });

  agenda.define(OUTBOX_SWEEP_JOB, async () => {
    // Order mail first (what it writes is queued at once), then anything written but never queued.
    await sweepOrderMail().catch((error: unknown) => logger.warn({ err: error }, "order mail sweep failed"));
    for (const id of await listUnqueued(new Date(Date.now() - 60_000))) await queueDelivery(id);
  });

  await agenda.start();
  await agenda.every("1 minute", OUTBOX_SWEEP_JOB);
  logger.info(`Mail goes out through ${smtpUrl.replace(/\/\/[^@/]*@/, "//…@")}`);
  return { agenda, stop: () => agenda.stop() };
}
