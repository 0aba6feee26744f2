/**
 * What a card payment does to an order: Stripe's evidence marks it paid (once), money that cannot go to
 * it is given back, a credit note's card money is refunded, and Stripe's refund news is recorded. The
 * provider itself (client, intents, sessions, signatures) is app/services/stripe.server.ts.
 */
import { appLogger } from "~/services/log.server";
import type Stripe from "stripe";
import type { CreditNoteView } from "~/domain/credit-notes";
import {
  createCreditRefund,
  evidenceFromEvent,
  evidenceOnReturn,
  refundCharge,
  refundsReported,
  type CardEvidence,
} from "~/services/stripe.server";
import {
  claimStripeEvent,
  markOrderPaid,
  markStripeEventApplied,
  releaseStripeEvent,
  type MarkPaidOutcome,
} from "./model/card-payment.server";
import { applyRefundStatus } from "./model/refunds.server";
import type { OrderView } from "./model/view.server";
import { raiseOrderEvent } from "./events.server";
import { postToLedger } from "./ledger.server";

/**
 * Applies Stripe's evidence to the order. Money that cannot go to an unpaid order of the same amount
 * (a second payment, a cancelled order, a wrong amount) is refunded instead of kept.
 */
export async function applyPaymentEvidence(evidence: CardEvidence): Promise<MarkPaidOutcome> {
  const { outcome, paidEvent } = await markOrderPaid(evidence);
  // The paid event (mail, webhooks), also when a repeat finds it still pending after a crash.
  if (paidEvent) await raiseOrderEvent({ type: "orderPaid", order: paidEvent });
  if (paidEvent) await postToLedger(paidEvent);
  if (outcome === "paid_by_other" || outcome === "not_payable" || outcome === "mismatch") {
    appLogger().warn(
      `Stripe payment ${evidence.transactionId} for order ${evidence.orderId}: ${outcome}; refunding it`,
    );
    await refundCharge(evidence, outcome === "paid_by_other");
  }
  return outcome;
}

/** Refunds a credit note's card money through Stripe (once per credit note); returns the refund's id and status. */
export async function refundCreditNote(order: OrderView, note: CreditNoteView) {
  if (!order.transactionId) throw new Error(`Order ${order.number} has no card payment to refund`);
  return createCreditRefund({
    paymentIntentId: order.transactionId,
    amountCents: note.refundCents,
    orderId: order.id,
    creditNoteId: note.id,
    creditNote: note.number,
  });
}

/** A refund event: each refund of ours takes the status Stripe reports (once: a repeat changes nothing). */
async function applyRefundEvent(refunds: NonNullable<ReturnType<typeof refundsReported>>) {
  let applied = false;
  for (const refund of refunds) {
    const result = await applyRefundStatus(refund);
    if (!result) continue;
    applied = true;
    // A refund that failed leaves its money owed by bank: the ledger says so at once.
    if (result.changed) await postToLedger(result.order);
    if (result.changed && result.note.refund?.status === "succeeded")
      await raiseOrderEvent({ type: "refunded", order: result.order, creditNoteId: result.note.id });
  }
  return applied ? ("refund_recorded" as const) : ("ignored" as const);
}

export type WebhookResult = MarkPaidOutcome | "ignored" | "already_processed" | "refund_recorded";

/**
 * Applies a verified webhook event once: its id is recorded, and marked applied after the change, so
 * a repeated delivery of an applied event changes nothing. A delivery whose handler died in between
 * (a crash) is applied again by Stripe's retry: applying is idempotent (the paid update is conditional,
 * refunds carry their keys). If applying fails, the record is released and the error goes up (Stripe retries).
 */
export async function handleStripeEvent(event: Stripe.Event): Promise<WebhookResult> {
  const refunds = refundsReported(event);
  const evidence = refunds ? null : evidenceFromEvent(event);
  if (!refunds && !evidence) return "ignored";
  if (!(await claimStripeEvent(event.id, event.type))) return "already_processed";
  try {
    const result = refunds ? await applyRefundEvent(refunds) : await applyPaymentEvidence(evidence!);
    await markStripeEventApplied(event.id);
    return result;
  } catch (error) {
    await releaseStripeEvent(event.id).catch(() => {});
    throw error;
  }
}

export type ReturnCheck = { outcome: MarkPaidOutcome | "processing" | "not_paid" | "other_order" };

/**
 * The customer came back from Stripe: Stripe itself (never the query string) says whether the
 * PaymentIntent or Checkout Session for this order succeeded, and if so the order is marked paid.
 */
export async function confirmReturnFromStripe(
  orderId: string,
  ids: { paymentIntentId?: string; sessionId?: string },
): Promise<ReturnCheck> {
  const answer = await evidenceOnReturn(orderId, ids);
  return answer.outcome === "evidence" ? { outcome: await applyPaymentEvidence(answer.evidence) } : answer;
}
