/** The quick-order pad's lines checked against the catalogue (the pad's text: quick-order.ts). */
import type { PartView } from "~/domain/catalogue";
import { backorderSplit, backorderText, lineProblem, type LineProblem } from "~/domain/order-lines";
import { nearPartNumbers } from "~/models/part-suggest.server";
import { findPartsByNumbers, matchOf, unmatchedMessage } from "./part-number.server";
import type { PadEntry } from "~/forms/quick-order";

export type PadLineCheck = {
  /** The pad's line numbers this line came from (duplicates are merged into the first). */
  lineNumbers: number[];
  /** The part's own number when one is found (`pw1003` reads back as PW-1003), else as typed, upper case. */
  partNumber: string;
  quantityText: string;
  quantity: number | null;
  part: Pick<
    PartView,
    | "id"
    | "name"
    | "priceCents"
    | "minOrderQuantity"
    | "availableQuantity"
    | "backorderable"
    | "restockOn"
    | "leadTimeDays"
  > | null;
  lineTotalCents: number | null;
  /** A valid line beyond the shelf of a part that may be backordered: the part page's words for the split. */
  backorder: string | null;
  /** The list price of a unit when the customer's own price (set by pricing.server.ts) is lower. */
  listPriceCents?: number | null;
  problem: LineProblem | { reason: "unknown-part" | "unreadable"; message: string } | null;
};

/**
 * Checks the pad's lines against the catalogue: part numbers that name no part (dashes, spaces and
 * case aside; an OE number names the part that replaces it), quantities that are not whole
 * numbers, below the minimum or above the stock; the same part twice is one line with both
 * quantities.
 */
export async function checkPadLines(entries: PadEntry[]): Promise<PadLineCheck[]> {
  const matches = await findPartsByNumbers(entries.map((entry) => entry.partNumber));
  const checks: PadLineCheck[] = [];
  const byPart = new Map<string, PadLineCheck>();
  for (const entry of entries) {
    const typed = entry.partNumber.toUpperCase();
    const match = matchOf(matches, entry.partNumber);
    const part = match.part;
    const quantity = /^\d{1,9}$/.test(entry.quantityText) ? Number(entry.quantityText) : null;
    const key = part?.id ?? `typed:${typed}`;
    const seen = byPart.get(key);
    if (seen && seen.quantity !== null && quantity !== null) {
      seen.lineNumbers.push(entry.lineNumber);
      seen.quantity += quantity;
      seen.quantityText = String(seen.quantity);
      continue;
    }
    const check: PadLineCheck = {
      lineNumbers: [entry.lineNumber],
      partNumber: part?.partNumber ?? typed,
      quantityText: entry.quantityText,
      quantity,
      part: part
        ? {
            id: part.id,
            name: part.name,
            priceCents: part.priceCents,
            minOrderQuantity: part.minOrderQuantity,
            availableQuantity: part.availableQuantity,
            backorderable: part.backorderable,
            restockOn: part.restockOn,
            leadTimeDays: part.leadTimeDays,
          }
        : null,
      lineTotalCents: null,
      backorder: null,
      problem: part ? null : { reason: "unknown-part", message: unmatchedMessage(typed, match) ?? "" },
    };
    checks.push(check);
    if (!seen) byPart.set(key, check);
  }
  for (const check of checks) {
    if (!check.part) continue;
    if (check.quantity === null) {
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
      check.backorder = check.problem ? null : backorderText(backorderSplit(check.part, check.quantity));
    }
  }
  await suggestNumbers(checks);
  return checks;
}

/** How many unknown numbers of one pad get "did you mean" (two index reads each). */
const MAX_SUGGESTED_LINES = 10;

/** An unknown number's message names the nearest part numbers, when some are near (a typo off an invoice). */
async function suggestNumbers(checks: PadLineCheck[]) {
  const unknown = checks
    .filter((check) => !check.part && check.problem?.message.startsWith("Unknown part number"))
    .slice(0, MAX_SUGGESTED_LINES);
  await Promise.all(
    unknown.map(async (check) => {
      const near = await nearPartNumbers(check.partNumber, 2);
      if (near.length && check.problem) check.problem.message += ` (did you mean ${near.join(" or ")}?)`;
    }),
  );
}
