/**
 * Approvals: an order over its buyer's limit per order waits for an owner, who approves it (it goes
 * on as a card order or on account) or declines it with a note (cancelled, its stock back once).
 * The owners are told by mail; the buyer hears the decision.
 */
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
import { raiseOrderEvent } from "./events.server";
import { allocateArrivedStock } from "./warehouse.server";
import { creditMessage } from "~/domain/order-caps";

/** Each owner of the company gets one message naming the order, the buyer and the limit. */
export async function mailApprovalNeeded(order: OrderView, buyer: UserView) {
  try {
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
  } catch (error) {
    // The order is placed and held: a mail that failed must not make it look failed.
    console.error(`Approval mail for order ${order.number} not written`, error);
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
    console.error(`Approval expiry mail for order ${order.number} not written`, error);
  }
}

export type DecisionOutcome = { ok: true; order: OrderView } | { ok: false; status: 403 | 404 | 409; message: string };

async function mailDecision(order: OrderView, owner: UserView, approved: boolean, note: string | null) {
  await queueEmail({
    key: `approval-decided:${order.id}`,
    to: order.userEmail,
    subject: `${order.number} was ${approved ? "approved" : "declined"}`,
    body: createElement(OrderDecidedEmail, {
      name: order.userName,
      orderNumber: order.number,
      approved,
      ownerName: owner.name,
      note,
      orderUrl: shopUrl(orderPath(order.id)),
      shopUrl: shopUrl(),
    }),
  }).catch((error) => console.error(`Decision mail for order ${order.number} not written`, error));
}

/** An owner approves an order of their company; on account, the credit limit still applies. */
export async function approveCompanyOrder(
  owner: UserView,
  orderId: string,
  note: string | null,
): Promise<DecisionOutcome> {
  if (!can(owner, "manage")) return { ok: false, status: 403, message: "Only an owner can approve orders." };
  const current = await getOwnOrder(orderId, owner);
  if (!current || current.status !== "approval") {
    return { ok: false, status: 404, message: "That order is not waiting for approval." };
  }
  if (current.paymentMethod === "account") {
    // The open balance and the other orders waiting on account (this one is counted as its total).
    const balanceCents = await accountCommitmentOf(owner, { except: current.id });
    const limitCents = owner.account.creditLimitCents;
    if (balanceCents + current.totalCents > limitCents) {
      return {
        ok: false,
        status: 409,
        message: creditMessage({ limitCents, balanceCents, orderCents: current.totalCents }),
      };
    }
  }
  let order = await approveOrder(orderId, owner.companyId, { by: owner, note });
  if (!order) return { ok: false, status: 404, message: "That order is not waiting for approval." };
  if (order.paymentMethod === "account") {
    const number = await assignInvoiceNumber(order.id).catch(() => null);
    if (number) order = { ...order, invoiceNumber: number };
  }
  // Placed once approved: the customer's mail and the webhooks hear of it now.
  await raiseOrderEvent({ type: "orderPlaced", order, belowMinimum: [] });
  await mailDecision(order, owner, true, note);
  return { ok: true, order };
}

/** An owner declines an order of their company with a note: cancelled, its stock back once. */
export async function declineCompanyOrder(
  owner: UserView,
  orderId: string,
  note: string | null,
): Promise<DecisionOutcome> {
  if (!can(owner, "manage")) return { ok: false, status: 403, message: "Only an owner can decline orders." };
  const order = await declineOrder(orderId, owner.companyId, { by: owner, note });
  if (!order) return { ok: false, status: 404, message: "That order is not waiting for approval." };
  await raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
  await allocateArrivedStock(order.lines.map((line) => line.partId));
  await mailDecision(order, owner, false, note);
  return { ok: true, order };
}

/** The buyer withdraws their own order before an owner decides: cancelled, its stock back once. */
export async function withdrawOrderForApproval(buyer: UserView, orderId: string) {
  const order = await withdrawOrder(orderId, buyer.id);
  if (order) await raiseOrderEvent({ type: "orderCancelled", order, by: "customer" });
  return order;
}
