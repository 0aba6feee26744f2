/**
 * Money recorded by staff against an order (and its reversal), and what a customer owes on account:
 * open invoices, the credit committed, and overdue invoices.
 */
import mongoose from "mongoose";
import { PAYMENT_METHODS } from "~/domain/order-states";
import { isObjectId } from "~/models/part.server";
import { DAY_MS, Order } from "./schema.server";
import type { RecordedPaymentView } from "./subdocs/payments.server";
import { type OrderView, toOrderView } from "./view.server";
import { HOME_CURRENCY, type Currency } from "~/domain/money";
import { type CustomerScope, inCurrencyFilter, scopeFilter } from "./reads.server";

// --- Money recorded by staff (bank transfer, cheque, cash) ----------------------------------------
// Each change reads the order, checks it, and writes with one update conditional on what it read
// (status, money received): of two staff recording at once one is taken, the other reads again
// and is told what changed. No transaction needed.

export type RecordedPaymentInput = {
  amountCents: number;
  method: (typeof PAYMENT_METHODS)[number];
  receivedOn: Date;
  reference: string;
  recordedBy: string;
  /** Staff confirmed that a payment looking like one already recorded is a second one. */
  secondPayment?: boolean;
};

export type RecordPaymentOutcome =
  | { outcome: "recorded"; order: OrderView; paidInFull: boolean }
  | { outcome: "already_paid" | "over_balance" | "not_payable" | "before_order"; order: OrderView }
  | { outcome: "duplicate"; order: OrderView; first: RecordedPaymentView; by: "reference" | "amount" }
  | { outcome: "not_found" };

const sameMoney = (paidCents: number | null | undefined) => (paidCents ? paidCents : { $in: [0, null] });

const plainReference = (reference: string) => reference.replace(/\s+/g, "").toLowerCase();

/**
 * A payment already recorded (and not reversed) that this one repeats: the same reference, or the
 * same amount received within a day of it. Null when there is none.
 */
export function repeatedPayment(
  payments: RecordedPaymentView[],
  input: Pick<RecordedPaymentInput, "amountCents" | "receivedOn" | "reference">,
): { first: RecordedPaymentView; by: "reference" | "amount" } | null {
  const live = payments.filter((payment) => !payment.reversedAt);
  const reference = plainReference(input.reference);
  const byReference = reference ? live.find((payment) => plainReference(payment.reference) === reference) : undefined;
  if (byReference) return { first: byReference, by: "reference" };
  const byAmount = live.find(
    (payment) =>
      payment.amountCents === input.amountCents &&
      Math.abs(new Date(payment.receivedOn).getTime() - input.receivedOn.getTime()) <= DAY_MS,
  );
  return byAmount ? { first: byAmount, by: "amount" } : null;
}

/** The UTC day an order was placed: money cannot arrive before it. */
const placedDay = (createdAt: string) => Date.parse(`${createdAt.slice(0, 10)}T00:00:00Z`);

export async function addRecordedPayment(orderId: string, input: RecordedPaymentInput): Promise<RecordPaymentOutcome> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  const { secondPayment, ...entry } = input;
  for (;;) {
    const current = await Order.findById(orderId).lean();
    if (!current) return { outcome: "not_found" };
    const view = toOrderView(current);
    if (view.paid) return { outcome: "already_paid", order: view };
    if (view.status === "cancelled" || view.status === "removed") return { outcome: "not_payable", order: view };
    if (input.receivedOn.getTime() < placedDay(view.createdAt)) return { outcome: "before_order", order: view };
    const repeat = secondPayment ? null : repeatedPayment(view.payments, input);
    if (repeat) return { outcome: "duplicate", order: view, ...repeat };
    if (input.amountCents > view.balanceCents) return { outcome: "over_balance", order: view };
    const paidCents = view.paidCents + input.amountCents;
    // Credit notes taken off the invoice, and account credit taken off it, count as settled.
    const paidInFull = paidCents + view.creditedCents + view.creditAppliedCents >= view.totalCents;
    const now = new Date();
    const count = current.payments?.length ?? 0;
    const doc = await Order.findOneAndUpdate(
      {
        _id: orderId,
        status: current.status,
        paidAt: null,
        paidCents: sameMoney(current.paidCents),
        // No payment added since the read (entries are never removed): the repeat check above saw
        // every payment, so of two staff entering the same one at once the second reads again and is refused.
        [`payments.${count}`]: { $exists: false },
      },
      {
        $push: { payments: { ...entry, recordedAt: now } },
        $set: {
          paidCents,
          ...(paidInFull
            ? {
                paidAt: now,
                status: current.status === "shipped" ? "shipped" : "paid",
                ...(current.invoiceNumber ? {} : { invoicePending: true }),
              }
            : {}),
        },
        ...(paidInFull ? { $addToSet: { eventsPending: "paid" } } : {}),
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) return { outcome: "recorded", order: toOrderView(doc), paidInFull };
    // Someone changed the order between the read and the write: read it again and decide again.
  }
}

export type ReversePaymentOutcome =
  | { outcome: "reversed"; order: OrderView; payment: RecordedPaymentView; unpaid: boolean }
  | { outcome: "already_reversed" | "no_such_payment"; order: OrderView }
  | { outcome: "credited"; order: OrderView; notes: string[] }
  | { outcome: "not_found" };

/** What the order's credit notes gave back in money (to the card or the account), which payments must cover. */
const creditedBackCents = (order: OrderView) =>
  order.creditNotes.reduce((sum, note) => sum + note.refundCents + note.accountCreditCents, 0);

/** Marks a recorded payment reversed (kept, with who and why); an order it had paid is unpaid again. */
export async function reverseRecordedPayment(
  orderId: string,
  paymentId: string,
  { reason, reversedBy }: { reason: string; reversedBy: string },
): Promise<ReversePaymentOutcome> {
  if (!isObjectId(orderId)) return { outcome: "not_found" };
  for (;;) {
    const current = await Order.findById(orderId).lean();
    if (!current) return { outcome: "not_found" };
    const view = toOrderView(current);
    const index = view.payments.findIndex((entry) => entry.id === paymentId);
    const payment = view.payments[index];
    if (!payment || !isObjectId(paymentId)) return { outcome: "no_such_payment", order: view };
    if (payment.reversedAt) return { outcome: "already_reversed", order: view };
    const paidCents = Math.max(0, view.paidCents - payment.amountCents);
    // Money a credit note gave back came out of this payment: without it the shop would owe (or have
    // refunded) what it was never paid.
    if (paidCents < creditedBackCents(view)) {
      return { outcome: "credited", order: view, notes: view.creditNotes.map((note) => note.number) };
    }
    // Paid by recorded payments (not by card), and no longer covered: unpaid again, as it was before.
    const unpaid = Boolean(current.paidAt) && !current.transactionId && paidCents < view.totalCents;
    const before =
      current.status === "paid" ? (current.paymentMethod === "account" ? "account" : "unpaid") : current.status;
    const doc = await Order.findOneAndUpdate(
      {
        _id: orderId,
        status: current.status,
        paidCents: sameMoney(current.paidCents),
        // By its place in the list (entries are never removed, so the place is stable).
        [`payments.${index}._id`]: new mongoose.Types.ObjectId(paymentId),
        [`payments.${index}.reversedAt`]: null,
        // A credit note issued since the read is weighed too.
        [`creditNotes.${view.creditNotes.length}`]: { $exists: false },
      },
      {
        $set: {
          paidCents,
          [`payments.${index}.reversedAt`]: new Date(),
          [`payments.${index}.reversedBy`]: reversedBy,
          [`payments.${index}.reversalReason`]: reason,
          ...(unpaid ? { status: before } : {}),
        },
        ...(unpaid ? { $unset: { paidAt: 1 } } : {}),
      },
      { returnDocument: "after" },
    ).lean();
    if (doc) {
      const order = toOrderView(doc);
      return { outcome: "reversed", order, payment: order.payments.find((entry) => entry.id === paymentId)!, unpaid };
    }
  }
}

const OPEN_ON_ACCOUNT = { $in: ["account", "shipped"] };

/** What a customer (company) owes on account: invoices on account not yet paid, and the sum still open. */
export async function openAccountOrders(scope: CustomerScope) {
  const owner = scopeFilter(scope);
  if (!owner) return { orders: [] as OrderView[], balanceCents: 0 };
  const filter: Record<string, unknown> = { ...owner, dueAt: { $exists: true }, paidAt: null, status: OPEN_ON_ACCOUNT };
  const docs = await Order.find(filter).sort({ dueAt: 1, _id: 1 }).lean();
  // An invoice its credit notes settled owes nothing: it is not open.
  const orders = docs.map(toOrderView).filter((order) => order.balanceCents > 0);
  return { orders, balanceCents: orders.reduce((sum, order) => sum + order.balanceCents, 0) };
}

/**
 * What the customer (company) has committed on account: the open balance, and orders on account
 * being placed or awaiting an owner's approval (they become invoices once approved). The credit
 * limit bounds this, so buyers waiting for approval at once cannot together pass it.
 */
export async function accountCommitmentOf(
  scope: CustomerScope,
  { except, currency = HOME_CURRENCY }: { except?: string; currency?: Currency } = {},
) {
  const owner = scopeFilter(scope);
  if (!owner) return 0;
  const [open, waiting] = await Promise.all([
    openAccountOrders(scope),
    Order.find(
      {
        ...owner,
        paymentMethod: "account",
        status: { $in: ["reserving", "approval"] },
        ...inCurrencyFilter(currency),
        ...(except ? { _id: { $ne: except } } : {}),
      },
      { totalCents: 1 },
    ).lean(),
  ]);
  // The credit limit is in the company's currency: only orders in that currency count against it.
  const openCents = open.orders
    .filter((order) => order.id !== except && order.currency === currency)
    .reduce((sum, o) => sum + o.balanceCents, 0);
  return openCents + waiting.reduce((sum, doc) => sum + (doc.totalCents ?? 0), 0);
}

/** Invoices on account past their due date and still unpaid, oldest due first (Shop Today). */
export async function listOverdue(limit = 10, now = new Date()) {
  const filter: Record<string, unknown> = { dueAt: { $lt: now }, paidAt: null, status: OPEN_ON_ACCOUNT };
  const [docs, total] = await Promise.all([
    Order.find(filter).sort({ dueAt: 1, _id: 1 }).limit(limit).lean(),
    Order.countDocuments(filter),
  ]);
  return { orders: docs.map(toOrderView), total };
}
