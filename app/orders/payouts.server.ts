/**
 * Staff pay out a credit note's account credit by bank transfer: one conditional update of the
 * credit note (the change that stands), then its audit entry.
 */
import type { CreditNoteView } from "~/domain/credit-notes";
import { recordPayout } from "~/orders/model/account-credit.server";
import type { OrderView } from "~/orders/model/view.server";
import { audit } from "~/services/audit-trail.server";
import { defineWorkflow, stop } from "~/services/workflow.server";
import { postStep } from "./ledger.server";
import { raiseOrderEvent } from "./events.server";
import { EVENT_SWEEP, NOT_AUDITED_AGAIN, orderTarget, type Options, type Seam } from "./workflow-parts.server";

export type PayoutResult =
  { ok: true; order: OrderView; note: CreditNoteView } | { ok: false; status: 404 | 409; message: string };

type PayingOut = Options & {
  orderId: string;
  noteId: string;
  reference: string;
  done: Extract<PayoutResult, { ok: true }> | null;
};

/** The payout is one conditional update of the credit note (the change that stands), then its audit entry. */
const PAYOUT = defineWorkflow<PayingOut, Extract<PayoutResult, { ok: false }>>("payout", [
  {
    name: "record-payout",
    commits: true,
    run: async (p) => {
      const result = await recordPayout(p.orderId, p.noteId, { reference: p.reference, by: p.actor.email });
      if (result.outcome === "not_found")
        return stop({ ok: false, status: 404, message: "That credit note does not exist." });
      if (result.outcome === "already")
        return stop({
          ok: false,
          status: 409,
          message: `Credit note ${result.note.number} was already paid out${result.note.payout ? ` (reference ${result.note.payout.reference}${result.note.payout.by ? `, by ${result.note.payout.by}` : ""})` : ""}.`,
        });
      if (result.outcome === "nothing")
        return stop({
          ok: false,
          status: 409,
          message: `Credit note ${result.note.number} holds no credit to pay out (nothing was put on the account, or it came off other invoices).`,
        });
      p.done = { ok: true, order: result.order, note: result.note };
      return { noteId: p.noteId };
    },
  },
  postStep<PayingOut>((p) => p.orderId),
  {
    name: "raise-paid-out-event",
    finishedBy: EVENT_SWEEP,
    run: async (p) => {
      await raiseOrderEvent({ type: "paidOut", order: p.done!.order, creditNoteId: p.noteId });
    },
  },
  {
    name: "audit-payout",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (p) =>
      audit({
        context: p.context,
        actor: p.actor,
        action: "order.payout",
        target: orderTarget(p.done!.order),
        after: {
          creditNote: p.done!.note.number,
          amountCents: p.done!.note.payout?.amountCents ?? 0,
          reference: p.reference,
        },
      }),
  },
]);

export const PAYOUT_STEPS = PAYOUT.stepNames;

/** Staff record a credit note's account credit paid out by bank transfer; audited. */
export async function payOutCredit(
  orderId: string,
  noteId: string,
  reference: string,
  options: Options,
  seam: Seam = {},
): Promise<PayoutResult> {
  const p: PayingOut = { ...options, orderId, noteId, reference, done: null };
  const result = await PAYOUT.run(p, seam);
  return result.ok ? p.done! : result.stop;
}
