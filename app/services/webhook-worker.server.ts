import type { Agenda } from "agenda";
import { getEndpointForSending } from "~/models/webhook.server";
import { defineDeliveryJob, WEBHOOK_DELIVERIES } from "./delivery-jobs.server";
import { DeliveryError, sendDelivery } from "./webhook-send.server";
import { endpointUrlProblem } from "./webhooks.server";

type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/** A receiver answers within this, or the attempt fails (and is retried). */
const RECEIVER_TIMEOUT_MS = 10_000;
const ENDPOINT_REMOVED = "the endpoint was removed";

/**
 * Defines the webhook delivery job on the worker's agenda (mail-worker.server.ts starts it), on the
 * shop's one delivery mechanism (delivery-jobs.server.ts): the same claim, backoff and failed state
 * as mail. A receiver must answer 2xx within 10 s (or a quarter of the lock); anything else is
 * retried, `maxAttempts` times in all; a removed endpoint fails at once.
 */
export function defineWebhookJobs(
  agenda: Agenda,
  {
    logger,
    lockMs,
    maxAttempts,
    allowLocalHttp,
  }: { logger: Logger; lockMs: number; maxAttempts: number; allowLocalHttp: boolean },
) {
  const timeoutMs = Math.min(RECEIVER_TIMEOUT_MS, Math.floor(lockMs / 4));
  return defineDeliveryJob(agenda, WEBHOOK_DELIVERIES, {
    logger,
    lockMs,
    maxAttempts,
    send: async (delivery) => {
      const endpoint = await getEndpointForSending(delivery.endpointId.toString());
      if (!endpoint) throw new DeliveryError(ENDPOINT_REMOVED, null);
      const problem = endpointUrlProblem(endpoint.url, allowLocalHttp);
      if (problem) throw new DeliveryError(problem, null);
      const statusCode = await sendDelivery(endpoint, delivery, { timeoutMs, allowLocalHttp });
      return { lastStatusCode: statusCode };
    },
    // The owner reads the reason; the shop's log also gets what happened below HTTP.
    noteFailure: (error) => {
      const statusCode = error instanceof DeliveryError ? error.statusCode : null;
      return {
        ...(statusCode ? { set: { lastStatusCode: statusCode } } : { unset: { lastStatusCode: "" as const } }),
        final: error instanceof Error && error.message === ENDPOINT_REMOVED,
        detail: error instanceof DeliveryError && error.detail ? ` (${error.detail})` : "",
      };
    },
  });
}
