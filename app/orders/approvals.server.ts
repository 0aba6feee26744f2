/**
 * Approvals: an order over its buyer's limit per order waits for an owner, who approves it (it goes
 * on as a card order or on account) or declines it with a reason (cancelled, its stock back once).
 * The owners are told by mail, the buyer that it waits and then the decision, the accounts members
 * of its invoice; each decision is in the audit log.
 */
import { logFailure } from "~/services/log.server";
import { createElement } from "react";
import {
  ApprovalExpiredEmail,
  ApprovalNeededEmail,
  ApprovalSubmittedEmail,
  InvoiceIssuedEmail,
  OrderApprovedEmail,
  OrderDeclinedEmail,
} from "~/emails/company";
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
import { formatDate, formatDateTime } from "~/format";
import { formatInvoiceDocument } from "~/domain/ledger";
import { audit, type AuditEvent } from "~/services/audit-trail.server";
import { orderPath } from "~/domain/order-lines";
import { markEventRaised } from "~/orders/model/events.server";
import { defineWorkflow, stop, type WorkflowOptions } from "~/services/workflow.server";
import { raiseOrderEvent } from "./events.server";
import { postStep } from "./ledger.server";
import { NOT_AUDITED_AGAIN, orderTarget } from "./workflow-parts.server";
import { allocateArrivedStock } from "./warehouse.server";
import { creditMessage } from "~/domain/order-caps";
import { DECLINE_REASON_NEEDED } from "~/forms/company-forms";

/**
 * Each owner of the company gets one message naming the order, the buyer and the limit, and the
 * buyer one saying who decides; true once all are written.
 */
async function mailApprovalNeeded(order: OrderView, buyer: UserView) {
  const owners = (await listMembers(buyer.companyId)).filter((member) => member.role === "owner");
  const holdUntil = order.holdUntil ? formatDateTime(order.holdUntil) : "an owner decides";
  await queueEmail({
    key: `approval-submitted:${order.id}`,
    to: buyer.email,
    subject: `${order.number} is submitted for approval`,
    body: createElement(ApprovalSubmittedEmail, {
      name: buyer.name,
      orderNumber: order.number,
      total: formatCents(order.totalCents, { currency: order.currency }),
      limit: formatCents(order.approval?.limitCents ?? buyer.spendingLimitCents ?? 0, { currency: order.currency }),
      approvers: owners.length ? owners.map((owner) => owner.name).join(" or ") : "an owner of your company",
      holdUntil,
      orderUrl: shopUrl(orderPath(order.id)),
      shopUrl: shopUrl(),
    }),
  });
  for (const owner of owners) {
    await queueEmail({
      key: `approval:${order.id}:${owner.id}`,
      to: owner.email,
      subject: `${order.number} from ${buyer.name} waits for your approval`,
      body: createElement(ApprovalNeededEmail, {
        ownerName: owner.name,
        buyerName: buyer.name,
        orderNumber: order.number,
        total: formatCents(order.totalCents, { currency: order.currency }),
        limit: formatCents(buyer.spendingLimitCents ?? 0, { currency: order.currency }),
        holdUntil,
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
          total: formatCents(order.totalCents, { currency: order.currency }),
          shopUrl: shopUrl(),
        }),
      });
    }
  } catch (error) {
    // The order is ended and its stock back: a mail that failed must not undo that.
    logFailure(`Approval expiry mail for order ${order.number} not written`, error);
  }
}

export type DecisionOutcome =
  { ok: true; order: OrderView } | { ok: false; status: 400 | 403 | 404 | 409; message: string };

/** What an approved order asks of its buyer now, in a sentence. */
function nextStep(order: OrderView) {
  if (order.paymentMethod === "account")
    return `It is invoiced on account${order.dueAt ? `, due ${formatDate(order.dueAt)}` : ""}.`;
  const how = order.paymentMethod === "bank-transfer" ? "by bank transfer against the pro-forma invoice" : "by card";
  return `Pay it ${how}${order.holdUntil ? ` by ${formatDateTime(order.holdUntil)}; its stock is held until then` : ""}.`;
}

/** Each accounts member of the company hears of the invoice an approved order on account was given. */
async function mailInvoiceIssued(order: OrderView, ownerName: string) {
  if (!order.invoiceNumber) return;
  const invoice = formatInvoiceDocument(order.invoiceNumber);
  const accounts = (await listMembers(order.companyId)).filter((member) => member.role === "accounts");
  for (const member of accounts) {
    await queueEmail({
      key: `invoice-issued:${order.id}:${member.id}`,
      to: member.email,
      subject: `Invoice ${invoice} for ${order.number} is issued`,
      body: createElement(InvoiceIssuedEmail, {
        name: member.name,
        invoiceNumber: invoice,
        orderNumber: order.number,
        total: formatCents(order.totalCents, { currency: order.currency }),
        buyerName: order.userName,
        ownerName,
        due: order.dueAt ? formatDate(order.dueAt) : "on its terms",
        invoiceUrl: shopUrl(`/documents/${order.id}/invoice`),
        shopUrl: shopUrl(),
      }),
    });
  }
}

/**
 * The order's "decided" event: the buyer hears the owner's decision (the owner and reason are on the
 * order), and on account the accounts members hear of its invoice; then the note comes off. Never
 * throws: what a failure leaves, the order event sweep raises.
 */
export async function raiseDecision(order: OrderView) {
  const approval = order.approval;
  if (!approval?.outcome) return true;
  const ownerName = approval.decidedByName ?? "An owner";
  const decidedOn = approval.decidedAt ? formatDateTime(approval.decidedAt) : "";
  const common = {
    name: order.userName,
    orderNumber: order.number,
    ownerName,
    decidedOn,
    orderUrl: shopUrl(orderPath(order.id)),
    shopUrl: shopUrl(),
  };
  try {
    await queueEmail({
      key: `approval-decided:${order.id}`,
      to: order.userEmail,
      subject: `${order.number} was ${approval.outcome}`,
      body:
        approval.outcome === "approved"
          ? createElement(OrderApprovedEmail, { ...common, note: approval.note, next: nextStep(order) })
          : createElement(OrderDeclinedEmail, { ...common, reason: approval.note }),
    });
    if (approval.outcome === "approved" && order.paymentMethod === "account") await mailInvoiceIssued(order, ownerName);
    await markEventRaised(order.id, "decided");
    return true;
  } catch (error) {
    logFailure(`Decision mail for order ${order.number} not written (the order event sweep will)`, error);
    return false;
  }
}

type Deciding = {
  owner: UserView;
  orderId: string;
  note: string | null;
  order: OrderView | null;
  context?: AuditEvent["context"];
};
type Refused = { ok: false; status: 400 | 403 | 404 | 409; message: string };

/** The decision in the audit log: who, when (the entry's time), the order, and the note or reason. */
function auditStep(action: "order.approve" | "order.decline") {
  return {
    name: action === "order.approve" ? "audit-approve" : "audit-decline",
    finishedBy: NOT_AUDITED_AGAIN,
    run: async (d: Deciding) =>
      audit({
        context: d.context,
        actor: { id: d.owner.id, email: d.owner.email },
        action,
        target: orderTarget(d.order!),
        before: { status: "approval" },
        after: {
          status: d.order!.status,
          ...(d.note ? { [action === "order.approve" ? "note" : "reason"]: d.note } : {}),
        },
      }),
  };
}

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
          message: creditMessage({ limitCents, balanceCents, orderCents: current.totalCents }, current.currency),
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
  auditStep("order.approve"),
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

/** The owner's refusal: cancelled with the reason (the change stands, its stock back once), then told. */
const DECLINE = defineWorkflow<Deciding, Refused>("decline-order", [
  {
    name: "decline-order",
    run: async (d) => {
      d.order = await declineOrder(d.orderId, d.owner.companyId, { by: d.owner, note: d.note });
      return d.order ? { orderId: d.orderId } : stop(NOT_WAITING);
    },
    commits: true,
  },
  auditStep("order.decline"),
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

type DecideOptions = Pick<WorkflowOptions, "afterStep"> & { context?: AuditEvent["context"] };
export const DECLINE_STEPS = DECLINE.stepNames;

async function decide(
  workflow: typeof APPROVE,
  owner: UserView,
  orderId: string,
  note: string | null,
  { context, ...options }: DecideOptions,
): Promise<DecisionOutcome> {
  if (!can(owner, "manage"))
    return {
      ok: false,
      status: 403,
      message: `Only an owner can ${workflow === APPROVE ? "approve" : "decline"} orders.`,
    };
  // The buyer is told why: a decline without a reason is refused before anything is read.
  if (workflow === DECLINE && !note?.trim()) return { ok: false, status: 400, message: DECLINE_REASON_NEEDED };
  const deciding: Deciding = { owner, orderId, note, order: null, context };
  const result = await workflow.run(deciding, options);
  return result.ok ? { ok: true, order: deciding.order! } : result.stop;
}

/** An owner approves an order of their company; on account, the credit limit still applies. */
export function approveCompanyOrder(
  owner: UserView,
  orderId: string,
  note: string | null,
  options: DecideOptions = {},
) {
  return decide(APPROVE, owner, orderId, note, options);
}

/** An owner declines an order of their company with a reason for its buyer: cancelled, its stock back once. */
export function declineCompanyOrder(owner: UserView, orderId: string, reason: string, options: DecideOptions = {}) {
  return decide(DECLINE, owner, orderId, reason, options);
}

/** The buyer withdraws their own order before an owner decides: cancelled, its stock back once. */
export async function withdrawOrderForApproval(buyer: UserView, orderId: string) {
  const order = await withdrawOrder(orderId, buyer.id);
  if (order) await raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
  return order;
}
