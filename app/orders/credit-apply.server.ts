/**
 * Account credit comes off the customer's invoices without anyone asking: a credit note's credit
 * (what was neither refunded to a card nor paid out) goes to the company's next order as it is
 * placed, and to its open invoices on account, oldest first; staff may also take it off an invoice
 * they choose. Each use is a workflow over two documents: the credit note's claim (one update
 * conditional on what it gave so far), then the order's use (one update conditional on the money
 * it had; paid at once when the credit covers it). A claim the order did not take is given back;
 * the credit sweep gives back what a crash left claimed, and an unpaid order that ends gives its
 * credit back (settleOrderStock). docs/decisions/0009-ledger.md.
 */
import mongoose from "mongoose";
import {
  claimNoteCredit,
  confirmNoteUse,
  creditHeldBy,
  giveBackNoteCredit,
  openForCredit,
  openInvoicesOf,
  orderHoldsUse,
  pendingNoteUses,
  takeCreditOff,
  type HeldCredit,
} from "~/orders/model/credit-use.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { getOrderById } from "~/orders/model/reads.server";
import type { OrderView } from "~/orders/model/view.server";
import { audit } from "~/services/audit-trail.server";
import { logFailure } from "~/services/log.server";
import { defineWorkflow, step, stop } from "~/services/workflow.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import {
  EVENT_SWEEP,
  NOT_AUDITED_AGAIN,
  orderTarget,
  STOCK_SWEEP,
  type Options,
  type Seam,
} from "./workflow-parts.server";

type Applying = {
  order: OrderView;
  note: HeldCredit;
  amountCents: number;
  useId: string;
  /** Staff who chose the invoice; null when the shop applies it on its own. */
  by: Options | null;
  paidInFull: boolean;
};

type NotApplied = { status: 409; message: string };

const CHANGED: NotApplied = {
  status: 409,
  message: "The order or the credit changed just now; nothing was applied. Look again and retry.",
};

const APPLY = defineWorkflow<Applying, NotApplied>("apply-credit", [
  step({
    // The note's credit is claimed for this order: of two claims at once on one note, one is taken.
    name: "claim-credit",
    run: async (a) => {
      const claimed = await claimNoteCredit(a.note, { id: a.useId, orderId: a.order.id, amountCents: a.amountCents });
      return claimed ? { claimed: true } : stop(CHANGED, { claimed: false });
    },
    // Given back once (the use is pulled from the note), also when the claim's answer was lost.
    compensate: async (a, receipt) => {
      if (receipt?.claimed !== false) await giveBackNoteCredit(a.note.orderId, a.note.noteId, a.useId);
    },
  }),
  {
    // The order takes it, conditional on the money it had when read: the change that stands.
    name: "take-off-order",
    commits: true,
    run: async (a) => {
      const taken = await takeCreditOff(a.order, {
        id: a.useId,
        noteId: a.note.noteId,
        noteOrderId: a.note.orderId,
        noteNumber: a.note.number,
        amountCents: a.amountCents,
        by: a.by?.actor.email ?? null,
      });
      if (taken.outcome !== "taken") return stop(CHANGED);
      a.order = taken.order;
      a.paidInFull = taken.paidInFull;
    },
  },
  {
    name: "confirm-claim",
    finishedBy: "the credit sweep",
    run: async (a) => confirmNoteUse(a.note.orderId, a.note.noteId, a.useId),
  },
  {
    // Paid in full by credit: its invoice, as for money received.
    name: "number-invoice",
    finishedBy: STOCK_SWEEP,
    run: async (a) => {
      if (!a.paidInFull || a.order.invoiceNumber) return;
      const number = await assignInvoiceNumber(a.order.id);
      if (number) a.order = { ...a.order, invoiceNumber: number };
    },
  },
  postStep<Applying>((a) => (a.order.invoiceNumber ? a.order.id : null)),
  {
    name: "raise-events",
    finishedBy: EVENT_SWEEP,
    run: async (a) => {
      await raiseOrderEvent({ type: "creditApplied", order: a.order, useId: a.useId });
      if (a.paidInFull) await raiseOrderEvent({ type: "orderPaid", order: a.order });
    },
  },
  {
    name: "audit",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (a) => {
      if (!a.by) return;
      await audit({
        context: a.by.context,
        actor: a.by.actor,
        action: "order.apply-credit",
        target: orderTarget(a.order),
        after: { creditNote: a.note.number, amountCents: a.amountCents, balanceCents: a.order.balanceCents },
      });
    },
  },
]);

export const APPLY_CREDIT_STEPS = APPLY.stepNames;

export type ApplyResult = { ok: true; order: OrderView; appliedCents: number } | ({ ok: false } & NotApplied);

/**
 * Takes the company's credit off one order, oldest credit note first, until the order is covered or
 * the credit is used (`atMostCents` bounds it when staff choose an amount). One workflow per note.
 */
export async function applyCreditTo(
  order: OrderView,
  { atMostCents, by = null, seam = {} }: { atMostCents?: number; by?: Options | null; seam?: Seam } = {},
): Promise<ApplyResult> {
  let current = order;
  let applied = 0;
  for (let round = 0; round < 20; round++) {
    const open = Math.min(openForCredit(current), (atMostCents ?? Infinity) - applied);
    if (open <= 0 || !current.companyId) break;
    const [note] = await creditHeldBy(current.companyId, current.currency);
    if (!note) break;
    const applying: Applying = {
      order: current,
      note,
      amountCents: Math.min(open, note.heldCents),
      useId: new mongoose.Types.ObjectId().toString(),
      by,
      paidInFull: false,
    };
    const result = await APPLY.run(applying, seam);
    if (!result.ok)
      return applied ? { ok: true, order: current, appliedCents: applied } : { ok: false, ...result.stop };
    applied += applying.amountCents;
    current = applying.order;
  }
  return { ok: true, order: current, appliedCents: applied };
}

/**
 * The shop's own use of credit: the new order first (when given), then the company's open invoices
 * on account, oldest first. Never throws: what it leaves, the credit sweep applies next time.
 */
export async function applyAccountCredit(companyId: string, order?: OrderView | null) {
  try {
    let placed = order ?? null;
    // One read when the account holds no credit (every checkout asks).
    if (!(await creditHeldBy(companyId)).length) return placed;
    if (placed) {
      const result = await applyCreditTo(placed);
      if (result.ok) placed = result.order;
    }
    if (!(await creditHeldBy(companyId)).length) return placed;
    for (const invoice of await openInvoicesOf(companyId)) {
      const result = await applyCreditTo(invoice);
      if (!result.ok) break;
      if (!(await creditHeldBy(companyId)).length) break;
    }
    return placed;
  } catch (error) {
    logFailure(`Account credit of company ${companyId} not applied now (the credit sweep will)`, error);
    return order ?? null;
  }
}

/**
 * The credit sweep: a claim a crash left untaken (the order never took it, or ended since) goes back
 * to its note; one the order holds is confirmed.
 */
export async function sweepCreditClaims({ graceMs }: { graceMs: number }) {
  let givenBack = 0;
  for (const use of await pendingNoteUses(new Date(Date.now() - graceMs))) {
    if (await orderHoldsUse(use.orderId, use.useId)) await confirmNoteUse(use.noteOrderId, use.noteId, use.useId);
    else if (await giveBackNoteCredit(use.noteOrderId, use.noteId, use.useId)) givenBack++;
  }
  return givenBack;
}

/** Staff take credit off an invoice they choose (at most `amountCents`); audited. */
export async function applyCreditByStaff(orderId: string, amountCents: number | undefined, options: Options) {
  const order = await getOrderById(orderId);
  if (!order) return { ok: false as const, status: 404 as const, message: "That order does not exist." };
  if (!openForCredit(order))
    return { ok: false as const, status: 409 as const, message: `${order.number} has nothing left to pay.` };
  if (!(await creditHeldBy(order.companyId, order.currency)).length)
    return { ok: false as const, status: 409 as const, message: "This customer's account holds no credit." };
  const result = await applyCreditTo(order, { atMostCents: amountCents, by: options });
  return result;
}
