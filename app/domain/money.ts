/**
 * Money with its currency (docs/decisions/0011-money-and-currency.md): an integer amount in the
 * currency's minor unit and an ISO 4217 code. Amounts of two currencies are never added: the types
 * refuse it where the currency is known, and `addMoney`/`sumMoney` throw where it is not. Pure.
 */
import { CURRENCIES, HOME_CURRENCY } from "~/content/currencies";

export const CURRENCY_CODES = Object.keys(CURRENCIES) as (keyof typeof CURRENCIES)[];
export type Currency = keyof typeof CURRENCIES;
export { HOME_CURRENCY };

export type Money<C extends Currency = Currency> = { readonly amount: number; readonly currency: C };

export type OtherCurrency = Exclude<Currency, typeof HOME_CURRENCY>;

/** The currencies a part may have a price list in beside its home (dollar) price. */
export const OTHER_CURRENCIES = CURRENCY_CODES.filter((code): code is OtherCurrency => code !== HOME_CURRENCY);

export const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && Object.hasOwn(CURRENCIES, value);

/** A currency code as stored or sent ("usd", "EUR"), or the home currency for what was kept before currencies. */
export function currencyOf(value: string | null | undefined): Currency {
  if (value == null || value === "") return HOME_CURRENCY;
  const code = value.toUpperCase();
  if (!isCurrency(code)) throw new RangeError(`${value} is not a currency the shop keeps`);
  return code;
}

/** An amount in minor units of `currency`: a whole number, never a fraction of a cent. */
export function money<C extends Currency>(amount: number, currency: C): Money<C> {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`${amount} is not a whole amount of ${currency} minor units`);
  return { amount, currency };
}

export class CurrencyMismatch extends Error {
  constructor(a: Currency, b: Currency) {
    super(`Amounts in ${a} and ${b} cannot be added`);
    this.name = "CurrencyMismatch";
  }
}

/** a + b, of one currency (the second's currency is not inferred: it must be the first's). */
export function addMoney<C extends Currency>(a: Money<C>, b: Money<NoInfer<C>>): Money<C> {
  if (a.currency !== b.currency) throw new CurrencyMismatch(a.currency, b.currency);
  return money(a.amount + b.amount, a.currency);
}

/** a − b, of one currency. */
export function subtractMoney<C extends Currency>(a: Money<C>, b: Money<NoInfer<C>>): Money<C> {
  if (a.currency !== b.currency) throw new CurrencyMismatch(a.currency, b.currency);
  return money(a.amount - b.amount, a.currency);
}

/** The sum of amounts that must all be in `currency` (zero of it for none). */
export function sumMoney<C extends Currency>(currency: C, amounts: readonly Money<NoInfer<C>>[]): Money<C> {
  let total = 0;
  for (const each of amounts) {
    if (each.currency !== currency) throw new CurrencyMismatch(currency, each.currency);
    total += each.amount;
  }
  return money(total, currency);
}

/** Amounts of several currencies, each currency's summed apart: never one figure across them. */
export function totalsByCurrency(amounts: readonly Money[]): Money[] {
  const totals = new Map<Currency, number>();
  for (const each of amounts) totals.set(each.currency, (totals.get(each.currency) ?? 0) + each.amount);
  return [...totals].map(([currency, amount]) => money(amount, currency));
}

/** The amount in major units with the currency's decimals, as e-invoices and CSVs write it ("1250.00"). */
export function majorUnits({ amount, currency }: Money) {
  const digits = CURRENCIES[currency].minorUnits;
  return (amount / 10 ** digits).toFixed(digits);
}
