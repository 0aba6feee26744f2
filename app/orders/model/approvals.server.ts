/**
 * Orders over a buyer's spending limit: waiting for, approved or declined by a company owner.
 */
import { isObjectId } from "~/models/part.server";
import { Order, stockSettings, DAY_MS } from "./schema.server";
import { toOrderView } from "./view.server";
import { endUnpaidOrder } from "./holds.server";

/** The company's orders waiting for an owner's approval, oldest first. */
export async function listAwaitingApproval(companyId: string) {
  if (!isObjectId(companyId)) return [];
  const docs = await Order.find({ companyId, status: "approval" }).sort({ createdAt: 1, _id: 1 }).limit(100).lean();
  return docs.map(toOrderView);
}

type Decision = { by: { id: string; name: string }; note?: string | null };

/**
 * An owner approves an order of their company that waits for approval: a card order becomes unpaid
 * (its hold runs again from now), one on account is confirmed on account (due from now, no hold). One conditional
 * update, so of two decisions at once only one applies. Null when it is not waiting (any more).
 */
export async function approveOrder(orderId: string, companyId: string, { by, note }: Decision) {
  if (!isObjectId(orderId) || !isObjectId(companyId)) return null;
  const current = await Order.findOne(
    { _id: orderId, companyId, status: "approval" },
    { paymentMethod: 1, termsDays: 1, approval: 1 },
  ).lean();
  if (!current) return null;
  const now = new Date();
  const onAccount = current.paymentMethod === "account";
  const doc = await Order.findOneAndUpdate(
    { _id: orderId, companyId, status: "approval" },
    {
      $set: {
        status: onAccount ? "account" : "unpaid",
        ...(onAccount ? { invoicePending: true } : {}),
        ...(onAccount
          ? { dueAt: new Date(now.getTime() + (current.termsDays ?? 0) * DAY_MS) }
          : { holdUntil: new Date(now.getTime() + stockSettings().holdMs) }),
        approval: {
          limitCents: current.approval?.limitCents,
          outcome: "approved",
          decidedBy: by.id,
          decidedByName: by.name,
          decidedAt: now,
          ...(note ? { note } : {}),
        },
      },
      $addToSet: { eventsPending: { $each: ["placed", "decided"] } },
      // The wait's hold (and its reminder) ends: an order on account is bounded by credit instead.
      $unset: onAccount ? { holdUntil: "", holdReminderAt: "" } : { holdReminderAt: "" },
    },
    { returnDocument: "after" },
  ).lean();
  return doc ? toOrderView(doc) : null;
}

/** An owner declines: the order is cancelled with the note and its stock goes back once (as a cancel). */
export async function declineOrder(orderId: string, companyId: string, { by, note }: Decision) {
  if (!isObjectId(orderId) || !isObjectId(companyId)) return Promise.resolve(null);
  const current = await Order.findOne({ _id: orderId, companyId, status: "approval" }, { approval: 1 }).lean();
  if (!current) return null;
  return endUnpaidOrder({ _id: orderId, companyId }, "cancelled", {
    from: "approval",
    events: ["decided"],
    set: {
      approval: {
        limitCents: current.approval?.limitCents,
        outcome: "declined",
        decidedBy: by.id,
        decidedByName: by.name,
        decidedAt: new Date(),
        ...(note ? { note } : {}),
      },
    },
  });
}

/** The buyer who placed it withdraws an order still waiting for approval: cancelled, its stock back once. */
export function withdrawOrder(orderId: string, placerId: string) {
  if (!isObjectId(orderId) || !isObjectId(placerId)) return Promise.resolve(null);
  return endUnpaidOrder({ _id: orderId, userId: placerId }, "cancelled", { from: "approval" });
}
