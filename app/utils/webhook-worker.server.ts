import type { Agenda } from "agenda";
import mongoose from "mongoose";
import {
  claimDelivery,
  getEndpointForSending,
  listStrandedDeliveries,
  markDelivered,
  releaseDelivery,
} from "~/models/webhook.server";
import { DELIVER_WEBHOOK_JOB, JOBS_COLLECTION, queueWebhookDelivery } from "./jobs.server";
import { DeliveryError, sendDelivery } from "./webhook-send.server";
import { endpointUrlProblem } from "./webhooks.server";

type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** A receiver answers within this, or the attempt fails (and is retried). */
const RECEIVER_TIMEOUT_MS = 10_000;

/**
 * Defines the webhook delivery job on the worker's agenda (mail-worker.server.ts starts it): the
 * same claim, backoff and failed state as mail. A receiver must answer 2xx within 10 s (or a
 * quarter of the lock); anything else is retried, `maxAttempts` times in all.
 */
export async function defineWebhookJobs(
  agenda: Agenda,
  {
    logger,
    lockMs,
    staleMs,
    maxAttempts,
    allowLocalHttp,
    retryDelay,
  }: {
    logger: Logger;
    lockMs: number;
    staleMs: number;
    maxAttempts: number;
    allowLocalHttp: boolean;
    retryDelay: (attempt: number) => number;
  },
) {
  const timeoutMs = Math.min(RECEIVER_TIMEOUT_MS, Math.floor(lockMs / 4));
  await mongoose.connection.db
    ?.collection(JOBS_COLLECTION)
    .createIndex({ name: 1, "data.deliveryId": 1 })
    .catch(() => {});

  async function deliver(id: string) {
    const claim = await claimDelivery(id, staleMs);
    if (!claim) return;
    const { delivery, token } = claim;
    try {
      const endpoint = await getEndpointForSending(delivery.endpointId.toString());
      if (!endpoint) throw new DeliveryError("the endpoint was removed", null);
      const problem = endpointUrlProblem(endpoint.url, allowLocalHttp);
      if (problem) throw new DeliveryError(problem, null);
      const status = await sendDelivery(endpoint, delivery, { timeoutMs, allowLocalHttp });
      await markDelivered(id, status);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // The owner reads `reason`; the shop's log also gets what happened below HTTP.
      const cause = error instanceof DeliveryError && error.detail ? ` (${error.detail})` : "";
      const statusCode = error instanceof DeliveryError ? error.statusCode : null;
      const final = delivery.attempts >= maxAttempts || reason === "the endpoint was removed";
      await releaseDelivery(id, token, { error: reason, statusCode, final });
      if (final) {
        logger.error(
          { deliveryId: id, attempts: delivery.attempts },
          `webhook delivery failed for good: ${reason}${cause}`,
        );
        return;
      }
      logger.warn({ deliveryId: id, attempt: delivery.attempts }, `webhook not delivered yet: ${reason}${cause}`);
      throw error; // agenda tries again after retryDelay
    }
  }

  agenda.define<{ deliveryId: string }>(DELIVER_WEBHOOK_JOB, (job) => deliver(job.attrs.data.deliveryId), {
    concurrency: 5,
    lockLifetime: lockMs,
    backoff: ({ attempt }) => retryDelay(attempt),
    removeOnComplete: true,
  });
}

/** The outbox sweep's share: every delivery left without a live job gets one. */
export async function sweepWebhookDeliveries({ idleMs, staleMs }: { idleMs: number; staleMs: number }) {
  for (const id of await listStrandedDeliveries({ idleMs, staleMs })) await queueWebhookDelivery(id);
}
