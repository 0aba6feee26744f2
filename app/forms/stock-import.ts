import { z } from "zod";
import { MAX_PRICE_DOLLARS, MAX_STOCK } from "./shop-forms";
import { isCalendarDay } from "./order-forms";

/** The most data lines one import takes (after the header); a longer file is refused whole. */
export const MAX_IMPORT_LINES = 5000;

/** The upload form (a dry run): one CSV file. */
export const importUploadSchema = z.object({
  intent: z.literal("preview"),
  file: z
    .instanceof(File, { message: "Choose a CSV file" })
    .refine((file) => file.size > 0, "The file is empty: export the products, edit the file, and choose it again."),
});

/**
 * One change as the dry run hands it to Apply: part id, the file's line, stock before and after,
 * price in cents before and after, volume breaks before and after, the backorder policy before and
 * after (null where the line leaves the field alone).
 */
const objectId = z.string().regex(/^[a-f0-9]{24}$/);
const stock = z.number().int().min(0).max(MAX_STOCK).nullable();
const cents = z
  .number()
  .int()
  .min(100)
  .max(MAX_PRICE_DOLLARS * 100)
  .nullable();
/** Volume breaks in the compact syntax, before and after (null: the line leaves them alone). */
const breaksText = z.string().max(400).nullable();

/** The longest lead time a part may have, in days (Edit Product and the stock API take the same). */
export const MAX_LEAD_TIME_DAYS = 365;

/** Whether a part may be backordered and when its stock is expected, as the import reads and writes it. */
const backorderPolicy = z
  .object({
    allowed: z.boolean(),
    restockOn: z.string().refine(isCalendarDay).nullable(),
    leadTimeDays: z.number().int().min(1).max(MAX_LEAD_TIME_DAYS).nullable(),
  })
  .strict()
  .nullable();
export type BackorderPolicy = NonNullable<z.infer<typeof backorderPolicy>>;

/** "yes, restock 2027-01-12", "yes, lead time 14 days", "no": a policy in the dry run's words, every field in them. */
export function backorderWords(policy: BackorderPolicy) {
  const when = [
    policy.restockOn ? `restock ${policy.restockOn}` : "",
    policy.leadTimeDays ? `lead time ${policy.leadTimeDays} days` : "",
  ].filter(Boolean);
  return [policy.allowed ? "yes" : "no", ...when].join(", ");
}

const changeTuple = z
  .tuple([
    objectId,
    z.number().int().min(2).max(1_000_000),
    stock,
    stock,
    cents,
    cents,
    breaksText,
    breaksText,
    backorderPolicy,
    backorderPolicy,
  ])
  .refine(([, , , , , , , , backorderBefore, backorderAfter]) => {
    if ((backorderBefore === null) !== (backorderAfter === null)) return false;
    // A restock day in the past passes only as the part's own, unchanged (never trusted as sent).
    const day = backorderAfter?.restockOn;
    return !day || day === backorderBefore?.restockOn || day >= new Date().toISOString().slice(0, 10);
  })
  .refine(([, , stockBefore, stockAfter, priceBefore, priceAfter, breaksBefore, breaksAfter, backorderBefore]) => {
    const stockGiven = stockBefore !== null && stockAfter !== null;
    const priceGiven = priceBefore !== null && priceAfter !== null;
    const stockNone = stockBefore === null && stockAfter === null;
    const priceNone = priceBefore === null && priceAfter === null;
    // A new price is whole dollars (the dry run refuses one with cents).
    const wholeDollars = priceAfter === null || priceAfter % 100 === 0;
    const breaksGiven = breaksBefore !== null && breaksAfter !== null;
    const breaksNone = breaksBefore === null && breaksAfter === null;
    return (
      (stockGiven || stockNone) &&
      (priceGiven || priceNone) &&
      (breaksGiven || breaksNone) &&
      (stockGiven || priceGiven || breaksGiven || backorderBefore !== null) &&
      wholeDollars
    );
  });
export type ImportChange = z.infer<typeof changeTuple>;

// A change of stock and price only may leave the two breaks off (the form before volume breaks), and
// one without backorders the two policies.
const changeOrShort = z.preprocess(
  (value) =>
    Array.isArray(value) && (value.length === 6 || value.length === 8)
      ? [...value, ...Array<null>(10 - value.length).fill(null)]
      : value,
  changeTuple,
);

const changesSchema = z
  .array(changeOrShort)
  .min(1, "There is nothing to apply.")
  .max(MAX_IMPORT_LINES)
  .refine((changes) => new Set(changes.map(([id]) => id)).size === changes.length, "A part appears twice.");

/** Apply: the dry run's valid changes, read back and checked again (never trusted as sent). */
export const importApplySchema = z.object({
  intent: z.literal("apply"),
  changes: z
    .string({ required_error: "There is nothing to apply: upload the file again." })
    .max(2_000_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "The changes could not be read: upload the file again." });
        return z.NEVER;
      }
    })
    .pipe(
      z.unknown().superRefine((value, ctx) => {
        if (!changesSchema.safeParse(value).success) {
          ctx.addIssue({ code: "custom", message: "The changes could not be read: upload the file again." });
        }
      }),
    )
    .transform((value) => changesSchema.parse(value) as ImportChange[]),
});

export const importSchema = z.discriminatedUnion("intent", [importUploadSchema, importApplySchema]);
