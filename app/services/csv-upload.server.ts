/**
 * Reading an uploaded CSV file for the imports (stock and prices, price lists): the checks that
 * refuse a file whole before any line is looked at. The body is already capped by BODY_LIMIT_BYTES;
 * parsing stops at MAX_IMPORT_LINES + 1 records. Only UTF-8 is read (Excel's "CSV UTF-8"); any other
 * encoding is refused, never guessed.
 */
import { parse } from "csv-parse";
import { formatQuantity } from "~/format";
import { MAX_IMPORT_LINES } from "~/forms/stock-import";
import { getEnv } from "./env.server";
import { readForm } from "./form.server";

/** A file refused whole (nothing listed, nothing written), with the status the answer carries. */
export type ImportRefusal = { ok: false; status: 400 | 413 | 415 | 422; message: string };

/** A data line of the file: its line number (the header is line 1) and its cells. */
export type CsvRecord = { line: number; cells: string[] };

export function refuse(status: ImportRefusal["status"], message: string): ImportRefusal {
  return { ok: false, status, message };
}

/** "Part number", "PART_NUMBER", " part-number " all name the same column. */
export const columnKey = (header: string) => header.toLowerCase().replace(/[^a-z]/g, "");

/** A cell a spreadsheet would run as a formula (the characters csv-stringify's escape_formulas watches). */
export const looksLikeFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) || /^\s*[=+@]/.test(cell);

/**
 * The file's header and data lines (blank lines skipped), or why it is refused whole: binary, not
 * UTF-8, empty, unreadable as CSV, or longer than MAX_IMPORT_LINES. `what` names the export that
 * makes such a file, for the empty file's message.
 */
export async function readCsvUpload(
  file: File,
  what = "the products",
): Promise<{ ok: true; header: string[]; records: CsvRecord[] } | ImportRefusal> {
  const empty = `The file is empty: export ${what}, edit the file, and choose it again.`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.includes(0)) {
    return refuse(415, "This is not a CSV file: it holds binary data. Choose a .csv file saved as text.");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse(
      422,
      "The file is not UTF-8 text (accents would be garbled). In Excel, save it as “CSV UTF-8 (Comma delimited)” and choose it again.",
    );
  }
  if (text.trim() === "") return refuse(400, empty);

  // The first line tells the separator (a spreadsheet in a comma-decimal locale writes semicolons);
  // reading both at once would split an unquoted cell of volume breaks ("500:-5%;1000:-10%").
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const parser = parse(text, {
    delimiter: firstLine.includes(",") || !firstLine.includes(";") ? "," : ";",
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: 10_000,
    info: true,
  });
  let header: string[] | null = null;
  const records: CsvRecord[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record;
        continue;
      }
      if (record.every((cell) => cell.trim() === "")) continue;
      if (records.length >= MAX_IMPORT_LINES) {
        parser.destroy();
        return refuse(
          413,
          `The file has more than ${formatQuantity(MAX_IMPORT_LINES)} lines. Split it into files of at most ${formatQuantity(MAX_IMPORT_LINES)} lines each.`,
        );
      }
      records.push({ line: info.lines, cells: record });
    }
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return refuse(
      422,
      `The file could not be read as CSV${line ? ` (line ${line})` : ""}: check its quotes, or export it again as CSV.`,
    );
  }
  if (!header) return refuse(400, empty);
  return { ok: true, header, records };
}

/**
 * The form of an import's upload, or, for a file over the body limit, the words its file field
 * shows (the limit, and to split the file): both imports answer that with a 413.
 */
export async function readUploadForm(request: Request): Promise<{ form: FormData } | { tooLarge: string }> {
  try {
    return { form: await readForm(request) };
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status !== 413) throw thrown;
    const limit = `${formatQuantity(Math.floor(getEnv().BODY_LIMIT_BYTES / 1024))} KB`;
    return {
      tooLarge: `The file is larger than ${limit}. Split it into smaller files (at most ${formatQuantity(MAX_IMPORT_LINES)} lines each).`,
    };
  }
}
