/**
 * The writes of placing an order: the order written "reserving", confirmed once every line holds its
 * stock (or put back to failed when the checkout is undone after all), or abandoned. The steps that
 * call them, and their order, are the checkout workflow's (orders/checkout.server.ts).
 */
import mongoose from "mongoose";
import { releaseHolds } from "~/models/stock-holds.server";
import { Order, stockSettings } from "./schema.server";
import { toOrderView } from "./view.server";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { type CustomerScope, inCurrencyFilter, scopeFilter } from "./reads.server";

// Every change of status is one conditional update on the current status, so a double submit or a
// race with the stock sweep can never apply a change twice (nor give stock back twice).

/** A fresh order id, chosen before the order is written (the cart's checkout claim names it). */
export const newOrderId = () => new mongoose.Types.ObjectId().toString();

/** A cart's checkout claim older than this was left by a crash (its order is the sweep's by then). */
export const checkoutClaimMs = () => stockSettings().reserveMs;

/** The customer's (company's) orders awaiting card payment or approval: how many and their total. */
export async function openCardOrdersOf(
  scope: CustomerScope,
  { except, currency = HOME_CURRENCY }: { except?: string; currency?: Currency } = {},
) {
  const docs = await Order.find(
    {
      ...(scopeFilter(scope) ?? { _id: null }),
      status: { $in: ["reserving", "unpaid", "approval"] },
      paymentMethod: { $ne: "account" },
      // The value cap is in the currency of the order placed: orders in another are not added to it.
      ...inCurrencyFilter(currency),
      ...(except ? { _id: { $ne: except } } : {}),
    },
    { totalCents: 1 },
  ).lean();
  return { count: docs.length, totalCents: docs.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0) };
}

/**
 * Writes the order as "reserving" (no list shows it; the stock sweep finishes or undoes it after
 * `reserveBy`). The number comes from the shared counter; should the unique index still refuse one
 * (a counter restored from a backup), the next number is drawn.
 */
export async function writeReservingOrder(fields: Record<string, unknown> & { _id: string; status: "reserving" }) {
  for (let attempt = 1; ; attempt++) {
    try {
      await Order.create(fields);
      return;
    } catch (error) {
      if (attempt >= 5 || !isDuplicateNumber(error)) throw error;
    }
  }
}

function isDuplicateNumber(error: unknown) {
  const { code, keyPattern, message } = error as { code?: number; keyPattern?: object; message?: string };
  return code === 11000 && (keyPattern ? "number" in keyPattern : /number/.test(message ?? ""));
}

/**
 * Every line of a reserving order holds its stock: a card order becomes unpaid, holding the stock
 * until ORDER_HOLD_HOURS from now; an order on account is confirmed on account (it does not
 * expire); an order over its buyer's limit waits for approval, held for the same ORDER_HOLD_HOURS. Null when it is not reserving (any more). A confirmation the placing step or the sweep
 * already made returns the order as it is.
 */
export async function confirmOrder(
  orderId: string,
  lowStockPartIds: string[] = [],
  /** How the order was written (checkout knows): else read from it. */
  written?: { onAccount: boolean; waits: boolean },
) {
  const current = written
    ? { status: "reserving", paymentMethod: written.onAccount ? "account" : "card", approvalRequired: written.waits }
    : await Order.findById(orderId, { status: 1, paymentMethod: 1, approvalRequired: 1 }).lean();
  if (current?.status === "reserving") {
    const onAccount = current.paymentMethod === "account";
    // Waiting for approval: held for the same window as an unpaid card order (an owner who never
    // decides must not keep the stock from everyone), and mailed by the approval service, not as placed.
    const waits = Boolean(current.approvalRequired);
    const doc = await Order.findOneAndUpdate(
      { _id: orderId, status: "reserving" },
      {
        $set: {
          status: waits ? "approval" : onAccount ? "account" : "unpaid",
          ...(onAccount && !waits ? { invoicePending: true } : {}),
          ...(onAccount && !waits ? {} : { holdUntil: new Date(Date.now() + stockSettings().holdMs) }),
          eventsPending: [waits ? "approval" : "placed"],
          ...(lowStockPartIds.length ? { lowStockPartIds } : {}),
        },
        $unset: { reserveBy: "" },
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) return toOrderView(doc);
  }
  const now = await Order.findById(orderId).lean();
  return now && now.status !== "reserving" && now.status !== "failed" ? toOrderView(now) : null;
}

/**
 * An order that never was (a line without stock, a cap, or left by a crash): it is marked failed
 * so that nothing can confirm it any more, the stock its lines hold goes back (each hold once),
 * and then it is deleted. Every step can be run again: the sweep does, for one a crash left.
 */
export async function abandonOrder(orderId: string, lines: { partId: string; quantity: number }[]) {
  const marked = await Order.findOneAndUpdate(
    { _id: orderId, status: { $in: ["reserving", "failed"] } },
    { $set: { status: "failed" } },
    { projection: { _id: 1 } },
  ).lean();
  // Confirmed meanwhile (by the sweep, or the placing step): it keeps its stock.
  if (!marked && (await Order.exists({ _id: orderId }))) return false;
  // A gone order holds nothing: a hold its late placing step took after the sweep dropped it goes back too.
  await releaseHolds(orderId, lines);
  await Order.deleteOne({ _id: orderId, status: "failed" });
  return true;
}

/**
 * Undoes a confirmation the checkout made, when a later step of it failed: the order, untouched
 * since (no money recorded, no invoice number, not shipped), becomes "failed" again, so that
 * abandonOrder gives its stock back and drops it. False when something moved it on meanwhile.
 */
export async function unconfirmOrder(orderId: string) {
  const result = await Order.updateOne(
    {
      _id: orderId,
      status: { $in: ["unpaid", "account", "approval"] },
      paidCents: { $in: [0, null] },
      invoiceNumber: null,
    },
    { $set: { status: "failed" }, $unset: { holdUntil: "", eventsPending: "", lowStockPartIds: "" } },
  );
  return result.modifiedCount === 1;
}
