/**
 * The credit notes service: a return received is credited, and a paid order cancelled before it ships
 * is credited in full; card money goes back through Stripe's refund API (refunds.server.ts), money
 * received otherwise comes off the invoice or onto the company's account (paid out: payouts.server.ts).
 * Each is a workflow (services/workflow.server.ts): the change that stands (the order cancelled, the
 * credit note written in one conditional update and numbered from its gap-free sequence), then the
 * refund, the order's events (mail, webhooks) and the audit. What a crash or a failure leaves after
 * the change, the stock sweep (sweepCreditsLeft, invoice numbers, backorders) and the order event
 * sweep finish.
 */
import { logFailure } from "~/services/log.server";
import { formatCents } from "~/format";
import { settlementWords, type CreditNoteView } from "~/domain/credit-notes";
import {
  cancelPaidOrder,
  issueCreditNote,
  listCreditsLeft,
  numberCreditNote,
  type CreditSource,
} from "~/orders/model/credit-notes.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import type { OrderView } from "~/orders/model/view.server";
import { audit } from "~/services/audit-trail.server";
import { defineWorkflow, stop, type Step } from "~/services/workflow.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import { applyAccountCredit } from "./credit-apply.server";
import { refundToCard } from "./refunds.server";
import { allocateArrivedStock } from "./warehouse.server";
import {
  EVENT_SWEEP,
  NOT_AUDITED_AGAIN,
  orderTarget as target,
  STOCK_SWEEP,
  type Options,
  type Seam,
} from "./workflow-parts.server";

export { EVENT_SWEEP, NOT_AUDITED_AGAIN, STOCK_SWEEP };

export type CreditOutcome =
  { ok: true; order: OrderView; note: CreditNoteView | null } | { ok: false; status: 404 | 409 | 422; message: string };

type Refused = Extract<CreditOutcome, { ok: false }>;

// --- Credit: the note, its refund, its event and audit ------------------------------------------

/** What the credit steps share; `order` is the order as the last step left it. */
export type Crediting = Options & {
  orderId: string;
  source: CreditSource;
  order: OrderView | null;
  note: CreditNoteView | null;
  /** Why no note was issued, when the credit itself is what was asked for. */
  refused: Refused | null;
  /** Staff's reason for cancelling a paid order (the customer reads it). */
  reason?: string;
};

const issueStep = (after: "commit" | "change"): Step<Crediting, Refused> => ({
  // One conditional update writes the note (one per source: of two tabs, one writes it), then its number.
  name: "issue-credit-note",
  ...(after === "commit" ? { commits: true as const } : { finishedBy: STOCK_SWEEP }),
  run: async (c) => {
    const result = await issueCreditNote(c.orderId, c.source, c.actor.email);
    if (result.outcome === "issued") {
      c.order = result.order;
      c.note = result.note;
      return { noteId: result.note.id };
    }
    if (result.outcome !== "not_found") c.order = result.order;
    c.refused = refusalOf(result);
    // After a change that stands (a cancellation, a return received) nothing may refuse: there is just nothing more to do.
    if (after === "commit" && c.refused) return stop(c.refused);
  },
});

function refusalOf(result: Awaited<ReturnType<typeof issueCreditNote>>): Refused | null {
  switch (result.outcome) {
    case "not_found":
      return { ok: false, status: 404, message: "That order or return does not exist." };
    case "refused":
      return { ok: false, status: 422, message: result.message };
    case "already": {
      const { note, order } = result;
      return {
        ok: false,
        status: 409,
        message: `These units are already credited: credit note ${note.number} of ${formatCents(note.totalCents, { currency: order.currency })}${note.issuedBy ? `, issued by ${note.issuedBy}` : ""}.`,
      };
    }
    default:
      return null;
  }
}

/** After the note: its card money back, the ledger, its event, its audit entry. Nothing here refuses. */
const AFTER_NOTE: Step<Crediting, Refused>[] = [
  {
    name: "refund-card",
    finishedBy: STOCK_SWEEP,
    run: async (c) => {
      if (c.note) c.order = await refundToCard(c.order!, c.note);
    },
  },
  postStep<Crediting>((c) => c.order?.id),
  {
    name: "raise-credit-event",
    finishedBy: EVENT_SWEEP,
    run: async (c) => {
      if (c.note) await raiseOrderEvent({ type: "creditNoteIssued", order: c.order!, creditNoteId: c.note.id });
    },
  },
  {
    name: "audit-credit",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (c) => {
      if (!c.note) return;
      const order = c.order!;
      const note = order.creditNotes.find((each) => each.id === c.note!.id) ?? c.note;
      c.note = note;
      await audit({
        context: c.context,
        actor: c.actor,
        action: "order.credit-note",
        target: target(order),
        after: {
          creditNote: note.number,
          reason: note.reason === "return" ? `Return ${note.returnNumber ?? ""}`.trim() : "Cancelled before shipping",
          totalCents: note.totalCents,
          settled: settlementWords({ ...note, refundStatus: note.refund?.status ?? null }, order.currency),
          ...(note.refund?.id ? { refund: note.refund.id } : {}),
        },
      });
    },
  },
  {
    // The credit the note put on the account comes off the company's open invoices, oldest first.
    name: "apply-account-credit",
    finishedBy: "the account's next order or credit note, or staff's Apply credit",
    run: async (c) => {
      if (c.note && c.order?.companyId) await applyAccountCredit(c.order.companyId);
    },
  },
];

/** The steps that credit a change already made (a cancellation, a return received): the stock sweep issues what they leave. */
export const CREDIT_AFTER_CHANGE: Step<Crediting, Refused>[] = [issueStep("change"), ...AFTER_NOTE];

const CREDIT = defineWorkflow<Crediting, Refused>("credit-order", [issueStep("commit"), ...AFTER_NOTE]);

export const crediting = (orderId: string, source: CreditSource, options: Options): Crediting => ({
  ...options,
  orderId,
  source,
  order: null,
  note: null,
  refused: null,
});

/** Issues the credit note of `source` (once), refunds its card money, mails and audits. */
export async function creditOrder(orderId: string, source: CreditSource, options: Options): Promise<CreditOutcome> {
  const c = crediting(orderId, source, options);
  const result = await CREDIT.run(c);
  if (!result.ok) return result.stop;
  return { ok: true, order: c.order!, note: c.note };
}

/** A return just received: its units that came back are credited. Never throws (the sweep tries again). */
export async function creditReceivedReturn(orderId: string, returnId: string, options: Options) {
  try {
    return await creditOrder(orderId, { reason: "return", returnId }, options);
  } catch (error) {
    logFailure(`The credit note of return ${returnId} (order ${orderId}) is left to the sweep`, error);
    return null;
  }
}

// --- Cancelling a paid order with its credit note ------------------------------------------------

export type CancelPaidResult =
  { ok: true; order: OrderView; note: CreditNoteView | null } | { ok: false; status: 404 | 409; message: string };

type CancelRefused = Extract<CancelPaidResult, { ok: false }>;

/**
 * Staff cancel a paid (or invoiced on account) order before any parcel left: one conditional update
 * cancels it, notes its stock to give back, its credit note and its event (the change that stands);
 * then the stock goes back to backorders, the invoice the note corrects is numbered, the events and
 * audit go out, and the full credit note is issued and its card money refunded.
 */
const CANCEL_PAID = defineWorkflow<Crediting, CancelRefused>("cancel-paid-with-credit", [
  {
    name: "cancel-order",
    commits: true,
    run: async (c) => {
      const result = await cancelPaidOrder(c.orderId, c.reason);
      if (result.outcome === "cancelled") {
        c.order = result.order;
        return { orderId: c.orderId };
      }
      if (result.outcome === "not_found")
        return stop({ ok: false, status: 404, message: "That order does not exist." });
      const { order } = result;
      if (result.outcome === "already_cancelled") {
        const note = order.creditNotes.find((each) => each.reason === "cancellation");
        return stop({
          ok: false,
          status: 409,
          message: `${order.number} is already cancelled${note ? ` and credited (credit note ${note.number})` : ""}.`,
        });
      }
      return stop({
        ok: false,
        status: 409,
        message:
          result.outcome === "shipped"
            ? `${order.number} has shipped parcels: it can no longer be cancelled. Return what came back instead.`
            : `${order.number} is not paid or invoiced: remove it instead (nothing to credit).`,
      });
    },
  },
  {
    // Paid but not numbered yet (a crash between the two writes): its invoice is what the credit note corrects.
    name: "number-invoice",
    finishedBy: STOCK_SWEEP,
    run: async (c) => {
      if (!c.order!.invoiceNumber) await assignInvoiceNumber(c.orderId, { late: true });
    },
  },
  {
    name: "allocate-stock",
    finishedBy: STOCK_SWEEP,
    run: async (c) => allocateArrivedStock(c.order!.lines.map((line) => line.partId)),
  },
  {
    name: "raise-cancelled-event",
    finishedBy: EVENT_SWEEP,
    run: async (c) => raiseOrderEvent({ type: "orderCancelled", order: c.order!, by: "shop" }),
  },
  {
    name: "audit-cancel",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (c) =>
      audit({
        context: c.context,
        actor: c.actor,
        action: "order.cancel-paid",
        target: target(c.order!),
        before: { status: "paid" },
        after: { status: "cancelled", ...(c.reason ? { reason: c.reason } : {}) },
      }),
  },
  ...(CREDIT_AFTER_CHANGE as Step<Crediting, CancelRefused>[]),
]);

export const CANCEL_PAID_STEPS = CANCEL_PAID.stepNames;
export const CREDIT_STEPS = CREDIT.stepNames;

/**
 * Staff cancel a paid order before it ships, with their reason (kept on the order); a second cancellation
 * (another tab) is told it was done.
 */
export async function cancelPaidOrderWithCredit(
  orderId: string,
  { reason, ...options }: Options & { reason?: string },
  seam: Seam = {},
): Promise<CancelPaidResult> {
  const c = { ...crediting(orderId, { reason: "cancellation" }, options), reason };
  const result = await CANCEL_PAID.run(c, seam);
  if (!result.ok) return result.stop;
  return { ok: true, order: c.order!, note: c.note };
}

// --- The sweep's part ------------------------------------------------------------------------------

const SWEEP_ACTOR = { id: "000000000000000000000000", email: "stock sweep" };

/** Credit notes a crash left unissued, and refunds never sent to Stripe: issued and sent now. */
export async function sweepCreditsLeft({ graceMs, limit = 200 }: { graceMs: number; limit?: number }) {
  let settled = 0;
  for (const { order, cancellation, returnIds, unnumbered } of await listCreditsLeft({ graceMs, limit })) {
    const options = { actor: SWEEP_ACTOR };
    for (const noteId of unnumbered) {
      const numbered = await numberCreditNote(order.id, noteId);
      await raiseOrderEvent({ type: "creditNoteIssued", order: numbered, creditNoteId: noteId });
      settled++;
    }
    for (const returnId of returnIds) if ((await creditReceivedReturn(order.id, returnId, options))?.ok) settled++;
    if (cancellation && (await creditOrder(order.id, { reason: "cancellation" }, options)).ok) settled++;
    for (const note of order.creditNotes.filter((each) => each.refund?.status === "pending" && !each.refund.id)) {
      await refundToCard(order, note);
      settled++;
    }
  }
  return settled;
}
