import { MongoBackend } from "@agendajs/mongo-backend";
import { Agenda } from "agenda";
import mongoose from "mongoose";
import { markQueued } from "~/models/outbox.server";
import { markDeliveryQueued } from "~/models/webhook.server";
import { getEnv } from "./env.server";

/** The job that sends one outbox message (defined in mail-worker.server.ts). */
export const SEND_EMAIL_JOB = "send-email";
/**
 * The recurring job (every MAIL_SWEEP_MS) that writes the mail of order events left without one and gives
 * a job to any outbox message written without one.
 */
export const OUTBOX_SWEEP_JOB = "outbox-sweep";
export const JOBS_COLLECTION = "jobs";
/** The job that makes one webhook delivery (defined in webhook-worker.server.ts). */
export const DELIVER_WEBHOOK_JOB = "deliver-webhook";
/**
 * A forgot-password request, handled after the answer (password-reset.server.ts): the answer
 * writes this job whether or not the account exists, so it takes the same time either way.
 */
export const RESET_REQUEST_JOB = "password-reset-request";

let agenda: Agenda | undefined;

/**
 * agenda on the shop's own MongoDB connection (its jobs in the `jobs` collection). Every process
 * that queues jobs has one; only the server's worker (`startMailWorker`) also processes them.
 */
export function getAgenda() {
  if (agenda) return agenda;
  const db = mongoose.connection.db;
  if (!db) throw new Error("the database is not connected");
  const env = getEnv();
  agenda = new Agenda({
    backend: new MongoBackend({ mongo: db, collection: JOBS_COLLECTION }),
    processEvery: env.JOBS_POLL_MS,
    defaultLockLifetime: env.MAIL_LOCK_MS,
  });
  return agenda;
}

/**
 * Creates the delivery job of an outbox message, unless it has one (waiting, retrying or held by a
 * process that died: agenda runs that one again once its lock expires). If this fails (or the
 * process stops first), the message stays in the outbox and the sweep queues it: mail is delayed,
 * never lost, and the step that caused it does not fail.
 */
export async function queueDelivery(outboxId: string) {
  try {
    await getAgenda()
      .create(SEND_EMAIL_JOB, { outboxId })
      .unique({ "data.outboxId": outboxId }, { insertOnly: true })
      .save();
    await markQueued(outboxId);
  } catch (error) {
    console.error(`Queueing mail ${outboxId} failed; the outbox sweep will queue it:`, error);
  }
}

/** The delivery job of a webhook delivery, unless it has one; if this fails, the outbox sweep queues it. */
export async function queueWebhookDelivery(deliveryId: string) {
  try {
    await getAgenda()
      .create(DELIVER_WEBHOOK_JOB, { deliveryId })
      .unique({ "data.deliveryId": deliveryId }, { insertOnly: true })
      .save();
    await markDeliveryQueued(deliveryId);
  } catch (error) {
    console.error(`Queueing webhook delivery ${deliveryId} failed; the outbox sweep will queue it:`, error);
  }
}
