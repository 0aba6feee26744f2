import { createElement, type ReactElement } from "react";
import { logFailure } from "~/services/log.server";
import {
  LowStockEmail,
  OrderEndedEmail,
  OrderPlacedEmail,
  OrderShippedEmail,
  PaidOrderToShipEmail,
  PaymentReceivedEmail,
  orderName,
  type EmailOrder,
  type EmailPart,
} from "~/emails/orders";
import { HoldEndingEmail, OrderExpiredEmail } from "~/emails/holds";
import { BackorderAllocatedEmail, ParcelShippedEmail } from "~/emails/warehouse";
import { ReturnEmail, returnSubject } from "~/emails/returns";
import { rmaPath } from "~/domain/returns";
import { CreditNoteEmail, creditNoteSubject } from "~/emails/credit-notes";
import { creditNotePath } from "~/domain/credit-notes";
import type { OrderView } from "~/orders/model/view.server";
import { getUserById, listAdminRecipients, type UserView } from "~/models/user.server";
import { queueEmail, shopUrl } from "~/services/email.server";
import { orderPath } from "~/domain/order-lines";
import { formatDateTime } from "~/format";
import { unsubscribeUrl } from "~/services/unsubscribe.server";

/**
 * The emails of the order life cycle, written to the outbox right after the change that causes
 * them. Each has a key made of the order and the event, so a double submit, a webhook retry, a
 * second instance or the order mail sweep never mails twice. None of these ever throws: an order
 * never fails because mail failed. Each returns whether all its messages are written (or not due);
 * on false the event stays pending on the order and the sweep (orders/event-sweep.server.ts) writes
 * it later.
 */

type CustomerOrder = EmailOrder & { userId: string };

async function safely(what: string, send: () => Promise<unknown>) {
  try {
    await send();
    return true;
  } catch (error) {
    logFailure(`Could not write the ${what} email to the outbox; the order mail sweep will`, error);
    return false;
  }
}

/**
 * To the customer at their current address. Non-essential mail (`essential: false`) is skipped
 * when they turned order updates off, and carries an unsubscribe link and List-Unsubscribe headers.
 */
async function mailCustomer(
  order: CustomerOrder,
  {
    key,
    subject,
    essential,
    body,
    customer,
  }: {
    key: string;
    subject: string;
    essential: boolean;
    body: (links: { unsubscribeUrl?: string }) => ReactElement;
    /** The customer as the caller just read them (checkout): not read again. */
    customer?: UserView;
  },
) {
  const user = customer?.id === order.userId ? customer : await getUserById(order.userId);
  if (!essential && user && !user.orderUpdateEmails) return;
  const unsubscribe = !essential && user ? unsubscribeUrl(user.id) : undefined;
  await queueEmail({
    key,
    to: user?.email ?? order.userEmail,
    subject,
    body: body({ unsubscribeUrl: unsubscribe }),
    headers: unsubscribe
      ? { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
      : undefined,
  });
}

/** One message to all the admins (the shop's staff see each other's addresses), not one each. */
async function mailAdmins(key: string, subject: string, body: ReactElement) {
  const admins = await listAdminRecipients();
  if (!admins.length) return;
  await queueEmail({ key: `${key}:admins`, to: admins.map((admin) => admin.email).join(", "), subject, body });
}

const links = (order: { id: string }) => ({ shopUrl: shopUrl(), orderUrl: shopUrl(orderPath(order.id)) });

/** Order placed (with the payment link), and to the admins each part whose stock it took below the minimum order. */
export async function mailOrderPlaced(order: CustomerOrder, partsAfter: EmailPart[], customer?: UserView) {
  let written = await safely("order placed", () =>
    mailCustomer(order, {
      customer,
      key: `order:${order.id}:placed`,
      subject: `Your PartsWorks ${orderName(order)} is placed`,
      essential: false,
      body: (more) =>
        createElement(OrderPlacedEmail, {
          order,
          payUrl: shopUrl(`/dashboard/payment/${order.id}`),
          ...links(order),
          ...more,
        }),
    }),
  );
  for (const part of partsAfter.filter((p) => p.availableQuantity < p.minOrderQuantity)) {
    const notice = await safely("low stock", () =>
      mailAdmins(
        `part:${part.id}:low-stock:${order.id}`,
        `Low stock: ${part.name} (${part.partNumber}) is below its minimum order`,
        createElement(LowStockEmail, {
          part,
          editUrl: shopUrl(`/dashboard/manageProducts/${part.id}/edit`),
          shopUrl: shopUrl(),
        }),
      ),
    );
    written &&= notice;
  }
  return written;
}

/**
 * The receipt to the customer (essential: a receipt of money taken is sent whatever their
 * settings), and to the admins a paid order to ship.
 */
export async function mailOrderPaid(order: CustomerOrder) {
  const receipt = await safely("payment received", () =>
    mailCustomer(order, {
      key: `order:${order.id}:paid`,
      subject: `Receipt for your PartsWorks ${orderName(order)}`,
      essential: true,
      body: () => createElement(PaymentReceivedEmail, { order, ...links(order) }),
    }),
  );
  const toShip = await safely("paid order to ship", () =>
    mailAdmins(
      `order:${order.id}:paid`,
      `Paid ${orderName(order)} to ship: ${order.userName}`,
      createElement(PaidOrderToShipEmail, {
        order,
        manageUrl: shopUrl("/dashboard/manageOrders?status=pending"),
        shopUrl: shopUrl(),
      }),
    ),
  );
  return receipt && toShip;
}

/** The shipping notice: essential, sent whatever the customer's settings. */
export async function mailOrderShipped(order: CustomerOrder & { shipments?: unknown[] }) {
  // An order that left in several parcels had a mail for each (mailParcelShipped).
  if ((order.shipments?.length ?? 0) > 1) return true;
  return safely("order shipped", () =>
    mailCustomer(order, {
      key: `order:${order.id}:shipped`,
      subject: `Your PartsWorks ${orderName(order)} has shipped`,
      essential: true,
      body: () => createElement(OrderShippedEmail, { order, ...links(order) }),
    }),
  );
}

/**
 * Cancelled by the customer, or removed by the shop (with staff's reason). An order an owner declined is
 * cancelled too, but its buyer hears of it once, from the approvals service (who declined it and why): not here.
 */
export async function mailOrderEnded(
  order: CustomerOrder & { approval?: { outcome: string | null } | null; cancelReason?: string | null },
  by: "customer" | "shop",
) {
  if (order.approval?.outcome === "declined") return true;
  // A paid or invoiced order (on account) the shop cancelled is told by its credit note's mail (mailCreditNote).
  if (by === "shop" && (("paidAt" in order && order.paidAt) || ("invoiceNumber" in order && order.invoiceNumber)))
    return true;
  return safely(by === "customer" ? "order cancelled" : "order removed", () =>
    mailCustomer(order, {
      key: `order:${order.id}:${by === "customer" ? "cancelled" : "removed"}`,
      subject:
        by === "customer"
          ? `You cancelled your PartsWorks ${orderName(order)}`
          : `PartsWorks removed your unpaid ${orderName(order)}`,
      essential: false,
      body: (more) =>
        createElement(OrderEndedEmail, {
          order,
          by,
          reason: by === "shop" ? (order.cancelReason ?? null) : null,
          ...links(order),
          ...more,
        }),
    }),
  );
}

/** The hold of an unpaid order ends soon (HOLD reminder); its key names the hold's end, so an extended hold reminds again. */
export async function mailHoldEnding(order: CustomerOrder & { holdUntil: string | null }) {
  if (!order.holdUntil) return true;
  const holdUntil = order.holdUntil;
  return safely("hold ending", () =>
    mailCustomer(order, {
      key: `order:${order.id}:reminder:${holdUntil}`,
      subject: `Your PartsWorks ${orderName(order)} is held until ${formatDateTime(holdUntil)}`,
      essential: true,
      body: () =>
        createElement(HoldEndingEmail, {
          order,
          holdUntil,
          ...links(order),
          payUrl: shopUrl(`/dashboard/payment/${order.id}`),
        }),
    }),
  );
}

/** The hold ended unpaid: the order is cancelled as expired. */
export async function mailOrderExpired(order: CustomerOrder) {
  return safely("order expired", () =>
    mailCustomer(order, {
      key: `order:${order.id}:expired`,
      subject: `Your unpaid PartsWorks ${orderName(order)} is cancelled`,
      essential: true,
      body: () => createElement(OrderExpiredEmail, { order, ...links(order) }),
    }),
  );
}

/** A parcel of the order left: one mail per parcel (its id is in the key). */
export async function mailParcelShipped(order: OrderView, shipmentId: string) {
  const parcel = order.shipments.find((shipment) => shipment.id === shipmentId);
  if (!parcel) return true;
  return safely("parcel shipped", () =>
    mailCustomer(order, {
      key: `order:${order.id}:shipment:${shipmentId}`,
      subject: `Parcel ${parcel.number} of your PartsWorks ${orderName(order)} has shipped`,
      essential: true,
      body: () => createElement(ParcelShippedEmail, { order, parcel, ...links(order) }),
    }),
  );
}

/** Backordered units were allocated: one mail per step (what is still backordered is in the key). */
export async function mailBackorderAllocated(order: OrderView) {
  return safely("backorder allocated", () =>
    mailCustomer(order, {
      key: `order:${order.id}:allocated:${order.backorderedUnits}`,
      subject: `Stock arrived for your PartsWorks ${orderName(order)}`,
      essential: true,
      body: () => createElement(BackorderAllocatedEmail, { order, ...links(order) }),
    }),
  );
}

/** Each step of a return (asked, approved with its RMA number, declined, received): one message per step. */
export async function mailReturnStep(order: OrderView, returnId: string) {
  const entry = order.returns.find((candidate) => candidate.id === returnId);
  if (!entry) return true;
  return safely(`return ${entry.status}`, () =>
    mailCustomer(order, {
      key: `order:${order.id}:return:${returnId}:${entry.status}`,
      subject: returnSubject(order, entry),
      essential: true,
      body: () =>
        createElement(ReturnEmail, {
          order,
          entry,
          ...links(order),
          ...(entry.number ? { rmaUrl: shopUrl(rmaPath(order.id, entry.number)) } : {}),
        }),
    }),
  );
}

/** A credit note was issued: one message per credit note, with its link. */
export async function mailCreditNote(order: OrderView, creditNoteId: string) {
  const note = order.creditNotes.find((candidate) => candidate.id === creditNoteId);
  if (!note) return true;
  return safely("credit note", () =>
    mailCustomer(order, {
      key: `order:${order.id}:credit-note:${creditNoteId}`,
      subject: creditNoteSubject(order, note),
      essential: true,
      body: () =>
        createElement(CreditNoteEmail, {
          order,
          note,
          ...links(order),
          creditNoteUrl: shopUrl(creditNotePath(order.id, note.number)),
        }),
    }),
  );
}
