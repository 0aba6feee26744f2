import { formatDate, formatEuroCents } from "~/format";
import { missingRateMessage, type VatInSellerCurrency } from "~/domain/exchange-rates";

/**
 * Under an invoice's or credit note's totals: its EU VAT in euros at the ECB's rate, which the Dutch
 * VAT registration declares (VAT directive Art. 230 and 91). Without a rate, what is missing.
 */
export function VatInSellerCurrencyLine({ vat }: { vat: VatInSellerCurrency | null | undefined }) {
  if (!vat) return null;
  if (!vat.ok) {
    return (
      <p className="pw-tax-note pw-keep" role="alert" data-testid="vat-in-eur-missing">
        {missingRateMessage(vat)}
      </p>
    );
  }
  return (
    <p className="pw-tax-note pw-keep" data-testid="vat-in-eur">
      VAT in {vat.currency}: <strong>{formatEuroCents(vat.vatCents)}</strong> at 1 {vat.currency} = {vat.rate}{" "}
      {vat.invoiceCurrency} (ECB reference rate of {formatDate(vat.day)})
    </p>
  );
}
