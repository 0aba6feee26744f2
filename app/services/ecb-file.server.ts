/**
 * Reads the euro reference rates file the ECB publishes, as XML (eurofxref-daily.xml,
 * eurofxref-hist-90d.xml, eurofxref-hist.xml) or CSV (eurofxref.csv, eurofxref-hist.csv): rows of
 * day, currency and rate, or one sentence saying why the file is refused whole.
 */
import { parse } from "csv-parse/sync";
import { isRateCurrency, parseRate } from "~/domain/exchange-rates";
import type { RateRow } from "~/models/exchange-rate.server";
import { isCalendarDay } from "~/forms/order-forms";

export const ECB_NAMESPACE = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref";
/** More days than the ECB has published since 1999: a longer file is not theirs. */
const MAX_DAYS = 10_000;

export type EcbFile = { ok: true; rows: RateRow[]; days: number } | { ok: false; message: string };

const refuse = (message: string): EcbFile => ({ ok: false, message });
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-11-27", or the daily CSV's "27 November 2026", as a day; null when neither. */
function dayOf(text: string) {
  const long = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text.trim());
  const day = long
    ? `${long[3]}-${String(MONTHS.indexOf(long[2]) + 1).padStart(2, "0")}-${long[1].padStart(2, "0")}`
    : text.trim();
  return isCalendarDay(day) ? day : null;
}

/** The rows the shop keeps from the file's (day, currency, rate) triples; the first bad value refuses the file. */
function rowsOf(triples: { day: string; currency: string; rate: string }[], today: string): EcbFile {
  const rows: RateRow[] = [];
  const days = new Set<string>();
  for (const { day: dayText, currency, rate } of triples) {
    const day = dayOf(dayText);
    if (!day) return refuse(`“${dayText.slice(0, 30)}” is not a date: this is not the ECB's reference rates file.`);
    if (day > today) return refuse(`The file has rates for ${day}, a day still to come.`);
    days.add(day);
    if (days.size > MAX_DAYS) return refuse(`The file has more than ${MAX_DAYS} days: this is not the ECB's file.`);
    if (!isRateCurrency(currency) || rate === "N/A" || rate === "") continue;
    const micros = parseRate(rate);
    if (micros === null) return refuse(`The rate of ${currency} on ${day} (“${rate.slice(0, 20)}”) is not a rate.`);
    rows.push({ day, currency, rateMicros: micros });
  }
  if (!rows.length) return refuse("The file holds no rates of the currencies the shop keeps (USD, GBP, …).");
  return { ok: true, rows, days: days.size };
}

/** The ECB's XML: Cube elements with a time, each holding Cube elements with a currency and a rate. */
function fromXml(text: string, today: string): EcbFile {
  if (/<!(DOCTYPE|ENTITY)/i.test(text)) return refuse("The XML declares a document type: the ECB's file does not.");
  const root = /<([\w.-]+:)?Envelope\b[^>]*>/.exec(text);
  if (!root || (!root[0].includes(`"${ECB_NAMESPACE}"`) && !root[0].includes(`'${ECB_NAMESPACE}'`)))
    return refuse(`This XML is not the ECB's reference rates file (namespace ${ECB_NAMESPACE}).`);
  const triples: { day: string; currency: string; rate: string }[] = [];
  let day = "";
  for (const [, attributes] of text.matchAll(/<Cube\b([^>]*)>/g)) {
    const attribute = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(['"])(.*?)\\1`).exec(attributes)?.[2];
    const time = attribute("time");
    if (time !== undefined) day = time;
    const currency = attribute("currency");
    const rate = attribute("rate");
    if (currency === undefined) continue;
    if (!day || rate === undefined) return refuse("A rate in the file has no day or no value: the file is damaged.");
    triples.push({ day, currency, rate });
  }
  return rowsOf(triples, today);
}

/** The ECB's CSV: a header "Date, USD, JPY, …", then a line a day. */
function fromCsv(text: string, today: string): EcbFile {
  let records: string[][];
  try {
    records = parse(text, { trim: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 10_000 });
  } catch {
    return refuse("The CSV could not be read: download the ECB's file again and choose it.");
  }
  const [header, ...lines] = records;
  if (!header || header[0] !== "Date" || header.length < 2)
    return refuse("This CSV is not the ECB's reference rates file: its first column must be “Date”.");
  const triples = lines.flatMap((cells) =>
    header
      .slice(1)
      .flatMap((currency, index) =>
        currency ? [{ day: cells[0] ?? "", currency, rate: cells[index + 1] ?? "" }] : [],
      ),
  );
  return rowsOf(triples, today);
}

/** The rates in an uploaded ECB file (UTF-8 XML or CSV), none later than `today`. */
export async function readEcbFile(file: File, today: string): Promise<EcbFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.includes(0))
    return refuse("This is not the ECB's file: it holds binary data. Choose the .xml or .csv file.");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return refuse("The file is not UTF-8 text: choose the ECB's .xml or .csv file as downloaded.");
  }
  if (!text.trim()) return refuse("The file is empty.");
  return text.trimStart().startsWith("<") ? fromXml(text, today) : fromCsv(text, today);
}
