import type { Agenda } from "agenda";
import {
  extendHold as extendHoldOfOrder,
  listHoldsEnded,
  noteHoldReminders,
  settleLeftStock,
  settleStaleCartClaims,
  expireHeldOrder,
} from "~/orders/model/holds.server";
import { markEventRaised } from "~/orders/model/events.server";
import { finishLeftReserving } from "./checkout.server";
import { checkStock, saveStockCheck } from "~/orders/model/stock-check.server";
import { audit } from "~/services/audit-trail.server";
import { getEnv } from "~/services/env.server";
import { mailHoldEnding } from "./mail.server";
import { raiseOrderEvent } from "./events.server";
import { mailApprovalExpired } from "./approvals.server";
import { settleLeftShipments } from "./model/shipments.server";
import { settleLeftReturns } from "./model/returns.server";
import { sweepCreditsLeft } from "./credit-notes.server";
import { numberInvoicesLeft } from "./model/invoice.server";
import { sweepCreditClaims } from "./credit-apply.server";
import { postLedgerLeft } from "./ledger.server";
import { startQuoteJobs } from "./quote-jobs.server";
import { allocateArrivedStock, allocateLeftBackorders, ordersAllocated } from "./warehouse.server";

/**
 * The stock's own jobs (agenda, on every instance that runs the mail worker). Each step is made of
 * conditional updates that apply once, so several instances running them at once, or a run
 * repeated after a crash, change nothing twice.
 * - stock-sweep (every STOCK_SWEEP_SECONDS): finishes or undoes orders a crash left reserving,
 *   settles holds left pending, reminds customers whose hold ends soon, and ends unpaid orders
 *   whose hold ran out ("expired unpaid").
 * - stock-check (every 10 minutes): the stock check, whose result Shop Today shows.
 */
export const STOCK_SWEEP_JOB = "stock-sweep";
export const STOCK_CHECK_JOB = "stock-check";
const HOUR_MS = 60 * 60 * 1000;

type Logger = { info: (msg: string) => void; warn: (obj: object, msg: string) => void };

/**
 * Ends one order whose hold ran out, unpaid or still waiting for approval: stock back once, its
 * event (the buyer's mail, webhooks), the owners' mail when it waited for them, audit. False when it
 * was paid, decided, ended or extended meanwhile.
 */
export async function expireOrder(orderId: string, now = new Date()) {
  const order = await expireHeldOrder(orderId, now);
  if (!order) return false;
  const waited = Boolean(order.approval && !order.approval.outcome);
  await raiseOrderEvent({ type: "orderExpired", order });
  await allocateArrivedStock(order.lines.map((line) => line.partId));
  if (waited) await mailApprovalExpired(order);
  await audit({
    action: "order.expire",
    ip: "job",
    target: { type: "order", id: order.id, label: `${order.summary} for ${order.userEmail}` },
    before: { status: waited ? "approval" : "unpaid" },
    after: { status: "expired" },
  });
  return true;
}

/** One pass of the sweep; returns what it did (the tests read it). */
export async function sweepStock(now = new Date()) {
  const env = getEnv();
  const reserveMs = env.STOCK_RESERVE_DEADLINE_SECONDS * 1000;
  const reserving = await finishLeftReserving({ now });
  const settled =
    (await settleLeftShipments({ graceMs: reserveMs })) +
    (await settleLeftStock({ graceMs: reserveMs })) +
    (await settleStaleCartClaims({ before: new Date(now.getTime() - reserveMs) }));
  let reminded = 0;
  if (env.ORDER_HOLD_REMINDER_HOURS > 0) {
    for (const order of await noteHoldReminders({ withinMs: env.ORDER_HOLD_REMINDER_HOURS * HOUR_MS, now })) {
      if (await mailHoldEnding(order)) await markEventRaised(order.id, "reminder");
      reminded++;
    }
  }
  let expired = 0;
  for (const id of await listHoldsEnded({ now })) if (await expireOrder(id, now)) expired++;
  // Units of a return received back to stock that a crash left off the shelf: restocked now.
  const restocked = await settleLeftReturns({ graceMs: reserveMs });
  // Stock and backorders on the same part (an allocation a crash or a failed write left): allocated now.
  const allocated = ordersAllocated([
    ...(restocked.length ? await allocateArrivedStock(restocked) : []),
    ...(await allocateLeftBackorders()),
  ]);
  // Credit notes a crash left unissued (a return received, a paid order cancelled), refunds never sent.
  const credited = await sweepCreditsLeft({ graceMs: reserveMs });
  // Invoiced orders a crash left without their number: numbered now, in the order they were invoiced.
  const invoiced = await numberInvoicesLeft({ graceMs: reserveMs });
  // Claims on a credit note's credit that a crash left untaken: given back to the note.
  const creditGivenBack = await sweepCreditClaims({ graceMs: reserveMs });
  // Money events of the orders changed since the last pass, posted to the ledger (the first pass posts every order's).
  const posted = await postLedgerLeft();
  return { ...reserving, settled, reminded, expired, allocated, credited, invoiced, creditGivenBack, posted };
}

/** Runs the stock check and keeps its result for Shop Today. */
export async function runStockCheck() {
  const result = await checkStock({ settleMs: getEnv().STOCK_RESERVE_DEADLINE_SECONDS * 1000 });
  await saveStockCheck(result);
  return result;
}

/** An admin holds an unpaid order's stock longer; audited. */
export async function extendHold(
  orderId: string,
  days: number,
  admin: { id: string; email: string },
  context?: { clientIp?: string },
) {
  const extended = await extendHoldOfOrder(orderId, days);
  if (!extended) return null;
  await audit({
    action: "order.extend-hold",
    context,
    actor: admin,
    target: { type: "order", id: orderId, label: `${extended.order.summary} for ${extended.order.userEmail}` },
    before: { holdUntil: extended.before },
    after: { holdUntil: extended.order.holdUntil },
  });
  return extended.order;
}

export async function startStockJobs(agenda: Agenda, logger: Logger) {
  const env = getEnv();
  agenda.define(
    STOCK_SWEEP_JOB,
    async () => {
      const done = await sweepStock();
      if (done.confirmed || done.released || done.settled || done.expired || done.invoiced) {
        logger.info(
          `stock sweep: ${done.confirmed} orders completed, ${done.released} given back, ${done.settled} settled, ${done.expired} expired, ${done.invoiced} invoices numbered`,
        );
      }
    },
    // A run a killed process held is taken over soon: every step is safe to run twice.
    { lockLifetime: 10_000 },
  );
  agenda.define(STOCK_CHECK_JOB, async () => {
    const result = await runStockCheck();
    if (result.problems.length)
      logger.warn({ problems: result.problems.slice(0, 10) }, "stock check found differences");
  });
  await agenda.every(`${env.STOCK_SWEEP_SECONDS} seconds`, STOCK_SWEEP_JOB);
  await agenda.every("10 minutes", STOCK_CHECK_JOB);
  await startQuoteJobs(agenda, logger);
}
