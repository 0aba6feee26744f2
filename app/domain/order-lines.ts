/**
 * The rules every order line meets, wherever it comes from (the part page, the cart, the
 * quick-order pad, a reorder), and the words the customer reads when a line breaks one. Shared by
 * the server and the browser.
 */

/** Lines in one order, in the cart, and on the quick-order pad. */
export const MAX_ORDER_LINES = 200;
/** No line asks for more units than this (the largest stock an admin can set). */
export const MAX_LINE_QUANTITY = 10_000_000;

export type LineProblemReason = "missing" | "below-minimum" | "above-stock" | "invalid-quantity";
export type LineProblem = { reason: LineProblemReason; message: string };

type PartRules = { minOrderQuantity: number; availableQuantity: number };

const units = (n: number) => n.toLocaleString("en-US");

export const PART_GONE_MESSAGE = "This part is no longer available";

/** What is wrong with ordering `quantity` of `part` (null or undefined: the part is gone); null when nothing is. */
export function lineProblem(part: PartRules | null | undefined, quantity: number): LineProblem | null {
  if (!part) return { reason: "missing", message: PART_GONE_MESSAGE };
  if (!Number.isSafeInteger(quantity))
    return { reason: "invalid-quantity", message: "Quantity must be a whole number" };
  if (quantity > MAX_LINE_QUANTITY) {
    return { reason: "invalid-quantity", message: `Quantity must be at most ${units(MAX_LINE_QUANTITY)}` };
  }
  if (quantity < part.minOrderQuantity) {
    return { reason: "below-minimum", message: `The minimum order is ${units(part.minOrderQuantity)} units` };
  }
  if (quantity > part.availableQuantity) {
    return { reason: "above-stock", message: `Only ${units(Math.max(0, part.availableQuantity))} units are available` };
  }
  return null;
}

/** "Brake pads" or "Brake pads + 3 more": how lists name an order. */
export function orderSummary(firstName: string, lineCount: number) {
  return lineCount > 1 ? `${firstName} + ${lineCount - 1} more` : firstName;
}

/** The customer's page of one order. */
export function orderPath(orderId: string) {
  return `/dashboard/orders/${orderId}`;
}

/** "150 × Brake pads", or "3 lines (450 units): Brake pads + 2 more". */
export function describeOrder(order: { summary: string; lineCount: number; totalQuantity: number }) {
  const units = order.totalQuantity.toLocaleString("en-US");
  return order.lineCount > 1
    ? `${order.lineCount} lines (${units} units): ${order.summary}`
    : `${units} × ${order.summary}`;
}
