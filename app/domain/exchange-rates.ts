/**
 * The ECB's euro reference rates as the shop keeps them ("1 EUR = x USD", an integer of millionths)
 * and the VAT of an invoice in the seller's VAT currency (EN 16931 BT-6, BT-111). Plain and client-safe:
 * integers and BigInt only, never a float that money is added with. docs/e-invoices.md.
 */

/** The seller's VAT accounting currency: its VAT registration is Dutch (content/tax-rates.ts). */
export const VAT_CURRENCY = "EUR";

/** The currencies a rate may be kept for: those the ECB publishes that the shop may invoice or report in. */
export const RATE_CURRENCIES = ["USD", "GBP", "CHF", "CAD", "JPY", "SEK", "DKK", "NOK", "PLN", "CZK", "HUF"] as const;
export type RateCurrency = (typeof RATE_CURRENCIES)[number];

export const isRateCurrency = (code: string): code is RateCurrency =>
  (RATE_CURRENCIES as readonly string[]).includes(code);

/** A rate has at most 6 decimals (the ECB's have at most 4) and is kept as millionths. */
export const RATE_SCALE = 1_000_000;
/** The largest rate accepted: the ECB's largest (IDR) is about 20,000. */
export const MAX_RATE_MICROS = 1_000_000 * RATE_SCALE;
const RATE_TEXT = /^(\d{1,7})(?:\.(\d{1,6}))?$/;

/** "1.0921" as 1092100 millionths; null for anything that is not a positive decimal with at most 6 decimals. */
export function parseRate(text: string): number | null {
  const match = RATE_TEXT.exec(text.trim());
  if (!match) return null;
  const micros = Number(match[1]) * RATE_SCALE + Number((match[2] ?? "").padEnd(6, "0"));
  return micros > 0 && micros <= MAX_RATE_MICROS ? micros : null;
}

/** 1092100 millionths as "1.0921": the rate as the ECB writes it, at least 2 decimals. */
export function formatRate(micros: number) {
  const whole = Math.floor(micros / RATE_SCALE);
  const fraction = String(micros % RATE_SCALE)
    .padStart(6, "0")
    .replace(/0+$/, "")
    .padEnd(2, "0");
  return `${whole}.${fraction}`;
}

/**
 * An amount in cents of `currency` in euro cents at "1 EUR = rate currency": cents ÷ rate, rounded
 * half away from zero to the cent (BT-111 has 2 decimals). BigInt, so large sums stay exact.
 */
export function toEuroCents(cents: number, rateMicros: number) {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(rateMicros) || rateMicros <= 0)
    throw new RangeError("An amount in cents and a positive rate in millionths are needed");
  const negative = cents < 0;
  const numerator = BigInt(Math.abs(cents)) * BigInt(RATE_SCALE);
  const denominator = BigInt(rateMicros);
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  return Number(negative ? -rounded : rounded);
}

/** What a document shows and its e-invoice carries of its VAT in euros, or why it cannot yet. */
export type VatInSellerCurrency =
  | {
      ok: true;
      /** BT-6. */
      currency: typeof VAT_CURRENCY;
      /** The invoice's currency, the one the rate is quoted in ("1 EUR = rate USD"). */
      invoiceCurrency: string;
      /** The rate as the ECB writes it ("1.0921"). */
      rate: string;
      /** The ECB day of the rate (YYYY-MM-DD): the newest on or before the tax point. */
      day: string;
      /** BT-111 in euro cents. */
      vatCents: number;
    }
  | { ok: false; currency: typeof VAT_CURRENCY; invoiceCurrency: string; taxPoint: string };

/** The sentence staff see when a rate is missing, on the document and where it is refused. */
export function missingRateMessage({ invoiceCurrency, taxPoint }: { invoiceCurrency: string; taxPoint: string }) {
  return `The VAT in euros cannot be stated yet: no ECB reference rate for ${invoiceCurrency} is recorded on or before ${taxPoint}. Staff add it under Exchange Rates; the PDF and the e-invoice follow.`;
}
