import { MongoBackend } from "@agendajs/mongo-backend";
import { Agenda } from "agenda";
import mongoose from "mongoose";
import { getEnv } from "./env.server";

/** The job that sends one outbox message (delivery-jobs.server.ts, defined by mail-worker.server.ts). */
export const SEND_EMAIL_JOB = "send-email";
/**
 * The recurring job (every MAIL_SWEEP_MS) that writes the mail of order events left without one and gives
 * a job to any outbox message written without one.
 */
export const OUTBOX_SWEEP_JOB = "outbox-sweep";
export const JOBS_COLLECTION = "jobs";
/** The job that makes one webhook delivery (delivery-jobs.server.ts, defined by webhook-worker.server.ts). */
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
 * Jobs due and not taken by a worker (/metrics), and since when the longest due of them waits: a
 * backlog that grows means the workers are stopped or too few.
 */
export async function jobBacklog(now = new Date()) {
  const db = mongoose.connection.db;
  if (!db) throw new Error("the database is not connected");
  const jobs = db.collection<{ nextRunAt?: Date | null }>(JOBS_COLLECTION);
  const due = { disabled: { $ne: true }, lockedAt: null, nextRunAt: { $lte: now } };
  const [waiting, oldest] = await Promise.all([
    jobs.countDocuments(due),
    jobs.findOne(due, { sort: { nextRunAt: 1 }, projection: { nextRunAt: 1 } }),
  ]);
  return { waiting, oldestAt: oldest?.nextRunAt ?? null };
}
