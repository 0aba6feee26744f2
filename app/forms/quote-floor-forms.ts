/**
 * A part's floor prices for quotes on Edit Product: per currency the lowest price a unit staff quote
 * without an override (domain/quotes.ts floorPrice). Optional, typed to the cent ("9.80"), never
 * above the part's list price there. Staff only: buyers never see a floor. Used by server and browser.
 */
import { z } from "zod";
import { CURRENCIES } from "~/content/currencies";
import { CURRENCY_CODES, HOME_CURRENCY, type Currency } from "~/domain/money";
import { formatCents } from "~/format";
import { unitPriceCents } from "./quote-forms";

export type QuoteFloor = { currency: Currency; priceCents: number };

const floorText = z
  .string({ invalid_type_error: "Floor price must be a price such as 9.80" })
  .trim()
  .max(20, "Floor price must be a price such as 9.80")
  .optional();

/** `quoteFloors.USD`, `quoteFloors.EUR`, … as typed. */
export const quoteFloorsField = z
  .object(Object.fromEntries(CURRENCY_CODES.map((code) => [code, floorText])) as Record<Currency, typeof floorText>)
  .optional();

/**
 * Each floor typed must read as a price and sit at or below the part's list price in its currency
 * (the dollar price for the home currency, the list in `prices` for the others); a floor in a
 * currency the part has no list in is refused too, as nothing would be quoted against it.
 */
export function checkQuoteFloors(
  value: {
    price: number;
    prices: readonly { currency: Currency; priceCents: number }[];
    quoteFloors?: Partial<Record<Currency, string | undefined>>;
  },
  ctx: z.RefinementCtx,
) {
  for (const currency of CURRENCY_CODES) {
    const typed = value.quoteFloors?.[currency];
    if (!typed) continue;
    const path = ["quoteFloors", currency];
    const cents = unitPriceCents(typed, currency);
    if (cents === null) {
      ctx.addIssue({ path, code: "custom", message: "Floor price must be a price such as 9.80" });
      continue;
    }
    const listCents =
      currency === HOME_CURRENCY
        ? Math.round(value.price * 100)
        : value.prices.find((list) => list.currency === currency)?.priceCents;
    if (listCents === undefined)
      ctx.addIssue({
        path,
        code: "custom",
        message: `There is no list price in ${CURRENCIES[currency].plural}: give one first, or clear the floor`,
      });
    else if (cents > listCents)
      ctx.addIssue({
        path,
        code: "custom",
        message: `The floor cannot be above the list price of ${formatCents(listCents, { currency })}`,
      });
  }
}

/** The floors as stored, from a valid form (an empty field: no floor there). */
export function quoteFloorsOf(typed: Partial<Record<Currency, string | undefined>> | undefined): QuoteFloor[] {
  return CURRENCY_CODES.flatMap((currency) => {
    const cents = typed?.[currency] ? unitPriceCents(typed[currency]!, currency) : null;
    return cents ? [{ currency, priceCents: cents }] : [];
  });
}

/** The form's starting values of a part's floors. */
export function quoteFloorDefaults(floors: readonly QuoteFloor[]) {
  return Object.fromEntries(
    CURRENCY_CODES.map((currency) => {
      const floor = floors.find((each) => each.currency === currency);
      return [currency, floor ? (floor.priceCents / 100).toFixed(2) : ""];
    }),
  ) as Record<Currency, string>;
}

/** "$9.80" per currency for the audit log (null: none). */
export function quoteFloorValues(floors: readonly QuoteFloor[]) {
  return Object.fromEntries(
    CURRENCY_CODES.map((currency) => {
      const floor = floors.find((each) => each.currency === currency);
      return [`quoteFloor${currency}`, floor ? formatCents(floor.priceCents, { currency }) : null];
    }),
  ) as Record<string, string | null>;
}
