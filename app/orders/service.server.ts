/**
 * The order services: each change of an order that screens (and later the API) make goes through
 * one function here, which calls the models, raises the order's event (orders/events.server.ts:
 * mail and webhooks) and audits. Models only store; the words people read come from order-states.ts.
 */
import { logFailure } from "~/services/log.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import {
  accountCommitmentOf,
  addRecordedPayment,
  openAccountOrders,
  reverseRecordedPayment,
  type RecordedPaymentInput,
} from "~/orders/model/payments.server";
import { cancelOrder, removeOrder } from "~/orders/model/holds.server";
import { type CustomerScope } from "~/orders/model/reads.server";
import { type OrderView } from "~/orders/model/view.server";
import { getUserById } from "~/models/user.server";
import { audit, type AuditEvent } from "~/services/audit-trail.server";
import { customerPricing } from "~/services/pricing.server";
import type { WorkflowOptions } from "~/services/workflow.server";
import { placeOrder } from "./checkout.server";
import {
  ACCOUNTS_CANNOT_ORDER,
  type PaymentRefusal,
  type PlaceOrderInput,
  type PlaceOrderResult,
} from "./checkout-order.server";
import { formatCents } from "~/format";
import { raiseOrderEvent } from "./events.server";
import { postToLedger } from "./ledger.server";
import { formatDay, ORDER_STATE_WORDS, PAYMENT_METHOD_WORDS } from "~/domain/order-states";
import { SECOND_PAYMENT_LABEL } from "~/forms/order-forms";
import { type CreditRefusal } from "~/domain/order-caps";
import { allocateArrivedStock } from "./warehouse.server";

type Actor = { id: string; email: string };
type Context = AuditEvent["context"];

const orderTarget = (order: OrderView) => ({
  type: "order" as const,
  id: order.id,
  label: `${order.number}: ${order.summary} for ${order.userEmail}`,
});

// --- Placing ----------------------------------------------------------------------------------------

export type { CreditRefusal, PaymentRefusal };
export { ACCOUNTS_CANNOT_ORDER };

export type PlaceResult = PlaceOrderResult;

/**
 * What checkout offers a customer: null (card only), or their terms with what is open on account
 * now and what is left of the limit (orders on account awaiting approval take their part too).
 */
export async function checkoutTerms(user: {
  id: string;
  companyId?: string;
  role: string;
  account: { termsDays: number; creditLimitCents: number };
}) {
  if (user.role !== "customer" || !user.account.termsDays) return null;
  const [{ balanceCents }, committedCents] = await Promise.all([openAccountOrders(user), accountCommitmentOf(user)]);
  return { ...user.account, balanceCents, availableCents: Math.max(0, user.account.creditLimitCents - committedCents) };
}

/**
 * Places an order for a customer: by card, by bank transfer against the pro-forma (unpaid, holding
 * its stock as a card order does, until staff record the money), or on account when they have terms
 * and the open balance plus this order stays within their credit limit. An order on account is
 * confirmed and invoiced at once, due after its net days. The steps, the refusals of how the buyer
 * pays among them, are the checkout workflow's (checkout.server.ts).
 */
export async function placeCustomerOrder(
  input: Omit<PlaceOrderInput, "onAccount" | "user" | "pricing" | "spendingLimitCents" | "placer"> & {
    user: { id: string };
  },
  options: Pick<WorkflowOptions, "afterStep"> = {},
): Promise<PlaceResult> {
  const user = await getUserById(input.user.id);
  if (!user) throw new Error("Orders are placed by an existing customer");
  const { termsDays, creditLimitCents } = user.account;
  const hasTerms = Boolean(termsDays) && user.role === "customer";
  return placeOrder(
    {
      ...input,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        companyName: user.company.companyName || null,
        companyId: user.companyId || null,
      },
      placer: user,
      onAccount: input.payment === "account" && hasTerms ? { termsDays, creditLimitCents } : null,
      bankTransfer: input.payment === "bank-transfer",
      // The company's group and tax as they are now: checkout prices the lines with them and freezes them.
      pricing: await customerPricing(user),
      // A buyer's limit is on what the order costs them (their price, with tax).
      spendingLimitCents: user.companyRole === "buyer" ? user.spendingLimitCents : null,
    },
    options,
  );
}

// --- Ending unpaid orders -------------------------------------------------------------------------

/** The customer cancels their own unpaid order; null if it is not theirs or not unpaid (any more). */
export async function cancelCustomerOrder(orderId: string, customer: CustomerScope) {
  const order = await cancelOrder(orderId, customer);
  if (order) await raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
  if (order) await allocateArrivedStock(order.lines.map((line) => line.partId));
  return order;
}

/**
 * An admin removes an unpaid order with no money received, with their reason (the customer reads it),
 * audited; null if it is not that (any more).
 */
export async function removeUnpaidOrder(
  orderId: string,
  { actor, context, reason }: { actor: Actor; context?: Context; reason?: string },
) {
  const order = await removeOrder(orderId, reason);
  if (!order) return null;
  await raiseOrderEvent({ type: "orderCancelled", order, by: "shop" });
  await allocateArrivedStock(order.lines.map((line) => line.partId));
  await audit({
    context,
    actor,
    action: "order.remove",
    target: orderTarget(order),
    before: { status: "Unpaid" },
    after: { status: "Removed", ...(reason ? { reason } : {}) },
  });
  return order;
}

// --- Recording payments -----------------------------------------------------------------------------

export type RecordOutcome =
  | { ok: true; order: OrderView; paidInFull: boolean }
  | {
      ok: false;
      status: 404 | 409 | 422;
      field: "amount" | "reference" | "receivedOn" | null;
      message: string;
      /** A payment like one already recorded: staff may confirm it is a second one. */
      duplicate?: boolean;
    };

/**
 * Records money received outside Stripe. Paying the balance in full makes the order paid, gives
 * it its invoice number (once: the same sequence as card payments) and sends the receipt.
 */
export async function recordPayment(
  orderId: string,
  payment: Omit<RecordedPaymentInput, "recordedBy">,
  { actor, context }: { actor: Actor; context?: Context },
): Promise<RecordOutcome> {
  const result = await addRecordedPayment(orderId, { ...payment, recordedBy: actor.email });
  switch (result.outcome) {
    case "not_found":
      return { ok: false, status: 404, field: null, message: "That order does not exist." };
    case "already_paid":
      return { ok: false, status: 409, field: null, message: `${result.order.number} is already paid.` };
    case "not_payable":
      return {
        ok: false,
        status: 409,
        field: null,
        message: `${result.order.number} is ${ORDER_STATE_WORDS[result.order.state]}: nothing is owed on it.`,
      };
    case "over_balance":
      return {
        ok: false,
        status: 422,
        field: "amount",
        message: `That is more than the balance of ${formatCents(result.order.balanceCents, { currency: result.order.currency })}.`,
      };
    case "before_order":
      return {
        ok: false,
        status: 422,
        field: "receivedOn",
        message: `The money cannot arrive before the order was placed (${formatDay(result.order.createdAt)}).`,
      };
    case "duplicate": {
      const { first } = result;
      const words = `${formatCents(first.amountCents, { currency: result.order.currency })} by ${PAYMENT_METHOD_WORDS[first.method].toLowerCase()}, received ${formatDay(first.receivedOn)}${first.reference ? `, reference ${first.reference}` : ""}`;
      return {
        ok: false,
        status: 409,
        field: result.by === "reference" ? "reference" : "amount",
        duplicate: true,
        message: `This looks like the payment already recorded by ${first.recordedBy}: ${words}. If it is a second payment, tick “${SECOND_PAYMENT_LABEL}” and record it again.`,
      };
    }
  }
  let { order } = result;
  if (result.paidInFull) {
    try {
      const number = await assignInvoiceNumber(order.id);
      if (number) order = { ...order, invoiceNumber: number };
    } catch (error) {
      // The invoice screen numbers a paid order that has none; the payment stands.
      logFailure(`Invoice number not assigned to order ${order.number}`, error);
    }
    await raiseOrderEvent({ type: "orderPaid", order });
  }
  await postToLedger(order);
  await audit({
    context,
    actor,
    action: "order.record-payment",
    target: orderTarget(order),
    after: {
      amountCents: payment.amountCents,
      method: PAYMENT_METHOD_WORDS[payment.method],
      receivedOn: payment.receivedOn.toISOString().slice(0, 10),
      reference: payment.reference || null,
      ...(payment.secondPayment ? { secondPayment: true } : {}),
      balanceCents: order.balanceCents,
      status: ORDER_STATE_WORDS[order.state],
    },
  });
  return { ok: true, order, paidInFull: result.paidInFull };
}

export type ReverseOutcome = { ok: true; order: OrderView } | { ok: false; status: 404 | 409; message: string };

/** Reverses a recorded payment (a wrong entry): kept with the reason, never deleted. */
export async function reversePayment(
  orderId: string,
  paymentId: string,
  reason: string,
  { actor, context }: { actor: Actor; context?: Context },
): Promise<ReverseOutcome> {
  const result = await reverseRecordedPayment(orderId, paymentId, { reason, reversedBy: actor.email });
  if (result.outcome === "not_found") return { ok: false, status: 404, message: "That order does not exist." };
  if (result.outcome === "no_such_payment") {
    return { ok: false, status: 404, message: "That payment is not on this order." };
  }
  if (result.outcome === "already_reversed") {
    return { ok: false, status: 409, message: "That payment is already reversed." };
  }
  if (result.outcome === "credited") {
    return {
      ok: false,
      status: 409,
      message: `This payment was credited back by ${result.notes.join(", ")}: the money went back to the customer, so the payment cannot be reversed while that credit stands.`,
    };
  }
  if (result.outcome !== "reversed") return { ok: false, status: 409, message: "That payment is already reversed." };
  const { order, payment } = result;
  await postToLedger(order);
  await audit({
    context,
    actor,
    action: "order.reverse-payment",
    target: orderTarget(order),
    before: { amountCents: payment.amountCents, method: PAYMENT_METHOD_WORDS[payment.method] },
    after: { reason, balanceCents: order.balanceCents, status: ORDER_STATE_WORDS[order.state] },
  });
  return { ok: true, order };
}
