/**
 * Waiting for mail to be over, instead of sleeping: every message reaches the catcher through the
 * outbox (app/models/outbox.server.ts), so once each outbox message to an address is sent and no
 * delivery job for one is left, nothing more can arrive for it, duplicates included.
 */
import { expect } from "vitest";
import mongoose from "mongoose";
import { Outbox } from "~/models/outbox.server";
import { JOBS_COLLECTION } from "~/services/jobs.server";
import { caughtMail, type CaughtMail } from "./mail";

async function settled(to: string) {
  const messages = await Outbox.find({ to: new RegExp(`^${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "i") })
    .select({ status: 1 })
    .lean();
  if (messages.some((message) => message.status !== "sent")) return false;
  const ids = messages.map((message) => message._id);
  const jobsLeft = await mongoose.connection.collection(JOBS_COLLECTION).countDocuments({
    "data.outboxId": { $in: ids },
    $or: [{ nextRunAt: { $ne: null } }, { lockedAt: { $ne: null } }],
  });
  return jobsLeft === 0;
}

/** Every message to `to` the catcher has, once all mail to that address is sent and none is on its way. */
export async function settledMailTo(to: string, { timeoutMs = 20_000 } = {}): Promise<CaughtMail[]> {
  await expect.poll(() => settled(to), { timeout: timeoutMs, interval: 100 }).toBe(true);
  return (await caughtMail()).filter((mail) => mail.to.includes(to.toLowerCase()));
}
