/**
 * The VAT of an invoice or credit note in the seller's VAT currency (EN 16931 BT-6, BT-111): the seller
 * invoices in USD under a Dutch VAT registration, so EU VAT charged is also stated in euros, at the
 * ECB's reference rate of the tax point (VAT directive Art. 91(2); docs/e-invoices.md, "VAT in euros").
 */
import type { Invoice } from "@e-invoice-eu/core";
import {
  formatRate,
  missingRateMessage,
  toEuroCents,
  VAT_CURRENCY,
  type VatInSellerCurrency,
} from "~/domain/exchange-rates";
import type { OrderDocumentData } from "~/domain/order-document";
import { rateOn } from "~/models/exchange-rate.server";
import { HOME_CURRENCY } from "~/domain/money";

/** The currency of the document's sale (BT-5): VAT in euros is stated apart only when it is another. */
const invoiceCurrencyOf = (data: Pick<OrderDocumentData, "order">) => data.order.currency ?? HOME_CURRENCY;

/** EU VAT charged on the document (the tax line kind "vat", category S), in cents; null when none. */
function euVatCents(data: Pick<OrderDocumentData, "order">) {
  const lines = data.order.taxLines.filter((line) => line.kind === "vat");
  return lines.length ? lines.reduce((sum, line) => sum + line.amountCents, 0) : null;
}

/**
 * The tax point the rate is taken on: an invoice's date; for a credit note, the date of the invoice it
 * corrects, so the VAT it takes back in euros is what that invoice declared.
 */
export function taxPointOf(data: Pick<OrderDocumentData, "order" | "creditNote" | "kind">) {
  const { order } = data;
  const day =
    data.kind === "credit-note" && data.creditNote
      ? data.creditNote.invoiceIssuedAt
      : (order.invoicedAt ?? order.paidAt ?? order.createdAt);
  return day.slice(0, 10);
}

/** For a document that charges EU VAT: its VAT in euros, or that the rate is missing; null for any other. */
export async function vatInSellerCurrencyFor(
  data: Pick<OrderDocumentData, "order" | "creditNote" | "kind">,
): Promise<VatInSellerCurrency | null> {
  if (data.kind !== "invoice" && data.kind !== "credit-note") return null;
  const vatCents = euVatCents(data);
  const invoiceCurrency = invoiceCurrencyOf(data);
  if (vatCents === null || invoiceCurrency === VAT_CURRENCY) return null;
  const taxPoint = taxPointOf(data);
  const rate = await rateOn(invoiceCurrency, taxPoint);
  if (!rate) return { ok: false, currency: VAT_CURRENCY, invoiceCurrency, taxPoint };
  return {
    ok: true,
    currency: VAT_CURRENCY,
    invoiceCurrency,
    rate: formatRate(rate.rateMicros),
    day: rate.day,
    vatCents: toEuroCents(vatCents, rate.rateMicros),
  };
}

/** Cents as the XML writes amounts ("1521.99"), digit by digit. */
function decimal(cents: number) {
  const digits = String(Math.abs(cents)).padStart(3, "0");
  return `${cents < 0 ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

type Ubl = Invoice["ubl:Invoice"];
type TaxTotal = Ubl["cac:TaxTotal"][number];

/**
 * BT-6 and BT-111 for the e-invoice: the tax currency code, and a second VAT total in it with no
 * breakdown (UBL's form; the CII's is a second TaxTotalAmount). Nothing for a document without EU VAT;
 * a document with EU VAT and no rate has no e-invoice yet (an error, never a guess).
 */
export function taxCurrencyOf(data: OrderDocumentData): {
  code: Pick<Ubl, "cbc:TaxCurrencyCode"> | Record<string, never>;
  totals: [] | [TaxTotal];
} {
  if (euVatCents(data) === null || invoiceCurrencyOf(data) === VAT_CURRENCY) return { code: {}, totals: [] };
  const vat = data.vatInSellerCurrency;
  if (!vat?.ok) {
    throw new Error(
      missingRateMessage({ invoiceCurrency: invoiceCurrencyOf(data), taxPoint: vat?.taxPoint ?? taxPointOf(data) }),
    );
  }
  return {
    code: { "cbc:TaxCurrencyCode": vat.currency },
    totals: [{ "cbc:TaxAmount": decimal(vat.vatCents), "cbc:TaxAmount@currencyID": vat.currency }],
  };
}
