/**
 * The catalogue fields of the Add Product and Edit Product forms (category, brand, OE
 * cross-references, fitment), one zod schema for both screens, used by the server and the browser.
 * Cross-references and fitment are text areas, one entry a line, so a list of any length can be
 * typed or pasted without JavaScript; each line is checked and a bad one is named in the error.
 */
import { z } from "zod";
import {
  BRAND_MAX_LENGTH,
  CATEGORIES,
  DEFAULT_BRAND,
  formatFitmentRow,
  MAX_FITMENT_ROWS,
  MAX_OE_NUMBERS,
  parseFitmentLine,
  type FitmentRow,
} from "~/domain/catalogue";
import { dayField } from "./order-forms";
import { checkQuoteFloors, quoteFloorsField } from "./quote-floor-forms";
import { addPartSchema, dollarsToCents, editablePriceFields, wholeDollarsOrUnchanged } from "./shop-forms";
import { formatBreaks, parseBreaks, type VolumeBreak } from "~/domain/pricing";
import { isPlainText, plainTextMessage } from "~/domain/plain-text";
import { priceListsField } from "./price-list-forms";

const lines = (text: string | undefined) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

const OE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ./-]{1,39}$/;

const oeNumbers = z
  .string({ invalid_type_error: "OE numbers must be text" })
  .max(4000, "Keep the OE numbers under 4,000 characters")
  .optional()
  .transform((text, ctx) => {
    const numbers = [
      ...new Set(
        lines(text)
          .flatMap((line) => line.split(","))
          .map((n) => n.trim())
          .filter(Boolean),
      ),
    ];
    const bad = numbers.find((number) => !OE_PATTERN.test(number));
    if (bad) {
      ctx.addIssue({
        code: "custom",
        message: `“${bad.slice(0, 40)}” is not an OE number: use 2 to 40 letters, digits, dashes, dots or spaces`,
      });
    }
    if (numbers.length > MAX_OE_NUMBERS)
      ctx.addIssue({ code: "custom", message: `List ${MAX_OE_NUMBERS} OE numbers at most` });
    return numbers;
  });

const fitment = z
  .string({ invalid_type_error: "Fitment must be text" })
  .max(8000, "Keep the fitment list under 8,000 characters")
  .optional()
  .transform((text, ctx) => {
    const rows: FitmentRow[] = [];
    const all = lines(text);
    if (all.length > MAX_FITMENT_ROWS)
      ctx.addIssue({ code: "custom", message: `List ${MAX_FITMENT_ROWS} vehicles at most` });
    for (const [index, line] of all.slice(0, MAX_FITMENT_ROWS).entries()) {
      const parsed = parseFitmentLine(line);
      if (parsed.ok) rows.push(parsed.row);
      else ctx.addIssue({ code: "custom", message: `Line ${index + 1}: ${parsed.message}` });
    }
    return rows;
  });

/** Volume breaks in the compact syntax (domain/pricing.ts): "100:-0%;500:-5%;1000:11.25". */
const volumeBreaks = z
  .string({ invalid_type_error: "Volume breaks must be text" })
  .max(400, "Keep the volume breaks under 400 characters")
  .optional()
  .transform((text, ctx) => {
    const parsed = parseBreaks(text ?? "");
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return parsed.breaks;
  });

/** A break's own unit price stays below the list price (whole dollars here, cents when unchanged). */
export function breaksBelowList(
  { price, volumeBreaks: breaks }: { price?: number; volumeBreaks?: VolumeBreak[] },
  ctx: z.RefinementCtx,
) {
  if (price === undefined || !Array.isArray(breaks)) return;
  const over = breaks.find((item) => item.unitPriceCents !== null && item.unitPriceCents > dollarsToCents(price));
  if (over) {
    ctx.addIssue({
      path: ["volumeBreaks"],
      code: "custom",
      message: `The price at ${over.minQuantity} units is above the list price`,
    });
  }
}

const catalogueFields = {
  volumeBreaks,
  /** The lists in other currencies (price-list-forms.ts): `prices.EUR.price`, `prices.EUR.volumeBreaks`. */
  prices: priceListsField,
  category: z.enum(CATEGORIES, { errorMap: () => ({ message: "Choose a category" }) }),
  /** Our own line (PartsWorks) when left empty. */
  brand: z
    .string({ invalid_type_error: "Brand must be text" })
    .trim()
    .max(BRAND_MAX_LENGTH, `Brand must be ${BRAND_MAX_LENGTH} characters or fewer`)
    .refine((value) => isPlainText(value), plainTextMessage("Brand"))
    .optional()
    .transform((value) => value || DEFAULT_BRAND),
  oeNumbers,
  fitment,
};

/** Add Product: the shop's fields (part number optional, generated when empty) and the catalogue's. */
export const newPartSchema = addPartSchema.extend(catalogueFields).superRefine(breaksBelowList);

/**
 * Edit Product: everything but the stock (Manage Products sets it, guarded against orders). The
 * price is whole dollars; a price stored with cents may stay as it is (wholeDollarsOrUnchanged).
 */
export const editPartObject = addPartSchema.omit({ quantity: true }).extend({
  ...catalogueFields,
  ...editablePriceFields,
  partNumber: z
    .string({ required_error: "Part number is Required", invalid_type_error: "Part number must be text" })
    .trim()
    .regex(/^[A-Za-z0-9-]{2,32}$/, "Use 2 to 32 letters, digits or dashes"),
  /** The admin home lists the part when its stock falls below this; empty: below its minimum order. */
  lowStockThreshold: z
    .number({ invalid_type_error: "Low-stock threshold must be a whole number" })
    .int("Low-stock threshold must be a whole number")
    .min(0, "Low-stock threshold must be 0 or more")
    .max(1_000_000_000, "Low-stock threshold must be at most 1,000,000,000")
    .optional(),
});

/** Backorders: whether orders beyond the stock are taken, and when stock is expected. */
export const backorderFields = {
  backorderable: z.boolean().optional(),
  // A real day (2027-02-30 does not roll over into March), not in the past: one message for what is wrong.
  restockOn: dayField({ invalid: "Enter a real date such as 2027-01-12" }, [
    (value) => value >= new Date().toISOString().slice(0, 10),
    "The restock date cannot be in the past",
  ]).optional(),
  leadTimeDays: z
    .number({ invalid_type_error: "Lead time must be a whole number of days" })
    .int("Lead time must be a whole number of days")
    .min(1, "Lead time must be at least 1 day")
    .max(365, "Lead time must be at most 365 days")
    .optional(),
};

export const editPartSchema = editPartObject
  .extend(backorderFields)
  .extend({ quoteFloors: quoteFloorsField })
  .superRefine((value, ctx) => {
    wholeDollarsOrUnchanged(value, ctx);
    breaksBelowList(value, ctx);
    checkQuoteFloors(value, ctx);
  });

/** The text-area forms of a part's lists, for an edit form's default values. */
export function catalogueFormDefaults(part: {
  oeNumbers: string[];
  fitment: FitmentRow[];
  volumeBreaks?: VolumeBreak[];
}) {
  return {
    oeNumbers: part.oeNumbers.join("\n"),
    fitment: part.fitment.map(formatFitmentRow).join("\n"),
    volumeBreaks: formatBreaks(part.volumeBreaks ?? []),
  };
}

export const FITMENT_HELP =
  "One vehicle a line: make, model, a year or years, and an optional engine, e.g. “Volkswagen Golf 2013-2020 1.4 TSI”.";
