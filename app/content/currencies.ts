/**
 * The currencies the shop can sell, keep accounts and take payment in (ISO 4217), as data: a new
 * currency is a line here, its price lists and bank details beside it (docs/decisions/0011-money-and-currency.md).
 * Amounts are integers in the currency's minor unit (cents, pence).
 */
export const CURRENCIES = {
  USD: { name: "US dollar", plural: "US dollars", units: "dollars", minorUnits: 2, symbol: "$" },
  EUR: { name: "Euro", plural: "euros", units: "euros", minorUnits: 2, symbol: "€" },
  GBP: { name: "Pound sterling", plural: "pounds sterling", units: "pounds", minorUnits: 2, symbol: "£" },
} as const satisfies Record<
  string,
  // `units`: the major unit as a form counts it ("Credit limit (whole euros)").
  { name: string; plural: string; units: string; minorUnits: number; symbol: string }
>;

/** The currency everything was priced and kept in before currencies were data, and the shop's own. */
export const HOME_CURRENCY = "USD" as const;
