/** An order's timeline: every event with its time and who did it, in the order they happened. */
export type TimelineEvent = {
  event: "placed" | "reordered" | "paid" | "shipped" | "cancelled" | "removed";
  label: string;
  at: string;
  actor: string;
  /** A page the event names (the order a reorder came from). */
  link?: { to: string; text: string };
};

type TimedOrder = {
  userName: string;
  userEmail: string;
  createdAt: string;
  paidAt: string | null;
  shippedAt: string | null;
  cancelledAt: string | null;
  removedAt: string | null;
  reorderedFrom?: string | null;
};

/**
 * The customer reads "you" and "the shop"; an admin reads the customer's name and, from the audit
 * log, the email of the admin who shipped or removed the order.
 */
export function orderTimeline(
  order: TimedOrder,
  viewer: "customer" | "admin",
  shopActors: Partial<Record<"shipped" | "removed", string>> = {},
): TimelineEvent[] {
  const customer = viewer === "customer" ? "you" : `${order.userName} (${order.userEmail})`;
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
            text: `order #${order.reorderedFrom}`,
          },
        }
      : null,
    order.paidAt
      ? { event: "paid", label: "Paid", at: order.paidAt, actor: `${customer}, by card through Stripe` }
      : null,
    order.shippedAt ? { event: "shipped", label: "Shipped", at: order.shippedAt, actor: shop("shipped") } : null,
    order.cancelledAt ? { event: "cancelled", label: "Cancelled", at: order.cancelledAt, actor: customer } : null,
    order.removedAt ? { event: "removed", label: "Removed", at: order.removedAt, actor: shop("removed") } : null,
  ];
  // The life cycle's own order (placed, paid, shipped; or placed, cancelled or removed) is the time order.
  return events.filter((event): event is TimelineEvent => event !== null);
}
