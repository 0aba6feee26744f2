/**
 * The rules every order line meets, wherever it comes from (the part page, the cart, the
 * quick-order pad, a reorder), and the words the customer reads when a line breaks one. Shared by
 * the server and the browser.
 */
import { formatDate, formatQuantity } from "~/format";

/** Lines in one order, in the cart, and on the quick-order pad. */
export const MAX_ORDER_LINES = 200;
/** No line asks for more units than this (the largest stock an admin can set). */
export const MAX_LINE_QUANTITY = 10_000_000;

export type LineProblemReason = "missing" | "below-minimum" | "above-stock" | "invalid-quantity" | "no-price";
export type LineProblem = { reason: LineProblemReason; message: string };

type PartRules = { minOrderQuantity: number; availableQuantity: number; backorderable?: boolean };

export const PART_GONE_MESSAGE = "This part is no longer available";

/** What is wrong with ordering `quantity` of `part` (null or undefined: the part is gone); null when nothing is. */
export function lineProblem(part: PartRules | null | undefined, quantity: number): LineProblem | null {
  if (!part) return { reason: "missing", message: PART_GONE_MESSAGE };
  if (!Number.isSafeInteger(quantity))
    return { reason: "invalid-quantity", message: "Quantity must be a whole number" };
  if (quantity > MAX_LINE_QUANTITY) {
    return { reason: "invalid-quantity", message: `Quantity must be at most ${formatQuantity(MAX_LINE_QUANTITY)}` };
  }
  if (quantity < part.minOrderQuantity) {
    return { reason: "below-minimum", message: `The minimum order is ${formatQuantity(part.minOrderQuantity)} units` };
  }
  if (quantity > part.availableQuantity && !part.backorderable) {
    return {
      reason: "above-stock",
      message: `Only ${formatQuantity(Math.max(0, part.availableQuantity))} units are available`,
    };
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
  const units = formatQuantity(order.totalQuantity);
  return order.lineCount > 1
    ? `${order.lineCount} lines (${units} units): ${order.summary}`
    : `${units} × ${order.summary}`;
}

type BackorderRules = PartRules & { restockOn?: string | null; leadTimeDays?: number | null };

/** The day (YYYY-MM-DD) backordered units are expected: the restock day set, else today plus the lead time. */
export function expectedRestockDay(part: BackorderRules, now = new Date()): string | null {
  const today = now.toISOString().slice(0, 10);
  if (part.restockOn && part.restockOn >= today) return part.restockOn;
  if (part.leadTimeDays) return new Date(now.getTime() + part.leadTimeDays * 86_400_000).toISOString().slice(0, 10);
  return null;
}

/** How an order of `quantity` splits: units held now and units on backorder (0 when the shelf has enough). */
export function backorderSplit(part: BackorderRules, quantity: number) {
  const now = Math.max(0, Math.min(quantity, part.availableQuantity));
  const backordered = part.backorderable ? quantity - now : 0;
  return { now, backordered, expectedOn: backordered > 0 ? expectedRestockDay(part) : null };
}

/** "300 now, 200 on backorder, expected Jan 12, 2027" (or null when nothing is backordered). */
export function backorderText(split: { now: number; backordered: number; expectedOn: string | null }) {
  if (split.backordered <= 0) return null;
  const expected = split.expectedOn
    ? `expected ${formatDate(`${split.expectedOn}T00:00:00Z`)}`
    : "date to be confirmed";
  if (split.now === 0) return `All ${formatQuantity(split.backordered)} on backorder, ${expected}`;
  return `${formatQuantity(split.now)} now, ${formatQuantity(split.backordered)} on backorder, ${expected}`;
}
