/**
 * A credit note's card money back through Stripe, as a workflow: Stripe is asked (the change that
 * stands: its idempotency key is the credit note, so asking again answers with the same refund),
 * its answer recorded on the note, and the refund's event raised. What a failure leaves, the stock
 * sweep (a pending refund without Stripe's id) and the order event sweep finish.
 */
import { logFailure } from "~/services/log.server";
import type { CreditNoteView } from "~/domain/credit-notes";
import { recordRefund } from "~/orders/model/refunds.server";
import type { OrderView } from "~/orders/model/view.server";
import { defineWorkflow } from "~/services/workflow.server";
import { refundCreditNote } from "./card-payments.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import { EVENT_SWEEP, STOCK_SWEEP, type Seam } from "./workflow-parts.server";

type Refunding = {
  order: OrderView;
  note: CreditNoteView;
  refund: Awaited<ReturnType<typeof refundCreditNote>> | null;
};

/** Stripe is asked once per credit note (its idempotency key): asked again, it answers with the same refund. */
const REFUND = defineWorkflow<Refunding, never>("refund-credit-note", [
  {
    name: "ask-stripe",
    run: async (r) => {
      r.refund = await refundCreditNote(r.order, r.note);
      return r.refund;
    },
    commits: true,
  },
  {
    // Left pending without Stripe's id: the sweep asks Stripe again with the same key, and records it.
    name: "record-refund",
    finishedBy: STOCK_SWEEP,
    run: async (r) => {
      r.order = (await recordRefund(r.order.id, r.note.id, r.refund!)) ?? r.order;
    },
  },
  postStep<Refunding>((r) => r.order.id),
  {
    name: "raise-refunded-event",
    finishedBy: EVENT_SWEEP,
    run: async (r) => {
      if (r.refund!.status === "succeeded")
        await raiseOrderEvent({ type: "refunded", order: r.order, creditNoteId: r.note.id });
    },
  },
]);

export const REFUND_STEPS = REFUND.stepNames;

/** Sends a credit note's card money back through Stripe, and records Stripe's answer. Never throws. */
export async function refundToCard(order: OrderView, note: CreditNoteView, options: Seam = {}): Promise<OrderView> {
  if (!note.refundCents || note.refund?.id) return order;
  const refunding: Refunding = { order, note, refund: null };
  try {
    await REFUND.run(refunding, options);
    return refunding.order;
  } catch (error) {
    // Left pending without an id: the sweep asks Stripe again with the same idempotency key.
    logFailure(`The refund of credit note ${note.number} (${order.number}) could not be made now`, error);
    return order;
  }
}
