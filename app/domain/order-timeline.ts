import type { OrderPaymentMethod } from "~/domain/order-payments";
import { formatCents, formatQuantity } from "~/format";
import { formatDay, PAYMENT_METHOD_WORDS } from "~/domain/order-states";
import { RETURN_CONDITION_WORDS, RETURN_REASON_WORDS } from "~/domain/returns";
import type { Currency } from "~/domain/money";

/** An order's timeline: every event with its time and who did it, in the order they happened. */
export type TimelineEvent = {
  event:
    | "placed"
    | "approved"
    | "declined"
    | "reordered"
    | "account"
    | "payment"
    | "reversal"
    | "paid"
    | "shipped"
    | "parcel"
    | "cancelled"
    | "removed"
    | "expired"
    | "return-requested"
    | "return-approved"
    | "return-declined"
    | "return-received"
    | "credit-note"
    | "refund"
    | "refund-failed"
    | "payout";
  label: string;
  at: string;
  /** Who did it; empty when the label names them ("Approved by Olga Owner"). */
  actor: string;
  /** A page the event names (the order a reorder came from). */
  link?: { to: string; text: string };
};

type TimedOrder = {
  /** The currency of the sale: the amounts the events name are in it (US dollars when not named). */
  currency?: Currency;
  transactionId?: string | null;
  paymentMethod?: OrderPaymentMethod;
  dueAt?: string | null;
  payments?: {
    amountCents: number;
    method: keyof typeof PAYMENT_METHOD_WORDS;
    receivedOn: string;
    recordedAt: string;
    recordedBy: string;
    reference: string;
    reversedAt: string | null;
    reversedBy: string | null;
    reversalReason: string | null;
  }[];
  reorderedFromNumber?: string | null;
  /** An order over its buyer's limit: the owner's decision, once made. */
  approval?: {
    outcome: "approved" | "declined" | null;
    decidedByName: string | null;
    decidedAt: string | null;
    note: string | null;
  } | null;
  userName: string;
  userEmail: string;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  cancelledAt: string | null;
  removedAt: string | null;
  expiredAt?: string | null;
  reorderedFrom?: string | null;
  /** The parcels it left in (an order shipped whole shows only "Shipped"). */
  shipments?: { id: string; number: number; shippedAt: string; lines: { productName: string; quantity: number }[] }[];
  /** Its returns: each step (asked, approved or declined, received) is an event. */
  returns?: {
    number: string | null;
    status: "requested" | "approved" | "declined" | "received";
    reason: keyof typeof RETURN_REASON_WORDS;
    lines: {
      productName: string;
      quantity: number;
      receivedQuantity: number | null;
      condition: keyof typeof RETURN_CONDITION_WORDS | null;
    }[];
    requestedAt: string;
    requestedByName: string;
    decidedAt: string | null;
    decidedBy: string | null;
    declineReason: string | null;
    receivedAt: string | null;
    receivedBy: string | null;
  }[];
  /** Its credit notes, and the refund of each to the card once it succeeded. */
  creditNotes?: {
    number: string;
    issuedAt: string;
    issuedBy: string | null;
    totalCents: number;
    refundCents: number;
    refund: { id: string | null; status: string; refundedAt: string | null; failedAt?: string | null } | null;
    accountCreditCents?: number;
    payout?: { paidAt: string; amountCents: number; reference: string; by: string | null } | null;
  }[];
};

/**
 * The customer who placed the order reads "you" and "the shop", a colleague of theirs reads the
 * placer's name; an admin reads the customer's name and, from the audit log, the email of the
 * admin who shipped or removed the order. Amounts read in the order's currency.
 */
export function orderTimeline(
  order: TimedOrder,
  viewer: "customer" | "colleague" | "admin",
  shopActors: Partial<Record<"shipped" | "removed", string>> = {},
): TimelineEvent[] {
  const customer =
    viewer === "customer" ? "you" : viewer === "colleague" ? order.userName : `${order.userName} (${order.userEmail})`;
  const decision = order.approval?.outcome && order.approval.decidedAt ? order.approval : null;
  const money = (cents: number) => formatCents(cents, { currency: order.currency });
  const shop = (event: "shipped" | "removed") =>
    viewer === "admin" && shopActors[event] ? `the shop (${shopActors[event]})` : "the shop";
  const events: (TimelineEvent | null)[] = [
    { event: "placed", label: "Placed", at: order.createdAt, actor: customer },
    order.reorderedFrom
      ? {
          event: "reordered",
          label: "Reordered from",
          at: order.createdAt,
          actor: customer,
          link: {
            to: `${viewer === "admin" ? "/dashboard/manageOrders" : "/dashboard/orders"}/${order.reorderedFrom}`,
            text: order.reorderedFromNumber ?? "an earlier order",
          },
        }
      : null,
    decision
      ? {
          event: decision.outcome === "approved" ? "approved" : "declined",
          label:
            decision.outcome === "approved"
              ? `Approved by ${decision.decidedByName ?? "an owner"}${decision.note ? `: “${decision.note}”` : ""}`
              : `Declined by ${decision.decidedByName ?? "an owner"}${decision.note ? `, reason: “${decision.note}”` : ""}`,
          at: decision.decidedAt ?? order.createdAt,
          actor: "",
        }
      : null,
    order.paymentMethod === "account"
      ? {
          event: "account",
          label: `On account${order.dueAt ? `, due ${formatDay(order.dueAt)}` : ""}`,
          at: order.createdAt,
          actor: customer,
        }
      : null,
    ...(order.payments ?? []).flatMap((payment): TimelineEvent[] => {
      const what = `${money(payment.amountCents)} by ${PAYMENT_METHOD_WORDS[payment.method].toLowerCase()}, received ${formatDay(payment.receivedOn)}${payment.reference ? `, reference ${payment.reference}` : ""}`;
      const recorded: TimelineEvent = {
        event: "payment",
        label: `Payment recorded: ${what}`,
        at: payment.recordedAt,
        actor: viewer === "admin" ? `the shop (${payment.recordedBy})` : "the shop",
      };
      if (!payment.reversedAt) return [recorded];
      return [
        recorded,
        {
          event: "reversal",
          label: `Payment reversed (${money(payment.amountCents)}): ${payment.reversalReason ?? ""}`,
          at: payment.reversedAt,
          actor: viewer === "admin" ? `the shop (${payment.reversedBy})` : "the shop",
        },
      ];
    }),
    order.paidAt
      ? {
          event: "paid",
          label: "Paid",
          at: order.paidAt,
          actor: order.transactionId
            ? `${customer}, by card through Stripe`
            : `${customer}, payments recorded by the shop`,
        }
      : null,
    ...(order.shipments?.some((parcel) => parcel.id !== "whole")
      ? order.shipments.map((parcel): TimelineEvent => ({
          event: "parcel",
          label: `Parcel ${parcel.number} shipped: ${parcel.lines.map((line) => `${formatQuantity(line.quantity)} × ${line.productName}`).join("; ")}`,
          at: parcel.shippedAt,
          actor: shop("shipped"),
        }))
      : []),
    order.shippedAt ? { event: "shipped", label: "Shipped", at: order.shippedAt, actor: shop("shipped") } : null,
    ...(order.returns ?? []).flatMap((entry): TimelineEvent[] => {
      const staff = (email: string | null) => (viewer === "admin" && email ? `the shop (${email})` : "the shop");
      const what = entry.lines.map((line) => `${formatQuantity(line.quantity)} × ${line.productName}`).join("; ");
      const steps: TimelineEvent[] = [
        {
          event: "return-requested",
          label: `Return asked for (${RETURN_REASON_WORDS[entry.reason].toLowerCase()}): ${what}`,
          at: entry.requestedAt,
          actor: viewer === "admin" ? entry.requestedByName : entry.requestedByName || customer,
        },
      ];
      if (entry.decidedAt && entry.status === "declined")
        steps.push({
          event: "return-declined",
          label: `Return declined: ${entry.declineReason ?? ""}`,
          at: entry.decidedAt,
          actor: staff(entry.decidedBy),
        });
      else if (entry.decidedAt)
        steps.push({
          event: "return-approved",
          label: `Return approved as ${entry.number ?? "a return"}`,
          at: entry.decidedAt,
          actor: staff(entry.decidedBy),
        });
      if (entry.receivedAt)
        steps.push({
          event: "return-received",
          label: `Return ${entry.number ?? ""} received: ${entry.lines.map((line) => `${formatQuantity(line.receivedQuantity ?? 0)} × ${line.productName}${line.condition && line.receivedQuantity ? ` (${RETURN_CONDITION_WORDS[line.condition].toLowerCase()})` : ""}`).join("; ")}`,
          at: entry.receivedAt,
          actor: staff(entry.receivedBy),
        });
      return steps;
    }),
    ...(order.creditNotes ?? []).flatMap((note): TimelineEvent[] => [
      {
        event: "credit-note",
        label: `Credit note ${note.number} issued: ${money(note.totalCents)}`,
        at: note.issuedAt,
        actor: viewer === "admin" && note.issuedBy ? `the shop (${note.issuedBy})` : "the shop",
      },
      ...(note.refund?.status === "succeeded" && note.refund.refundedAt
        ? [
            {
              event: "refund" as const,
              label: `Refunded to the card: ${money(note.refundCents)}${viewer === "admin" && note.refund.id ? ` (${note.refund.id})` : ""}`,
              at: note.refund.refundedAt,
              actor: "the shop, through Stripe",
            },
          ]
        : []),
      ...((note.refund?.status === "failed" || note.refund?.status === "canceled") && note.refund.failedAt
        ? [
            {
              event: "refund-failed" as const,
              label: `Refund to the card failed: ${money(note.refundCents)} to pay back by bank transfer`,
              at: note.refund.failedAt,
              actor: "the shop, told by Stripe",
            },
          ]
        : []),
      ...(note.payout
        ? [
            {
              event: "payout" as const,
              label: `Credit of ${note.number} paid out by bank transfer: ${money(note.payout.amountCents)}, reference ${note.payout.reference}`,
              at: note.payout.paidAt,
              actor: viewer === "admin" && note.payout.by ? `the shop (${note.payout.by})` : "the shop",
            },
          ]
        : []),
    ]),
    // A declined order is cancelled by the decline: its entry says so.
    order.cancelledAt && decision?.outcome !== "declined"
      ? {
          event: "cancelled",
          label: order.creditNotes?.length ? "Cancelled before it shipped, and credited" : "Cancelled",
          at: order.cancelledAt,
          // An invoiced order is cancelled (and credited) by the shop only.
          actor: order.creditNotes?.length ? "the shop" : customer,
        }
      : null,
    order.removedAt ? { event: "removed", label: "Removed", at: order.removedAt, actor: shop("removed") } : null,
    order.expiredAt
      ? {
          event: "expired",
          label: "Expired unpaid: the hold on its stock ran out and the stock went back on sale",
          at: order.expiredAt,
          actor: "the shop",
        }
      : null,
  ];
  // Placing first; the rest in the order they happened (an order on account may ship before it is paid).
  const present = events.filter((event): event is TimelineEvent => event !== null);
  const opening = present.filter((event) => ["placed", "reordered", "account"].includes(event.event));
  const later = present
    .filter((event) => !opening.includes(event))
    .map((event, index) => ({ event, index }))
    .sort((a, b) => a.event.at.localeCompare(b.event.at) || a.index - b.index)
    .map(({ event }) => event);
  return [...opening, ...later];
}
