/**
 * The demo's exchange rates: a euro reference rate for USD, GBP and CHF on every weekday (the ECB's
 * publishing days, holidays aside) of the last 200 days, so an invoice with EU VAT prints its VAT in
 * euros on first start. Illustrative values near the ECB's, kept as typed by staff: importing the
 * ECB's own file corrects them.
 */
import { recordedRates, writeRates, type RateRow } from "~/models/exchange-rate.server";

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS = 200;
/** Millionths: 1 EUR = 1.16 USD, 0.87 GBP, 0.93 CHF, each moving a little from day to day. */
const CENTRES = { USD: 1_160_000, GBP: 870_000, CHF: 930_000 } as const;

export const DEMO_RATES_BY = "demo data (illustrative rates)";

/** The demo's rates on the weekdays up to `now`, written where none is recorded yet. */
export async function ensureDemoExchangeRates(now: number) {
  const rows: RateRow[] = [];
  for (let back = DAYS; back >= 0; back--) {
    const date = new Date(now - back * DAY_MS);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const day = date.toISOString().slice(0, 10);
    const wave = Math.round(Math.sin((now / DAY_MS - back) / 9) * 100) * 100;
    for (const [currency, centre] of Object.entries(CENTRES)) {
      rows.push({ day, currency, rateMicros: centre + Math.round((wave * centre) / 1_160_000 / 100) * 100 });
    }
  }
  const recorded = await recordedRates(rows);
  await writeRates(
    rows.filter((row) => !recorded.has(`${row.day} ${row.currency}`)),
    "staff",
    DEMO_RATES_BY,
  );
}
