import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { stringify } from "csv-stringify";
import type { Currency } from "~/domain/money";
import { formatCents } from "~/format";

/** One column of a CSV download: its header and how a row fills it. */
export type CsvColumn<Row> = { header: string; value: (row: Row) => string | number | null };

/**
 * A CSV download streamed row by row from `rows` (a database cursor), never held whole in memory.
 * UTF-8 with a byte-order mark so Excel reads accents; Excel-safe: csv-stringify's `escape_formulas`
 * puts an apostrophe before any text cell that starts with = + - @, a tab or a carriage return.
 */
export function csvResponse<Row>(filename: string, columns: CsvColumn<Row>[], rows: AsyncIterable<Row>) {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((column) => column.value(row) ?? "");
    })(),
  );
  // A cell with a semicolon is quoted too (volume breaks, "500:-5%;1000:-10%"): spreadsheets set to
  // semicolon lists, and the import's reader, then keep it one cell.
  const csv = stringify({
    bom: true,
    escape_formulas: true,
    header: true,
    columns: columns.map((c) => c.header),
    quoted_match: ";",
  });
  records.on("error", (error) => csv.destroy(error));
  return new Response(createReadableStreamFromReadable(records.pipe(csv)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * An amount in minor units as a number a spreadsheet reads, written by the shop's one money formatter
 * in its currency's decimals (US dollars unless named): 3700 -> "37.00", 2450 -> "24.50".
 */
export function csvDollars(cents: number, currency?: Currency) {
  return formatCents(cents, { plain: true, currency });
}

/** Today's UTC day, for file names: partsworks-orders-2026-01-31.csv. */
export function csvFileDay(now = new Date()) {
  return now.toISOString().slice(0, 10);
}
