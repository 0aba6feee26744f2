import { createElement, type ReactElement } from "react";
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
import { getUserById, listAdminRecipients } from "~/models/user.server";
import { queueEmail, shopUrl } from "./email.server";
import { orderPath } from "./order-lines";
import { unsubscribeUrl } from "./unsubscribe.server";

/**
 * The emails of the order life cycle, written to the outbox right after the change that causes
 * them. Each has a key made of the order and the event, so a double submit, a webhook retry or a
 * second instance never mails twice. None of these ever throws: an order never fails because
 * mail failed (a failure is logged, and the step itself has already been written).
 */

type CustomerOrder = EmailOrder & { userId: string };

async function safely(what: string, send: () => Promise<unknown>) {
  try {
    await send();
  } catch (error) {
    console.error(`Could not write the ${what} email to the outbox:`, error);
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
  }: { key: string; subject: string; essential: boolean; body: (links: { unsubscribeUrl?: string }) => ReactElement },
) {
  const user = await getUserById(order.userId);
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
export async function mailOrderPlaced(order: CustomerOrder, partsAfter: EmailPart[]) {
  await safely("order placed", () =>
    mailCustomer(order, {
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
    await safely("low stock", () =>
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
  }
}

/** The receipt to the customer, and to the admins a paid order to ship. */
export async function mailOrderPaid(order: CustomerOrder) {
  await safely("payment received", () =>
    mailCustomer(order, {
      key: `order:${order.id}:paid`,
      subject: `Receipt for your PartsWorks ${orderName(order)}`,
      essential: false,
      body: (more) => createElement(PaymentReceivedEmail, { order, ...links(order), ...more }),
    }),
  );
  await safely("paid order to ship", () =>
    mailAdmins(
      `order:${order.id}:paid`,
      `Paid ${orderName(order)} to ship: ${order.userName}`,
      createElement(PaidOrderToShipEmail, {
        order,
        manageUrl: shopUrl("/dashboard/manageOrders?status=paid"),
        shopUrl: shopUrl(),
      }),
    ),
  );
}

/** The shipping notice: essential, sent whatever the customer's settings. */
export async function mailOrderShipped(order: CustomerOrder) {
  await safely("order shipped", () =>
    mailCustomer(order, {
      key: `order:${order.id}:shipped`,
      subject: `Your PartsWorks ${orderName(order)} has shipped`,
      essential: true,
      body: () => createElement(OrderShippedEmail, { order, ...links(order) }),
    }),
  );
}

/** Cancelled by the customer, or removed by the shop. */
export async function mailOrderEnded(order: CustomerOrder, by: "customer" | "shop") {
  await safely(by === "customer" ? "order cancelled" : "order removed", () =>
    mailCustomer(order, {
      key: `order:${order.id}:${by === "customer" ? "cancelled" : "removed"}`,
      subject:
        by === "customer"
          ? `You cancelled your PartsWorks ${orderName(order)}`
          : `PartsWorks removed your unpaid ${orderName(order)}`,
      essential: false,
      body: (more) => createElement(OrderEndedEmail, { order, by, ...links(order), ...more }),
    }),
  );
}
