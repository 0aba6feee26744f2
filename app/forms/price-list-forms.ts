/**
 * A part's price lists in the currencies other than the home one, as Add and Edit Product take them:
 * a price and volume breaks per currency, each optional (no price: the part is not sold in that
 * currency, never converted: decision record 11). Checked as the dollar price and breaks are, with
 * messages in the list's own currency. Used by the server and the browser.
 */
import { z } from "zod";
import { CURRENCIES } from "~/content/currencies";
import { OTHER_CURRENCIES, type Currency, type OtherCurrency } from "~/domain/money";
import { formatBreaks, parseBreaks, type PriceList } from "~/domain/pricing";
import { formatCents, formatQuantity } from "~/format";
import { MAX_PRICE_DOLLARS, priceFieldValue } from "./shop-forms";

export { OTHER_CURRENCIES, type OtherCurrency } from "~/domain/money";

/** The most a price may be, in any currency's major unit (the dollar price's bound). */
export const MAX_PRICE_UNITS = MAX_PRICE_DOLLARS;

/**
 * A price typed in whole units of `currency`, or the stored one sent back unchanged (a list kept
 * with cents, from the API or before this rule, may stay as it is). The problem, or null.
 */
export function wholeUnitsProblem(currency: Currency, price: number, storedCents: number | undefined) {
  const { symbol, units } = CURRENCIES[currency];
  if (!Number.isFinite(price)) return `Price must be a whole number of ${units}`;
  if (price < 1) return `Price must be at least ${symbol}1`;
  if (price > MAX_PRICE_UNITS) return `Price must be at most ${symbol}${formatQuantity(MAX_PRICE_UNITS)}`;
  if (Number.isInteger(price)) return null;
  const cents = Math.round(price * 100);
  if (storedCents !== undefined && cents === storedCents) return null;
  const down = Math.max(1, Math.floor(price));
  const suggestion = down === Math.ceil(price) ? `${down}` : `${down} or ${Math.ceil(price)}`;
  return storedCents !== undefined && storedCents % 100 !== 0
    ? `Prices are whole ${units}: type ${suggestion}, or leave ${(storedCents / 100).toFixed(2)} as it is`
    : `Price must be a whole number of ${units}, such as ${suggestion}`;
}

/** One currency's fields as the form sends them (empty fields arrive as undefined). */
const listFields = (currency: OtherCurrency) =>
  z
    .object({
      price: z
        .number({ invalid_type_error: `Price must be a whole number of ${CURRENCIES[currency].units}` })
        .optional(),
      /** The list price as stored, set by the server (never the form's word for it). */
      currentPriceCents: z.number().int().min(0).optional(),
      volumeBreaks: z
        .string({ invalid_type_error: "Volume breaks must be text" })
        .max(400, "Keep the volume breaks under 400 characters")
        .optional(),
    })
    .optional();

type ListFields = ReturnType<typeof listFields>;

/**
 * `prices.EUR.price`, `prices.EUR.volumeBreaks`, … read into the part's lists: a currency with a
 * price has a list (its breaks checked against that price), one without has none; breaks without a
 * price are refused, so a list is never dropped by mistake.
 */
export const priceListsField = z
  .object(
    Object.fromEntries(OTHER_CURRENCIES.map((code) => [code, listFields(code)])) as Record<OtherCurrency, ListFields>,
  )
  .optional()
  .transform((value, ctx): PriceList[] => {
    const lists: PriceList[] = [];
    for (const currency of OTHER_CURRENCIES) {
      const typed = value?.[currency];
      const breaksText = typed?.volumeBreaks?.trim() ?? "";
      if (typed?.price === undefined) {
        if (breaksText) {
          ctx.addIssue({
            path: [currency, "volumeBreaks"],
            code: "custom",
            message: `Breaks in ${CURRENCIES[currency].plural} need a price in ${CURRENCIES[currency].plural}: give one, or clear the breaks`,
          });
        }
        continue;
      }
      const problem = wholeUnitsProblem(currency, typed.price, typed.currentPriceCents);
      if (problem) {
        ctx.addIssue({ path: [currency, "price"], code: "custom", message: problem });
        continue;
      }
      const priceCents = Math.round(typed.price * 100);
      const breaks = parseBreaks(breaksText, priceCents, currency);
      if (!breaks.ok) {
        ctx.addIssue({ path: [currency, "volumeBreaks"], code: "custom", message: breaks.message });
        continue;
      }
      lists.push({ currency, priceCents, volumeBreaks: breaks.breaks });
    }
    return lists;
  });

/** The form's starting values of a part's lists (Edit Product). */
export function priceListDefaults(lists: readonly PriceList[]) {
  return Object.fromEntries(
    OTHER_CURRENCIES.map((currency) => {
      const list = lists.find((each) => each.currency === currency);
      return [
        currency,
        list
          ? { price: priceFieldValue(list.priceCents), volumeBreaks: formatBreaks(list.volumeBreaks) }
          : { price: "", volumeBreaks: "" },
      ];
    }),
  ) as Record<OtherCurrency, { price: string; volumeBreaks: string }>;
}

/** "€11.00, breaks 500:-5%;1000:10.00", or null for no list: how the audit log keeps a list. */
export function priceListWords(list: PriceList | undefined) {
  if (!list) return null;
  const breaks = formatBreaks(list.volumeBreaks);
  return `${formatCents(list.priceCents, { currency: list.currency })}${breaks ? `, breaks ${breaks}` : ""}`;
}

/** A part's lists in other currencies as audit values: `pricesEUR`, `pricesGBP` (null: none). */
export function priceListValues(lists: readonly PriceList[]) {
  return Object.fromEntries(
    OTHER_CURRENCIES.map((currency) => [
      `prices${currency}`,
      priceListWords(lists.find((each) => each.currency === currency)),
    ]),
  ) as Record<string, string | null>;
}

/** The price lists import's form: one CSV file, checked whole and taken whole. */
export const priceListUploadSchema = z.object({
  file: z
    .instanceof(File, { message: "Choose a CSV file" })
    .refine((file) => file.size > 0, "The file is empty: export the price lists, edit the file, and choose it again."),
});
