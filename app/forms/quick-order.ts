/**
 * The quick-order pad's text: one line per part, `part-number quantity`, separated by spaces,
 * tabs, commas or semicolons (a spreadsheet's two columns pasted as they are). Shared by the
 * server and the browser.
 */
import { z } from "zod";
import { MAX_ORDER_LINES } from "~/domain/order-lines";
import { formatQuantity } from "~/format";
import { deliveryFields } from "./shop-forms";

export const QUICK_ORDER_PATH = "/dashboard/quick-order";
/** Room for 200 generous lines; a longer paste is refused before it is read line by line. */
export const MAX_PAD_CHARACTERS = 20_000;

export type PadEntry = { lineNumber: number; partNumber: string; quantityText: string };

/**
 * The pad's non-empty lines, split into part number and quantity (checked later, against the
 * catalogue). A tab, comma or semicolon ends the part number, which may hold spaces ("PW 1003, 200");
 * on a line of spaces only, the last word is the quantity when it is a number ("PW 1003 200").
 */
export function parsePad(text: string): PadEntry[] {
  const entries: PadEntry[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const fields = raw
      .split(/[\t,;]+/)
      .map((field) => field.trim())
      .filter(Boolean);
    if (fields.length === 0) return;
    let partNumber = fields[0];
    let quantityText = fields.slice(1).join(" ");
    if (fields.length === 1) {
      const words = fields[0].split(/\s+/);
      const last = words[words.length - 1];
      const split = words.length > 1 && /^\d[\d.]*$/.test(last) ? words.length - 1 : 1;
      partNumber = words.slice(0, split).join(" ");
      quantityText = words.slice(split).join(" ");
    }
    entries.push({
      lineNumber: index + 1,
      partNumber: partNumber.slice(0, 40),
      quantityText: quantityText.slice(0, 40),
    });
  });
  return entries;
}

const padText = z
  .string({ required_error: "Type or paste at least one line", invalid_type_error: "The lines must be text" })
  .max(MAX_PAD_CHARACTERS, `Paste at most ${MAX_ORDER_LINES} lines (${formatQuantity(MAX_PAD_CHARACTERS)} characters)`)
  .superRefine((text, ctx) => {
    const count = parsePad(text).length;
    if (count === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Type or paste at least one line" });
    if (count > MAX_ORDER_LINES) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `At most ${MAX_ORDER_LINES} lines at a time; this has ${formatQuantity(count)}`,
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
