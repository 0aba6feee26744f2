import { lookup } from "node:dns/promises";
import type { Agenda } from "agenda";
import ipaddr from "ipaddr.js";
import mongoose from "mongoose";
import {
  claimDelivery,
  getEndpointForSending,
  listStrandedDeliveries,
  markDelivered,
  releaseDelivery,
} from "~/models/webhook.server";
import { DELIVER_WEBHOOK_JOB, JOBS_COLLECTION, queueWebhookDelivery } from "./jobs.server";
import {
  endpointUrlProblem,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
} from "./webhooks.server";

type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** A receiver answers within this, or the attempt fails (and is retried). */
const RECEIVER_TIMEOUT_MS = 10_000;

class DeliveryError extends Error {
  constructor(
    message: string,
    readonly statusCode: number | null,
  ) {
    super(message);
  }
}

/** The name must lead to a public address when sent (it may have changed since it was registered). */
async function checkAddress(url: URL, allowLocalHttp: boolean) {
  if (allowLocalHttp && url.protocol === "http:" && url.hostname === "127.0.0.1") return;
  const addresses = await lookup(url.hostname, { all: true }).catch(() => {
    throw new DeliveryError(`${url.hostname} does not resolve`, null);
  });
  for (const { address } of addresses) {
    const range = ipaddr.process(address).range();
    if (range !== "unicast") throw new DeliveryError(`${url.hostname} leads to a ${range} address`, null);
  }
}

async function post(
  endpoint: { url: string; secret: string },
  delivery: { body: string; eventId: string; type: string; attempts: number },
  timeoutMs: number,
) {
  const response = await fetch(endpoint.url, {
    method: "POST",
    // A redirect is an answer, not a place to follow a signed body to.
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "PartsWorks-Webhooks/1",
      [SIGNATURE_HEADER]: signatureHeader(endpoint.secret, delivery.body),
      [EVENT_ID_HEADER]: delivery.eventId,
      [EVENT_TYPE_HEADER]: delivery.type,
      "PartsWorks-Delivery-Attempt": String(delivery.attempts),
    },
    body: delivery.body,
  }).catch((error: unknown) => {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new DeliveryError(`not reached: ${cause}`, null);
  });
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status > 299) {
    throw new DeliveryError(`answered ${response.status}`, response.status);
  }
  return response.status;
}

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
      await checkAddress(new URL(endpoint.url), allowLocalHttp);
      const status = await post(endpoint, delivery, timeoutMs);
      await markDelivered(id, status);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const statusCode = error instanceof DeliveryError ? error.statusCode : null;
      const final = delivery.attempts >= maxAttempts || reason === "the endpoint was removed";
      await releaseDelivery(id, token, { error: reason, statusCode, final });
      if (final) {
        logger.error({ deliveryId: id, attempts: delivery.attempts }, `webhook delivery failed for good: ${reason}`);
        return;
      }
      logger.warn({ deliveryId: id, attempt: delivery.attempts }, `webhook not delivered yet: ${reason}`);
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
