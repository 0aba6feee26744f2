/**
 * Many lines into the cart at once: a past order (reorder) and the quick-order pad. Each line is
 * checked against the part as it is today: price, minimum, stock, and whether it is still sold.
 */
import { formatCents } from "~/utils/misc";
import { lineProblem, MAX_ORDER_LINES, type LineProblem } from "~/utils/order-lines";
import type { PadEntry } from "~/utils/quick-order";
import { addLinesToCart, getCart, noteOnCart, type CartLine, type NoticeSource } from "./cart.server";
import type { OrderView } from "./order.server";
import { getPartsByIds, getPartsByNumbers, type PartView } from "./part.server";

const units = (n: number) => n.toLocaleString("en-US");

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
            ? `${name}: your cart already holds ${units(already)} of the ${units(part.availableQuantity)} available units, so nothing was added.`
            : `${name}: only ${units(part.availableQuantity)} units are available now, below its minimum order of ${units(part.minOrderQuantity)}, so it was left out.`,
        );
        continue;
      }
      notices.push(`${name}: lowered from ${units(quantity)} to ${units(room)} units, all that is available now.`);
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
        `${name}: raised from ${units(quantity)} to the minimum order of ${units(part.minOrderQuantity)} units.`,
      );
      quantity = part.minOrderQuantity;
    }
    wanted.push({ part, quantity, name });
  }
  return fitIntoCart(userId, wanted, notices, "reorder", order.id);
}

/** The pad's lines that passed their check, into the cart. */
export async function padLinesIntoCart(userId: string, checks: PadLineCheck[]) {
  const ids = checks.flatMap((check) => (check.part && !check.problem ? [check.part.id] : []));
  const parts = await getPartsByIds(ids);
  const wanted = checks.flatMap((check) => {
    const part = check.part && !check.problem ? parts.get(check.part.id) : undefined;
    return part && check.quantity
      ? [{ part, quantity: check.quantity, name: `${part.name} (${part.partNumber})` }]
      : [];
  });
  return fitIntoCart(userId, wanted, [], "pad");
}

// --- The quick-order pad --------------------------------------------------------------------------

export type PadLineCheck = {
  /** The pad's line numbers this line came from (duplicates are merged into the first). */
  lineNumbers: number[];
  partNumber: string;
  quantityText: string;
  quantity: number | null;
  part: Pick<PartView, "id" | "name" | "priceCents" | "minOrderQuantity" | "availableQuantity"> | null;
  lineTotalCents: number | null;
  /** The list price of a unit when the customer's own price (set by pricing.server.ts) is lower. */
  listPriceCents?: number | null;
  problem: LineProblem | { reason: "unknown-part" | "unreadable"; message: string } | null;
};

/**
 * Checks the pad's lines against the catalogue: unknown part numbers, quantities that are not
 * whole numbers, below the minimum or above the stock; the same part number twice is one line
 * with both quantities.
 */
export async function checkPadLines(entries: PadEntry[]): Promise<PadLineCheck[]> {
  const parts = await getPartsByNumbers(entries.map((entry) => entry.partNumber));
  const checks: PadLineCheck[] = [];
  const byNumber = new Map<string, PadLineCheck>();
  for (const entry of entries) {
    const key = entry.partNumber.toUpperCase();
    const quantity = /^\d{1,9}$/.test(entry.quantityText) ? Number(entry.quantityText) : null;
    const seen = byNumber.get(key);
    if (seen && seen.quantity !== null && quantity !== null) {
      seen.lineNumbers.push(entry.lineNumber);
      seen.quantity += quantity;
      seen.quantityText = String(seen.quantity);
      continue;
    }
    const part = parts.get(key);
    const check: PadLineCheck = {
      lineNumbers: [entry.lineNumber],
      partNumber: key,
      quantityText: entry.quantityText,
      quantity,
      part: part
        ? {
            id: part.id,
            name: part.name,
            priceCents: part.priceCents,
            minOrderQuantity: part.minOrderQuantity,
            availableQuantity: part.availableQuantity,
          }
        : null,
      lineTotalCents: null,
      problem: null,
    };
    checks.push(check);
    if (!seen) byNumber.set(key, check);
  }
  for (const check of checks) {
    if (!check.part) check.problem = { reason: "unknown-part", message: `Unknown part number ${check.partNumber}` };
    else if (check.quantity === null) {
      check.problem = {
        reason: "unreadable",
        message: !check.quantityText
          ? "Add a quantity after the part number"
          : /^\d+$/.test(check.quantityText)
            ? `${check.quantityText} units is more than one line can take`
            : `"${check.quantityText}" is not a whole number of units`,
      };
    } else {
      check.problem = lineProblem(check.part, check.quantity);
      check.lineTotalCents = check.part.priceCents * check.quantity;
    }
  }
  return checks;
}
