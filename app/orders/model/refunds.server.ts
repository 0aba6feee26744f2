/**
 * The card refunds credit notes start: Stripe's answer recorded on the note, a refund's status as its
 * webhooks report it, and Shop Today's refunds that failed.
 */
import mongoose from "mongoose";
import { REFUND_STATUSES, refundMayBecome, type CreditNoteView, type RefundStatus } from "~/domain/credit-notes";
import { isObjectId } from "~/models/part.server";
import { Order } from "./schema.server";
import { toOrderView, type OrderView } from "./view.server";

/**
 * Records Stripe's answer to a credit note's refund (its id and status), where the status it has may
 * become that one (domain/credit-notes.ts, refundMayBecome): a refund that failed after it succeeded
 * is owed by bank transfer like any failed refund.
 */
export async function recordRefund(
  orderId: string,
  noteId: string,
  refund: { id: string | null; status: RefundStatus; failure?: string | null },
) {
  const doc = await Order.findById(orderId, { creditNotes: 1 }).lean();
  const index = (doc?.creditNotes ?? []).findIndex((note) => note._id.toString() === noteId);
  if (!doc || index < 0) return null;
  const at = `creditNotes.${index}.refund`;
  const updated = await Order.findOneAndUpdate(
    {
      _id: orderId,
      [`creditNotes.${index}._id`]: new mongoose.Types.ObjectId(noteId),
      // A pending refund may be told pending again: Stripe's first answer gives its id.
      [`${at}.status`]: {
        $in: REFUND_STATUSES.filter((from) => refundMayBecome(from, refund.status) || from === "pending"),
      },
    },
    {
      $set: {
        ...(refund.id ? { [`${at}.id`]: refund.id } : {}),
        [`${at}.status`]: refund.status,
        ...(refund.status === "succeeded" ? { [`${at}.refundedAt`]: new Date() } : {}),
        ...(refund.status === "failed" || refund.status === "canceled" ? { [`${at}.failedAt`]: new Date() } : {}),
        ...(refund.failure ? { [`${at}.failure`]: refund.failure.slice(0, 300) } : {}),
      },
      // The refund went through: its event (webhooks) is noted with the change.
      ...(refund.status === "succeeded" ? { $addToSet: { eventsPending: "refund" } } : {}),
    },
    { returnDocument: "after" },
  ).lean();
  return updated ? toOrderView(updated) : null;
}

/**
 * A refund's status as Stripe reports it (a webhook): the order and credit note it belongs to, by the
 * refund's id or the credit note named in its metadata. `changed` is false when the order already said so
 * (a webhook delivered twice changes nothing).
 */
export async function applyRefundStatus(refund: {
  id: string;
  status: RefundStatus;
  orderId?: string;
  creditNoteId?: string;
}): Promise<{ changed: boolean; order: OrderView; note: CreditNoteView } | null> {
  let doc = await Order.findOne({ "creditNotes.refund.id": refund.id }).lean();
  if (!doc && refund.orderId && isObjectId(refund.orderId)) doc = await Order.findById(refund.orderId).lean();
  if (!doc) return null;
  const before = toOrderView(doc);
  const note =
    before.creditNotes.find((each) => each.refund?.id === refund.id) ??
    before.creditNotes.find((each) => each.id === refund.creditNoteId && each.refund);
  if (!note) return null;
  if (!note.refund || !refundMayBecome(note.refund.status, refund.status))
    return { changed: false, order: before, note };
  const order = await recordRefund(before.id, note.id, { id: refund.id, status: refund.status });
  if (!order) {
    const now = toOrderView((await Order.findById(before.id).lean())!);
    return { changed: false, order: now, note: now.creditNotes.find((each) => each.id === note.id)! };
  }
  return { changed: true, order, note: order.creditNotes.find((each) => each.id === note.id)! };
}

/** Shop Today: card refunds Stripe reported failed or cancelled, not paid out by bank yet, oldest first. */
export async function listFailedRefunds(limit = 10) {
  const docs = await Order.find({
    creditNotes: { $elemMatch: { "refund.status": { $in: ["failed", "canceled"] }, payout: null } },
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .lean();
  return docs.flatMap((doc) => {
    const order = toOrderView(doc);
    return order.creditNotes
      .filter((note) => (note.refund?.status === "failed" || note.refund?.status === "canceled") && !note.payout)
      .map((note) => ({
        order: {
          id: order.id,
          number: order.number,
          companyName: order.companyName,
          userName: order.userName,
          currency: order.currency,
        },
        note: { id: note.id, number: note.number, refundCents: note.refundCents, status: note.refund!.status },
      }));
  });
}
