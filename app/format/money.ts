import { CURRENCIES, HOME_CURRENCY } from "~/content/currencies";

type CurrencyCode = keyof typeof CURRENCIES;

// Intl.NumberFormat is costly to construct: one per currency and shape, made once.
const WITH_SIGN = new Map(
  (Object.keys(CURRENCIES) as CurrencyCode[]).map((code) => [
    code,
    new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: CURRENCIES[code].minorUnits,
    }),
  ]),
);
const PLAIN = new Map(
  (Object.keys(CURRENCIES) as CurrencyCode[]).map((code) => [
    code,
    new Intl.NumberFormat("en-US", { minimumFractionDigits: CURRENCIES[code].minorUnits, useGrouping: false }),
  ]),
);

/**
 * The one way the shop writes money it keeps as integers in a currency's minor unit, on every
 * screen, document, mail and CSV: always with the minor unit, so amounts side by side read alike
 * ("$1,250.00" beside "$7,248.80", "€980.50"). `currency` is the amount's (US dollars when not
 * named); `plain` drops the sign and the grouping, for a spreadsheet or a machine ("1250.00").
 */
export function formatCents(
  cents: number,
  { plain = false, currency = HOME_CURRENCY }: { plain?: boolean; currency?: CurrencyCode } = {},
) {
  const digits = CURRENCIES[currency].minorUnits;
  return (plain ? PLAIN : WITH_SIGN).get(currency)!.format(cents / 10 ** digits);
}

export const formatMoney = formatCents;

/** An amount with its currency ({ amount, currency }): "€1,312.29". */
export function formatAmount({ amount, currency }: { amount: number; currency: CurrencyCode }) {
  return formatCents(amount, { currency });
}

/** Euro cents (an invoice's VAT in euros, BT-111): "€1,312.29". */
export function formatEuroCents(cents: number) {
  return formatCents(cents, { currency: "EUR" });
}

/** A currency in words, with its code: "euros (EUR)". */
export function formatCurrencyName(currency: CurrencyCode) {
  return `${CURRENCIES[currency].plural} (${currency})`;
}
