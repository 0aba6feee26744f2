import { formatDay } from "~/domain/order-states";
import { formatCents } from "~/format";
import { orderPath } from "~/domain/order-lines";
import type { Currency } from "~/domain/money";
import { redirectWithSuccess } from "~/services/toast.server";

/**
 * After checkout (the cart, the quick-order pad): "Your Order is Placed", and on to pay the order.
 * The pay screen is always a full page load (its own Content Security Policy admits Stripe), so the
 * redirect asks Remix for a document navigation: a client navigation would read the toast's cookie
 * first and the pay screen's own reload would arrive without it.
 */
export function redirectToPay(orderId: string) {
  return redirectWithSuccess(
    `/dashboard/payment/${orderId}`,
    { message: "Your Order is Placed", description: "Order Placed Successfully!" },
    { headers: { "X-Remix-Reload-Document": "true" } },
  );
}

/** After placing: a card order goes on to pay; an order on account is confirmed, so to its page. */
export function redirectAfterOrder(order: {
  id: string;
  number: string;
  /** The currency of the sale (the credit it names is in it). */
  currency?: Currency;
  paymentMethod: string;
  dueAt: string | null;
  status?: string;
  creditAppliedCents?: number;
  paidAt?: string | null;
}) {
  // The account's credit covered it: paid at once, nothing to pay.
  if (order.paidAt && order.creditAppliedCents) {
    return redirectWithSuccess(orderPath(order.id), {
      message: "Your Order is Placed",
      description: `Order Placed Successfully! ${order.number} is paid in full from your account's credit (${formatCents(order.creditAppliedCents, { currency: order.currency })}).`,
    });
  }
  // Over the buyer's limit: nothing to pay yet, the owner decides first.
  if (order.status === "approval") {
    return redirectWithSuccess(orderPath(order.id), {
      message: "Submitted for approval",
      description: `${order.number} is over your limit per order: it waits for an owner's approval, with its stock held. Nothing is due until then.`,
    });
  }
  if (order.paymentMethod !== "account") return redirectToPay(order.id);
  return redirectWithSuccess(orderPath(order.id), {
    message: "Your Order is Placed",
    description: `Order Placed Successfully! ${order.number} is confirmed on account${order.dueAt ? `, invoice due ${formatDay(order.dueAt)}` : ""}.`,
  });
}
