/** An account's money as the ledger has it: what the customer owes the shop and what the shop owes them (credit). */
import type { LedgerCurrency } from "~/domain/ledger";
import { formatCents } from "~/format";

export type OwedFigures = { currency: LedgerCurrency; owesCents: number; owedCents: number };

/** Cents in the account's currency: US dollars as everywhere else, another currency with its code. */
export function ledgerMoney(cents: number, currency: LedgerCurrency) {
  return currency === "USD" ? formatCents(cents) : `${currency} ${formatCents(cents, { plain: true })}`;
}

/** Both figures, a line a currency; what the shop owes stands out when there is some. */
export function OwedBothWays({ owed, testId }: { owed: OwedFigures[]; testId?: string }) {
  const rows = owed.length ? owed : [{ currency: "USD" as const, owesCents: 0, owedCents: 0 }];
  return (
    <span data-testid={testId}>
      {rows.map((row) => (
        <span key={row.currency} className="block">
          Owes us {ledgerMoney(row.owesCents, row.currency)} ·{" "}
          <span className={row.owedCents > 0 ? "font-semibold text-green-800" : undefined}>
            We owe them {ledgerMoney(row.owedCents, row.currency)}
          </span>
        </span>
      ))}
    </span>
  );
}
