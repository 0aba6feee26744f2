/**
 * The credit notes service: a return received is credited, and a paid order cancelled before it ships
 * is credited in full; card money goes back through Stripe's refund API, money received otherwise comes
 * off the invoice or onto the company's account. Steps, in order: write the credit note (one conditional
 * update, numbered from its gap-free sequence), refund the card (idempotent per credit note), raise the
 * order's events (mail, webhooks) and audit. What a crash leaves, the stock sweep finishes (sweepCreditsLeft).
 */
import { formatCents } from "~/format";
import { settlementWords, type CreditNoteView } from "~/domain/credit-notes";
import {
  cancelPaidOrder,
  issueCreditNote,
  listCreditsLeft,
  numberCreditNote,
  type CreditSource,
} from "~/orders/model/credit-notes.server";
import { recordPayout } from "~/orders/model/account-credit.server";
import { recordRefund } from "~/orders/model/refunds.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import type { OrderView } from "~/orders/model/view.server";
import { audit, type AuditEvent } from "~/services/audit-trail.server";
import { refundCreditNote } from "./card-payments.server";
import { raiseOrderEvent } from "./events.server";
import { allocateArrivedStock } from "./warehouse.server";

type Actor = { id: string; email: string };
type Options = { actor: Actor; context?: AuditEvent["context"] };

const target = (order: OrderView) => ({
  type: "order" as const,
  id: order.id,
  label: `${order.number}: ${order.summary} for ${order.userEmail}`,
});

export type CreditOutcome =
  { ok: true; order: OrderView; note: CreditNoteView | null } | { ok: false; status: 404 | 409 | 422; message: string };

/** Sends a credit note's card money back through Stripe, and records Stripe's answer. Never throws. */
async function refundToCard(order: OrderView, note: CreditNoteView): Promise<OrderView> {
  if (!note.refundCents || note.refund?.id) return order;
  try {
    const refund = await refundCreditNote(order, note);
    const after = (await recordRefund(order.id, note.id, refund)) ?? order;
    if (refund.status === "succeeded") await raiseOrderEvent({ type: "refunded", order: after, creditNoteId: note.id });
    return after;
  } catch (error) {
    // Left pending without an id: the sweep asks Stripe again with the same idempotency key.
    console.error(`The refund of credit note ${note.number} (${order.number}) could not be made now:`, error);
    return order;
  }
}

/** Issues the credit note of `source` (once), refunds its card money, mails and audits. */
export async function creditOrder(
  orderId: string,
  source: CreditSource,
  { actor, context }: Options,
): Promise<CreditOutcome> {
  const result = await issueCreditNote(orderId, source, actor.email);
  if (result.outcome === "not_found")
    return { ok: false, status: 404, message: "That order or return does not exist." };
  if (result.outcome === "refused") return { ok: false, status: 422, message: result.message };
  if (result.outcome === "nothing") return { ok: true, order: result.order, note: null };
  if (result.outcome === "already") {
    const { note } = result;
    return {
      ok: false,
      status: 409,
      message: `These units are already credited: credit note ${note.number} of ${formatCents(note.totalCents)}${note.issuedBy ? `, issued by ${note.issuedBy}` : ""}.`,
    };
  }
  let { order } = result;
  const { note } = result;
  order = await refundToCard(order, note);
  await raiseOrderEvent({ type: "creditNoteIssued", order, creditNoteId: note.id });
  const now = order.creditNotes.find((each) => each.id === note.id) ?? note;
  await audit({
    context,
    actor,
    action: "order.credit-note",
    target: target(order),
    after: {
      creditNote: note.number,
      reason: note.reason === "return" ? `Return ${note.returnNumber ?? ""}`.trim() : "Cancelled before shipping",
      totalCents: note.totalCents,
      settled: settlementWords({ ...now, refundStatus: now.refund?.status ?? null }),
      ...(now.refund?.id ? { refund: now.refund.id } : {}),
    },
  });
  return { ok: true, order, note: now };
}

/** A return just received: its units that came back are credited. Never throws (the sweep tries again). */
export async function creditReceivedReturn(orderId: string, returnId: string, options: Options) {
  try {
    return await creditOrder(orderId, { reason: "return", returnId }, options);
  } catch (error) {
    console.error(`The credit note of return ${returnId} (order ${orderId}) is left to the sweep:`, error);
    return null;
  }
}

export type CancelPaidResult =
  { ok: true; order: OrderView; note: CreditNoteView | null } | { ok: false; status: 404 | 409; message: string };

/**
 * Staff cancel a paid (or invoiced on account) order before any parcel left: the stock goes back, a full
 * credit note is issued and card money refunded. A second cancellation (another tab) is told it was done.
 */
export async function cancelPaidOrderWithCredit(
  orderId: string,
  { actor, context }: Options,
): Promise<CancelPaidResult> {
  const result = await cancelPaidOrder(orderId);
  if (result.outcome === "not_found") return { ok: false, status: 404, message: "That order does not exist." };
  if (result.outcome === "already_cancelled") {
    const note = result.order.creditNotes.find((each) => each.reason === "cancellation");
    return {
      ok: false,
      status: 409,
      message: `${result.order.number} is already cancelled${note ? ` and credited (credit note ${note.number})` : ""}.`,
    };
  }
  if (result.outcome === "shipped")
    return {
      ok: false,
      status: 409,
      message: `${result.order.number} has shipped parcels: it can no longer be cancelled. Return what came back instead.`,
    };
  if (result.outcome === "not_paid")
    return {
      ok: false,
      status: 409,
      message: `${result.order.number} is not paid or invoiced: remove it instead (nothing to credit).`,
    };
  await raiseOrderEvent({ type: "orderCancelled", order: result.order, by: "shop" });
  // Paid but not numbered yet (a crash between the two writes): its invoice is what the credit note corrects.
  if (!result.order.invoiceNumber) await assignInvoiceNumber(orderId, { late: true }).catch(() => null);
  await allocateArrivedStock(result.order.lines.map((line) => line.partId));
  await audit({
    context,
    actor,
    action: "order.cancel-paid",
    target: target(result.order),
    before: { status: "paid" },
    after: { status: "cancelled" },
  });
  const credited = await creditOrder(orderId, { reason: "cancellation" }, { actor, context }).catch(
    (error: unknown) => {
      console.error(`The credit note of cancelled order ${result.order.number} is left to the sweep:`, error);
      return null;
    },
  );
  if (credited?.ok) return { ok: true, order: credited.order, note: credited.note };
  return { ok: true, order: result.order, note: null };
}

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

export type PayoutResult =
  { ok: true; order: OrderView; note: CreditNoteView } | { ok: false; status: 404 | 409; message: string };

/** Staff record a credit note's account credit paid out by bank transfer; audited. */
export async function payOutCredit(
  orderId: string,
  noteId: string,
  reference: string,
  { actor, context }: Options,
): Promise<PayoutResult> {
  const result = await recordPayout(orderId, noteId, { reference, by: actor.email });
  if (result.outcome === "not_found") return { ok: false, status: 404, message: "That credit note does not exist." };
  if (result.outcome === "already")
    return {
      ok: false,
      status: 409,
      message: `Credit note ${result.note.number} was already paid out${result.note.payout ? ` (reference ${result.note.payout.reference}${result.note.payout.by ? `, by ${result.note.payout.by}` : ""})` : ""}.`,
    };
  if (result.outcome === "nothing")
    return {
      ok: false,
      status: 409,
      message: `Credit note ${result.note.number} put nothing on the account to pay out.`,
    };
  await audit({
    context,
    actor,
    action: "order.payout",
    target: target(result.order),
    after: { creditNote: result.note.number, amountCents: result.note.payout?.amountCents ?? 0, reference },
  });
  return { ok: true, order: result.order, note: result.note };
}
