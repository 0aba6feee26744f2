/**
 * Many lines into the cart at once: a past order (reorder) and the quick-order pad. Each line is
 * checked against the part as it is today: price, minimum, stock, and whether it is still sold.
 */
import { formatCents, formatQuantity } from "~/format";
import { MAX_ORDER_LINES } from "~/domain/order-lines";
import { addLinesToCart, getCart, noteOnCart, type CartLine, type NoticeSource } from "./cart.server";
import type { OrderView } from "~/orders/model/view.server";
import type { PartView } from "~/domain/catalogue";
import { getPartsByIds } from "./part.server";

type Wanted = { part: PartView; quantity: number; name: string };

/**
 * Adds lines that met the part's rules on their own, counting what the cart already holds: a line
 * that would take the cart past the stock is lowered to what is left, or left out when what is left
 * is below the minimum. Every change is said in `notices`, kept on the cart and shown there, also
 * when nothing could go in (then the cart's lines stay as they were).
 */
async function fitIntoCart(
  userId: string,
  wanted: Wanted[],
  notices: string[],
  from: NoticeSource,
  reorderedFrom?: string,
) {
  const cart = await getCart(userId);
  const inCart = new Map(cart.lines.map((line) => [line.partId, line.quantity]));
  const added: CartLine[] = [];
  for (const { part, quantity: asked, name } of wanted) {
    let quantity = asked;
    const already = inCart.get(part.id) ?? 0;
    const room = part.availableQuantity - already;
    if (quantity > room) {
      if (room <= 0 || already + room < part.minOrderQuantity) {
        notices.push(
          already > 0
            ? `${name}: your cart already holds ${formatQuantity(already)} of the ${formatQuantity(part.availableQuantity)} available units, so nothing was added.`
            : `${name}: only ${formatQuantity(part.availableQuantity)} units are available now, below its minimum order of ${formatQuantity(part.minOrderQuantity)}, so it was left out.`,
        );
        continue;
      }
      notices.push(
        `${name}: lowered from ${formatQuantity(quantity)} to ${formatQuantity(room)} units, all that is available now.`,
      );
      quantity = room;
    }
    added.push({ partId: part.id, quantity });
    inCart.set(part.id, already + quantity);
  }
  if (added.length) {
    const stored = await addLinesToCart(userId, added, { notices, from, reorderedFrom });
    if (stored.ok) return { added: added.length, notices };
    // Refused as a whole: the lines would take the cart past its size.
    notices.unshift(
      `Your cart would hold more than ${MAX_ORDER_LINES} lines, so none of these went in: make room first.`,
    );
  }
  await noteOnCart(userId, notices, from);
  return { added: 0, notices };
}

/**
 * Puts a past order back into the cart, line by line, at today's price, minimum and stock (counting
 * what the cart already holds). Returns how many lines went in and what changed, said plainly.
 */
export async function reorderIntoCart(userId: string, order: OrderView) {
  const parts = await getPartsByIds(order.lines.map((line) => line.partId));
  const wanted: Wanted[] = [];
  const notices: string[] = [];
  for (const line of order.lines) {
    const part = parts.get(line.partId);
    const name = `${line.productName}${line.partNumber ? ` (${line.partNumber})` : ""}`;
    if (!part) {
      notices.push(`${name} is no longer sold, so it was left out.`);
      continue;
    }
    let quantity = line.quantity;
    if (part.priceCents !== line.unitPriceCents) {
      const direction = part.priceCents > line.unitPriceCents ? "up" : "down";
      notices.push(
        `${name}: the price went ${direction} from ${formatCents(line.unitPriceCents)} to ${formatCents(part.priceCents)} a unit.`,
      );
    }
    if (quantity < part.minOrderQuantity) {
      notices.push(
        `${name}: raised from ${formatQuantity(quantity)} to the minimum order of ${formatQuantity(part.minOrderQuantity)} units.`,
      );
      quantity = part.minOrderQuantity;
    }
    wanted.push({ part, quantity, name });
  }
  return fitIntoCart(userId, wanted, notices, "reorder", order.id);
}

/** The quick-order pad's lines that passed their check (services/quick-order.server.ts), into the cart. */
export async function padLinesIntoCart(userId: string, lines: { partId: string; quantity: number }[]) {
  const parts = await getPartsByIds(lines.map((line) => line.partId));
  const wanted = lines.flatMap((line) => {
    const part = parts.get(line.partId);
    return part && line.quantity > 0
      ? [{ part, quantity: line.quantity, name: `${part.name} (${part.partNumber})` }]
      : [];
  });
  return fitIntoCart(userId, wanted, [], "pad");
}
