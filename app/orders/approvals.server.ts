/**
 * Approvals: an order over its buyer's limit per order waits for an owner, who approves it (it goes
 * on as a card order or on account) or declines it with a note (cancelled, its stock back once).
 * The owners are told by mail; the buyer hears the decision.
 */
import { logFailure } from "~/services/log.server";
import { createElement } from "react";
import { ApprovalExpiredEmail, ApprovalNeededEmail, OrderDecidedEmail } from "~/emails/company";
import { listMembers } from "~/models/company-member.server";
import { assignInvoiceNumber } from "~/orders/model/invoice.server";
import { accountCommitmentOf } from "~/orders/model/payments.server";
import { approveOrder, declineOrder, withdrawOrder } from "~/orders/model/approvals.server";
import { getOwnOrder } from "~/orders/model/reads.server";
import { type OrderView } from "~/orders/model/view.server";
import type { UserView } from "~/models/user.server";
import { can } from "~/services/companies.server";
import { queueEmail, shopUrl } from "~/services/email.server";
import { formatCents } from "~/format";
import { formatDateTime } from "~/format";
import { orderPath } from "~/domain/order-lines";
import { markEventRaised } from "~/orders/model/events.server";
import { defineWorkflow, stop, type WorkflowOptions } from "~/services/workflow.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import { allocateArrivedStock } from "./warehouse.server";
import { creditMessage } from "~/domain/order-caps";

/** Each owner of the company gets one message naming the order, the buyer and the limit; true once all are written. */
async function mailApprovalNeeded(order: OrderView, buyer: UserView) {
  const owners = (await listMembers(buyer.companyId)).filter((member) => member.role === "owner");
  for (const owner of owners) {
    await queueEmail({
      key: `approval:${order.id}:${owner.id}`,
      to: owner.email,
      subject: `${order.number} from ${buyer.name} waits for your approval`,
      body: createElement(ApprovalNeededEmail, {
        ownerName: owner.name,
        buyerName: buyer.name,
        orderNumber: order.number,
        total: formatCents(order.totalCents),
        limit: formatCents(buyer.spendingLimitCents ?? 0),
        holdUntil: order.holdUntil ? formatDateTime(order.holdUntil) : "an owner decides",
        approvalsUrl: shopUrl("/dashboard/company#approvals"),
        shopUrl: shopUrl(),
      }),
    });
  }
}

/**
 * The order's "approval" event: the owners' mail, then the note off the order. Never throws: the
 * order is placed and held, and what a failure leaves noted the order event sweep raises again.
 */
export async function raiseApprovalNeeded(order: OrderView, buyer: UserView) {
  try {
    await mailApprovalNeeded(order, buyer);
    await markEventRaised(order.id, "approval");
    return true;
  } catch (error) {
    logFailure(`Approval mail for order ${order.number} not written (the order event sweep will)`, error);
    return false;
  }
}

/** Each owner hears that an order waiting for their approval ran out of time and is cancelled. */
export async function mailApprovalExpired(order: OrderView) {
  try {
    const owners = (await listMembers(order.companyId)).filter((member) => member.role === "owner");
    for (const owner of owners) {
      await queueEmail({
        key: `approval-expired:${order.id}:${owner.id}`,
        to: owner.email,
        subject: `${order.number} from ${order.userName} was not approved in time`,
        body: createElement(ApprovalExpiredEmail, {
          ownerName: owner.name,
          buyerName: order.userName,
          orderNumber: order.number,
          total: formatCents(order.totalCents),
          shopUrl: shopUrl(),
        }),
      });
    }
  } catch (error) {
    // The order is ended and its stock back: a mail that failed must not undo that.
    logFailure(`Approval expiry mail for order ${order.number} not written`, error);
  }
}

export type DecisionOutcome = { ok: true; order: OrderView } | { ok: false; status: 403 | 404 | 409; message: string };

/**
 * The order's "decided" event: the buyer hears the owner's decision (the owner and note are on the
 * order), then the note comes off. Never throws: what a failure leaves, the order event sweep raises.
 */
export async function raiseDecision(order: OrderView) {
  const approval = order.approval;
  if (!approval?.outcome) return true;
  try {
    await queueEmail({
      key: `approval-decided:${order.id}`,
      to: order.userEmail,
      subject: `${order.number} was ${approval.outcome}`,
      body: createElement(OrderDecidedEmail, {
        name: order.userName,
        orderNumber: order.number,
        approved: approval.outcome === "approved",
        ownerName: approval.decidedByName ?? "An owner",
        note: approval.note ?? null,
        orderUrl: shopUrl(orderPath(order.id)),
        shopUrl: shopUrl(),
      }),
    });
    await markEventRaised(order.id, "decided");
    return true;
  } catch (error) {
    logFailure(`Decision mail for order ${order.number} not written (the order event sweep will)`, error);
    return false;
  }
}

type Deciding = { owner: UserView; orderId: string; note: string | null; order: OrderView | null };
type Refused = { ok: false; status: 403 | 404 | 409; message: string };

const NOT_WAITING: Refused = { ok: false, status: 404, message: "That order is not waiting for approval." };
const SWEEPS = "the order event sweep";

/** The owner's approval: within the credit limit on account, then approved (the change stands), invoiced and told. */
const APPROVE = defineWorkflow<Deciding, Refused>("approve-order", [
  {
    name: "check-credit",
    run: async (d) => {
      const current = await getOwnOrder(d.orderId, d.owner);
      if (!current || current.status !== "approval") return stop(NOT_WAITING);
      if (current.paymentMethod !== "account") return;
      // The open balance and the other orders waiting on account (this one is counted as its total).
      const balanceCents = await accountCommitmentOf(d.owner, { except: current.id });
      const limitCents = d.owner.account.creditLimitCents;
      if (balanceCents + current.totalCents > limitCents)
        return stop({
          ok: false as const,
          status: 409 as const,
          message: creditMessage({ limitCents, balanceCents, orderCents: current.totalCents }),
        });
    },
  },
  {
    // One conditional update: of two decisions at once only one applies. It notes the order's
    // "placed" and "decided" events, and on account that it waits for its invoice number.
    name: "approve-order",
    run: async (d) => {
      d.order = await approveOrder(d.orderId, d.owner.companyId, { by: d.owner, note: d.note });
      return d.order ? { orderId: d.orderId } : stop(NOT_WAITING);
    },
    commits: true,
  },
  {
    name: "number-invoice",
    finishedBy: "the stock sweep",
    run: async (d) => {
      if (d.order!.paymentMethod !== "account") return;
      const number = await assignInvoiceNumber(d.order!.id);
      if (number) d.order = { ...d.order!, invoiceNumber: number };
    },
  },
  postStep<Deciding>((d) => d.order?.id),
  {
    // Placed once approved: the customer's mail and the webhooks hear of it now.
    name: "raise-placed-event",
    finishedBy: SWEEPS,
    run: async (d) => raiseOrderEvent({ type: "orderPlaced", order: d.order!, belowMinimum: [] }),
  },
  { name: "tell-buyer", finishedBy: SWEEPS, run: async (d) => raiseDecision(d.order!) },
]);

/** The owner's refusal: cancelled with the note (the change stands, its stock back once), then told. */
const DECLINE = defineWorkflow<Deciding, Refused>("decline-order", [
  {
    name: "decline-order",
    run: async (d) => {
      d.order = await declineOrder(d.orderId, d.owner.companyId, { by: d.owner, note: d.note });
      return d.order ? { orderId: d.orderId } : stop(NOT_WAITING);
    },
    commits: true,
  },
  {
    name: "raise-cancelled-event",
    finishedBy: SWEEPS,
    run: async (d) => raiseOrderEvent({ type: "orderCancelled", order: d.order!, by: "customer" }),
  },
  {
    name: "allocate-stock",
    finishedBy: "the stock sweep",
    run: async (d) => allocateArrivedStock(d.order!.lines.map((line) => line.partId)),
  },
  { name: "tell-buyer", finishedBy: SWEEPS, run: async (d) => raiseDecision(d.order!) },
]);

export const APPROVE_STEPS = APPROVE.stepNames;
export const DECLINE_STEPS = DECLINE.stepNames;

async function decide(
  workflow: typeof APPROVE,
  owner: UserView,
  orderId: string,
  note: string | null,
  options: Pick<WorkflowOptions, "afterStep">,
): Promise<DecisionOutcome> {
  if (!can(owner, "manage"))
    return {
      ok: false,
      status: 403,
      message: `Only an owner can ${workflow === APPROVE ? "approve" : "decline"} orders.`,
    };
  const deciding: Deciding = { owner, orderId, note, order: null };
  const result = await workflow.run(deciding, options);
  return result.ok ? { ok: true, order: deciding.order! } : result.stop;
}

/** An owner approves an order of their company; on account, the credit limit still applies. */
export function approveCompanyOrder(
  owner: UserView,
  orderId: string,
  note: string | null,
  options: Pick<WorkflowOptions, "afterStep"> = {},
) {
  return decide(APPROVE, owner, orderId, note, options);
}

/** An owner declines an order of their company with a note: cancelled, its stock back once. */
export function declineCompanyOrder(
  owner: UserView,
  orderId: string,
  note: string | null,
  options: Pick<WorkflowOptions, "afterStep"> = {},
) {
  return decide(DECLINE, owner, orderId, note, options);
}

/** The buyer withdraws their own order before an owner decides: cancelled, its stock back once. */
export async function withdrawOrderForApproval(buyer: UserView, orderId: string) {
  const order = await withdrawOrder(orderId, buyer.id);
  if (order) await raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
  return order;
}
