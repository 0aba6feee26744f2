/**
 * What /metrics shows of the shop's queues, holds and stock, read from the database when Prometheus
 * scrapes (server/metrics.ts bounds the read with a deadline and keeps the answer a few seconds).
 * Times are epoch milliseconds; null when nothing waits.
 */
import { getLatestStockCheck } from "~/orders/model/stock-check.server";
import { outboxQueue } from "~/models/outbox.server";
import { webhookQueue } from "~/models/webhook.server";
import { backorderBacklog } from "~/orders/model/backorders.server";
import { countHolds } from "~/orders/model/holds.server";
import { jobBacklog } from "~/services/jobs.server";

export { pdfQueue } from "~/services/pdf.server";

/** A hold "ends soon" within this (the hold reminder goes out a day before; this is the last hour). */
export const HOLD_ENDING_SOON_MS = 60 * 60 * 1000;

type Backlog = { waiting: number; oldestAt: number | null; failed: number };

export type ShopGauges = {
  queues: { mail: Backlog; webhooks: Backlog; jobs: Backlog };
  holds: { active: number; endingSoon: number; overdue: number };
  backorders: { orders: number; oldestAt: number | null };
  stockCheck: { at: number; parts: number; problems: number } | null;
};

const epoch = (date: Date | null | undefined) => (date ? date.getTime() : null);

export async function readShopGauges(now = new Date()): Promise<ShopGauges> {
  const [mail, webhooks, jobs, holds, backorders, stockCheck] = await Promise.all([
    outboxQueue.backlog(),
    webhookQueue.backlog(),
    jobBacklog(now),
    countHolds({ soonMs: HOLD_ENDING_SOON_MS, now }),
    backorderBacklog(),
    getLatestStockCheck(),
  ]);
  return {
    queues: {
      mail: { ...mail, oldestAt: epoch(mail.oldestAt) },
      webhooks: { ...webhooks, oldestAt: epoch(webhooks.oldestAt) },
      // A job that fails is agenda's to retry; the deliveries it sends count their own failures.
      jobs: { waiting: jobs.waiting, oldestAt: epoch(jobs.oldestAt), failed: 0 },
    },
    holds,
    backorders: { orders: backorders.orders, oldestAt: epoch(backorders.oldestAt) },
    stockCheck: stockCheck
      ? { at: Date.parse(stockCheck.at), parts: stockCheck.parts, problems: stockCheck.problemCount }
      : null,
  };
}
