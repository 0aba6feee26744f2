/**
 * The quote sweep (agenda, every STOCK_SWEEP_SECONDS beside the stock sweep): quotes past their
 * validity expire, buyers hear a few days before theirs runs out, staff hear of requests waiting
 * more than a working day, acceptances a crash left are finished or let go, and events still noted
 * are raised. Each step is a conditional update that applies once, so two instances change nothing twice.
 */
import type { Agenda } from "agenda";
import { audit } from "~/services/audit-trail.server";
import { EXPIRY_REMINDER_DAYS, STAFF_REMINDER_HOURS } from "~/domain/quotes";
import { parseOrderNumber } from "~/domain/order-number";
import { getEnv } from "~/services/env.server";
import { getOrderById } from "./model/reads.server";
import {
  claimExpiryReminder,
  expireQuote,
  listExpiringUnreminded,
  listLeftAccepting,
  listQuotesPastValidity,
  listQuotesWithPendingEvents,
  listWaitingUnreminded,
  markAccepted,
  markStaffReminded,
  releaseAcceptance,
} from "./model/quotes.server";
import { quoteTarget, raiseQuoteEvent } from "./quote-events.server";
import { mailExpiryReminder, mailQuotesWaiting } from "./quote-mail.server";

export const QUOTE_SWEEP_JOB = "quote-sweep";
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Statuses of an order that stands (placed, whatever happened to it since). */
const STANDING = new Set(["unpaid", "approval", "account", "paid", "shipped", "cancelled", "removed", "expired"]);

/** Ends one quote past its validity: its event (the buyer's mail, webhooks) and the audit log. */
export async function expireQuoteNow(id: string, now = new Date()) {
  const quote = await expireQuote(id, now);
  if (!quote) return false;
  await raiseQuoteEvent("expired", quote);
  await audit({ action: "quote.expire", ip: "job", target: quoteTarget(quote), after: { status: "expired" } });
  return true;
}

/**
 * An acceptance a crash left: its order stands (the quote is accepted and links it), or it was never
 * placed or was undone (the claim is let go). An order still reserving is the stock sweep's first.
 */
async function finishLeftAccepting(now: Date) {
  const graceMs = getEnv().STOCK_RESERVE_DEADLINE_SECONDS * 1000;
  let finished = 0;
  for (const quote of await listLeftAccepting(new Date(now.getTime() - graceMs))) {
    const claim = quote.accepting!;
    const order = await getOrderById(claim.orderId);
    if (order && STANDING.has(order.status)) {
      const accepted = await markAccepted(
        quote.id,
        { id: order.id, number: parseOrderNumber(order.number) },
        claim.version,
        now,
      );
      if (accepted) await raiseQuoteEvent("accepted", accepted);
      finished++;
    } else if (!order || order.status === "failed") {
      await releaseAcceptance(quote.id, claim.orderId);
      finished++;
    }
  }
  return finished;
}

/** One pass of the sweep; returns what it did (the tests read it). */
export async function sweepQuotes(now = new Date()) {
  const accepting = await finishLeftAccepting(now);
  let expired = 0;
  for (const id of await listQuotesPastValidity(now)) if (await expireQuoteNow(id, now)) expired++;
  let reminded = 0;
  for (const quote of await listExpiringUnreminded(EXPIRY_REMINDER_DAYS * DAY_MS, now)) {
    if (await claimExpiryReminder(quote.id, quote.versions.length)) {
      await mailExpiryReminder(quote);
      reminded++;
    }
  }
  const waiting = await listWaitingUnreminded(new Date(now.getTime() - STAFF_REMINDER_HOURS * HOUR_MS));
  if (waiting.length && (await mailQuotesWaiting(waiting, now)))
    await markStaffReminded(
      waiting.map((quote) => quote.id),
      now,
    );
  let raised = 0;
  for (const { quote, events } of await listQuotesWithPendingEvents({ graceMs: 60_000, limit: 100 }))
    for (const kind of events) if (await raiseQuoteEvent(kind, quote)) raised++;
  return { accepting, expired, reminded, staffReminded: waiting.length, raised };
}

export async function startQuoteJobs(agenda: Agenda, logger: { info: (msg: string) => void }) {
  agenda.define(
    QUOTE_SWEEP_JOB,
    async () => {
      const done = await sweepQuotes();
      if (done.expired || done.accepting || done.reminded)
        logger.info(
          `quote sweep: ${done.expired} expired, ${done.accepting} acceptances finished, ${done.reminded} reminded`,
        );
    },
    { lockLifetime: 10_000 },
  );
  await agenda.every(`${getEnv().STOCK_SWEEP_SECONDS} seconds`, QUOTE_SWEEP_JOB);
}
