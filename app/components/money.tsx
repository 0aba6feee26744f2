import { createContext, useCallback, useContext, type ReactNode } from "react";
import { HOME_CURRENCY } from "~/content/currencies";
import type { Currency } from "~/domain/money";
import { formatCents } from "~/format";

/**
 * The currency of the amounts a part of the page shows: the root sets the buyer's (or the visitor's
 * chosen) currency, an order's page and documents the currency of the sale (decision record 11).
 */
const CurrencyContext = createContext<Currency>(HOME_CURRENCY);

export function InCurrency({ currency, children }: { currency: Currency; children: ReactNode }) {
  return <CurrencyContext.Provider value={currency}>{children}</CurrencyContext.Provider>;
}

export const useCurrency = () => useContext(CurrencyContext);

/** formatCents in the surrounding currency: `const money = useMoney(); money(1250)` is "€12.50" in euros. */
export function useMoney() {
  const currency = useContext(CurrencyContext);
  return useCallback(
    (cents: number, options: { plain?: boolean } = {}) => formatCents(cents, { ...options, currency }),
    [currency],
  );
}
