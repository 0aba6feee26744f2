/**
 * The quick-order pad's text: one line per part, `part-number quantity`, separated by spaces,
 * tabs, commas or semicolons (a spreadsheet's two columns pasted as they are). Shared by the
 * server and the browser.
 */
import { z } from "zod";
import { MAX_ORDER_LINES } from "./order-lines";
import { deliveryFields } from "./shop-forms";

export const QUICK_ORDER_PATH = "/dashboard/quick-order";
/** Room for 200 generous lines; a longer paste is refused before it is read line by line. */
export const MAX_PAD_CHARACTERS = 20_000;

export type PadEntry = { lineNumber: number; partNumber: string; quantityText: string };

/** The pad's non-empty lines, split into part number and quantity (checked later, against the catalogue). */
export function parsePad(text: string): PadEntry[] {
  const entries: PadEntry[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const tokens = raw.split(/[\s,;]+/).filter(Boolean);
    if (tokens.length === 0) return;
    entries.push({
      lineNumber: index + 1,
      partNumber: tokens[0].slice(0, 40),
      quantityText: tokens.slice(1).join(" ").slice(0, 40),
    });
  });
  return entries;
}

const padText = z
  .string({ required_error: "Type or paste at least one line", invalid_type_error: "The lines must be text" })
  .max(
    MAX_PAD_CHARACTERS,
    `Paste at most ${MAX_ORDER_LINES} lines (${MAX_PAD_CHARACTERS.toLocaleString("en-US")} characters)`,
  )
  .superRefine((text, ctx) => {
    const count = parsePad(text).length;
    if (count === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Type or paste at least one line" });
    if (count > MAX_ORDER_LINES) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `At most ${MAX_ORDER_LINES} lines at a time; this has ${count.toLocaleString("en-US")}`,
      });
    }
  });

export const quickOrderSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("check"), lines: padText }),
    z.object({ intent: z.literal("cart"), lines: padText }),
    z.object({ intent: z.literal("order"), lines: padText, ...deliveryFields }),
  ],
  { errorMap: () => ({ message: "Choose check, add to cart or order" }) },
);
