/** An account's money as the ledger has it: what the customer owes the shop and what the shop owes them (credit). */
import type { LedgerCurrency } from "~/domain/ledger";
import { formatCents } from "~/format";

export type OwedFigures = { currency: LedgerCurrency; owesCents: number; owedCents: number };

/** Cents in the account's currency, with its sign: "$12.50", "€12.50", "£12.50". */
export function ledgerMoney(cents: number, currency: LedgerCurrency) {
  return formatCents(cents, { currency });
}

/**
 * Both figures, a line a currency (never one figure across them); what the shop owes stands out when
 * there is some. An account with nothing on its ledger reads nothing either way in `currency`, its own.
 */
export function OwedBothWays({
  owed,
  currency = "USD",
  testId,
}: {
  owed: OwedFigures[];
  currency?: LedgerCurrency;
  testId?: string;
}) {
  const rows = owed.length ? owed : [{ currency, owesCents: 0, owedCents: 0 }];
  return (
    <span data-testid={testId}>
      {rows.map((row) => (
        <span key={row.currency} className="block" data-currency={row.currency}>
          Owes us {ledgerMoney(row.owesCents, row.currency)} ·{" "}
          <span className={row.owedCents > 0 ? "font-semibold text-green-800" : undefined}>
            We owe them {ledgerMoney(row.owedCents, row.currency)}
          </span>
        </span>
      ))}
    </span>
  );
}
