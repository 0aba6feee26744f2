/**
 * The price lists CSV import: `part_number,currency,price,breaks`, one line per part and currency
 * (USD lines are the home list). All or nothing: every line is checked first, and any problem
 * refuses the whole file with each bad line's number and reasons; a file without problems is
 * written part by part, and a part changed meanwhile undoes the parts already written.
 */
import { CURRENCIES } from "~/content/currencies";
import type { PartView } from "~/domain/catalogue";
import { CURRENCY_CODES, HOME_CURRENCY, isCurrency, type Currency } from "~/domain/money";
import { formatBreaks, parseBreaks, type PriceList, type VolumeBreak } from "~/domain/pricing";
import { formatQuantity } from "~/format";
import { priceListValues } from "~/forms/price-list-forms";
import { MAX_PRICE_DOLLARS } from "~/forms/shop-forms";
import { listIn, priceListsKey, setPriceLists, type PartPriceLists } from "~/models/part-price-lists.server";
import { audit, type AuditEvent, type AuditValues } from "./audit-trail.server";
import { columnKey, looksLikeFormula, readCsvUpload, refuse, type ImportRefusal } from "./csv-upload.server";
import { findPartsByNumbers, matchOf, normalisePartNumber } from "./part-number.server";
import { partTarget } from "./parts.server";
import { forgetCachedSearches } from "./search-guard.server";
import { defineWorkflow, step, stop } from "./workflow.server";

/** The export's headers (part_number, currency, price, breaks), and the spellings the import also reads. */
const COLUMN_KEYS = {
  partnumber: "partNumber",
  currency: "currency",
  price: "price",
  breaks: "breaks",
  volumebreaks: "breaks",
} as const;
type ColumnName = (typeof COLUMN_KEYS)[keyof typeof COLUMN_KEYS];

export type PriceListProblem = { line: number; partNumber: string; reasons: string[] };

/** One part's lists as the file leaves them, and as they were when it was read. */
export type PriceListChange = {
  partId: string;
  partNumber: string;
  name: string;
  line: number;
  before: PartPriceLists;
  after: PartPriceLists;
};

export type PriceListCheck =
  | { ok: true; lines: number; changes: PriceListChange[]; unchanged: number }
  | { ok: false; status: 422; lines: number; problems: PriceListProblem[] };

type Row = {
  line: number;
  partNumber: string;
  currency: Currency | null;
  priceCell: string;
  /** The breaks cell as typed; null without a breaks column (the list keeps its breaks). */
  breaksCell: string | null;
  reasons: string[];
};

/** The price of a line in minor units (null: the line removes the list), or undefined after a reason. */
function readPrice(row: Row, currency: Currency, storedCents: number | undefined) {
  const { symbol, units, plural } = CURRENCIES[currency];
  const cell = row.priceCell.trim();
  if (!cell) {
    if (currency !== HOME_CURRENCY) return null;
    return void row.reasons.push(`a part always has a price in ${plural}: the ${currency} price cannot be empty`);
  }
  if (/^-/.test(cell.replace(symbol, ""))) return void row.reasons.push(`price “${cell}” is negative`);
  if (looksLikeFormula(row.priceCell)) return void row.reasons.push(`price “${cell}” looks like a formula`);
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cell.startsWith(symbol) ? cell.slice(symbol.length).trim() : cell);
  if (!match) return void row.reasons.push(`price “${cell}” is not whole ${units} such as 37`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents < 100) return void row.reasons.push(`price is at least ${symbol}1`);
  if (cents > MAX_PRICE_DOLLARS * 100) {
    return void row.reasons.push(`price is at most ${symbol}${formatQuantity(MAX_PRICE_DOLLARS)}`);
  }
  // Prices are whole units; one with cents passes only as the list's own, unchanged.
  if (cents % 100 !== 0 && cents !== storedCents) {
    const down = Math.floor(cents / 100);
    return void row.reasons.push(
      `price “${cell}” is not whole ${units}: prices are whole ${units}, such as ${down} or ${down + 1}`,
    );
  }
  return cents;
}

/** The line's breaks, checked against the price it leaves the list with, or undefined after a reason. */
function readBreaks(row: Row, currency: Currency, priceCents: number | null, kept: VolumeBreak[]) {
  const { plural } = CURRENCIES[currency];
  if (row.breaksCell !== null && /^\s*[=+@]/.test(row.breaksCell)) {
    return void row.reasons.push("breaks look like a formula");
  }
  const text = row.breaksCell ?? formatBreaks(kept);
  if (priceCents === null) {
    if (row.breaksCell?.trim()) {
      row.reasons.push(`breaks in ${plural} need a price in ${plural}: give one, or clear the breaks`);
    }
    return [];
  }
  const parsed = parseBreaks(text, priceCents, currency);
  if (parsed.ok) return parsed.breaks;
  row.reasons.push(
    row.breaksCell === null
      ? `the breaks it keeps, ${text}: ${parsed.message}`
      : `breaks “${text.trim()}”: ${parsed.message}`,
  );
}

/** What the part's lists become with this line (its currency's list set, or taken away). */
function withLine(lists: PartPriceLists, currency: Currency, priceCents: number | null, breaks: VolumeBreak[]) {
  if (currency === HOME_CURRENCY) return { ...lists, priceCents: priceCents!, volumeBreaks: breaks };
  const others = lists.prices.filter((list) => list.currency !== currency);
  const added: PriceList[] = priceCents === null ? [] : [{ currency, priceCents, volumeBreaks: breaks }];
  const prices = [...others, ...added].sort(
    (a, b) => CURRENCY_CODES.indexOf(a.currency) - CURRENCY_CODES.indexOf(b.currency),
  );
  return { ...lists, prices };
}

const listsOf = (part: PartView): PartPriceLists => ({
  priceCents: part.priceCents,
  volumeBreaks: part.volumeBreaks,
  prices: part.prices,
});

/**
 * Reads an uploaded price lists CSV and checks every line, writing nothing: the changes it would
 * make, or every bad line with its reasons (then nothing of the file is taken).
 */
export async function checkPriceListFile(file: File): Promise<PriceListCheck | ImportRefusal> {
  const read = await readCsvUpload(file, "the price lists");
  if (!read.ok) return read;
  const { header, records } = read;
  const columns: Partial<Record<ColumnName, number>> = {};
  for (const [index, cell] of header.entries()) {
    const name = COLUMN_KEYS[columnKey(cell) as keyof typeof COLUMN_KEYS];
    if (!name) continue;
    if (columns[name] !== undefined) return refuse(422, `The column “${cell.trim()}” appears twice in the first line.`);
    columns[name] = index;
  }
  if (columns.partNumber === undefined || columns.currency === undefined || columns.price === undefined) {
    return refuse(
      422,
      "The first line must name the columns part_number, currency and price, and if you like breaks (as in the price lists export).",
    );
  }
  if (records.length === 0) return refuse(422, "The file has a header but no lines to import.");

  const cellOf = (cells: string[], name: ColumnName) =>
    columns[name] === undefined ? null : (cells[columns[name]!] ?? "");
  const rows: Row[] = records.map(({ line, cells }) => {
    const reasons: string[] = [];
    const rawNumber = cellOf(cells, "partNumber") ?? "";
    const partNumber = rawNumber.trim().toUpperCase();
    if (!partNumber) reasons.push("no part number");
    else if (looksLikeFormula(rawNumber)) reasons.push(`part number “${rawNumber.trim()}” looks like a formula`);
    const code = (cellOf(cells, "currency") ?? "").trim().toUpperCase();
    const currency = isCurrency(code) ? code : null;
    if (!code) reasons.push(`no currency (${CURRENCY_CODES.join(", ")})`);
    else if (!currency) reasons.push(`currency “${code}” is not one the shop sells in (${CURRENCY_CODES.join(", ")})`);
    return {
      line,
      partNumber,
      currency,
      priceCell: cellOf(cells, "price") ?? "",
      breaksCell: cellOf(cells, "breaks"),
      reasons,
    };
  });

  const matches = await findPartsByNumbers(rows.map((row) => row.partNumber).filter(Boolean));
  const partOf = (row: Row) => (row.partNumber ? matchOf(matches, row.partNumber).part : null);
  // One part's list in one currency on two lines (its number written two ways too) is refused on both.
  const sameList = (row: Row) => `${partOf(row)?.id ?? normalisePartNumber(row.partNumber)} ${row.currency}`;
  const linesOf = new Map<string, number[]>();
  for (const row of rows) {
    if (row.partNumber && row.currency) linesOf.set(sameList(row), [...(linesOf.get(sameList(row)) ?? []), row.line]);
  }
  const after = new Map<string, { part: PartView; line: number; lists: PartPriceLists }>();
  for (const row of rows) {
    const part = partOf(row);
    if (row.partNumber && !part && !row.reasons.some((reason) => reason.includes("formula"))) {
      const match = matchOf(matches, row.partNumber);
      row.reasons.push(
        match.part === null && match.reason === "ambiguous"
          ? `“${row.partNumber}” is an OE number of several parts (${match.candidates.join(", ")}): use the part number`
          : `unknown part number “${row.partNumber}”`,
      );
    }
    const lines = row.partNumber && row.currency ? (linesOf.get(sameList(row)) ?? []) : [];
    if (lines.length > 1) {
      row.reasons.push(
        `${row.partNumber} in ${row.currency} appears more than once (lines ${lines.join(", ")}): keep one line`,
      );
    }
    if (!part || !row.currency) continue;
    const stored = listIn(listsOf(part), row.currency);
    const priceCents = readPrice(row, row.currency, stored?.priceCents);
    if (priceCents === undefined) continue;
    const breaks = readBreaks(row, row.currency, priceCents, stored?.volumeBreaks ?? []);
    if (breaks === undefined || row.reasons.length) continue;
    const entry = after.get(part.id) ?? { part, line: row.line, lists: listsOf(part) };
    after.set(part.id, { ...entry, lists: withLine(entry.lists, row.currency, priceCents, breaks) });
  }

  const problems = rows.flatMap((row) =>
    row.reasons.length ? [{ line: row.line, partNumber: row.partNumber, reasons: row.reasons }] : [],
  );
  if (problems.length) return { ok: false, status: 422, lines: rows.length, problems };
  const changes = [...after.values()]
    .filter(({ part, lists }) => priceListsKey(lists) !== priceListsKey(listsOf(part)))
    .map(({ part, line, lists }) => ({
      partId: part.id,
      partNumber: part.partNumber,
      name: part.name,
      line,
      before: listsOf(part),
      after: lists,
    }));
  return { ok: true, lines: rows.length, changes, unchanged: after.size - changes.length };
}

export type PriceListConflict = { line: number; partNumber: string; reason: "missing" | "changed" };

/**
 * Writes the parts' lists one part at a time, each only while it is still as the check read it;
 * a part changed meanwhile stops the import and puts back the parts already written.
 */
type ImportRun = { changes: PriceListChange[]; written: PriceListChange[] };

const writePriceListsFlow = defineWorkflow<ImportRun, PriceListConflict>("price-lists-import", [
  step<ImportRun, PriceListConflict, PriceListChange[]>({
    name: "write-lists",
    run: async (run) => {
      for (const change of run.changes) {
        const outcome = await setPriceLists(change.partId, change.before, change.after);
        if (!outcome.ok) {
          return stop({ line: change.line, partNumber: change.partNumber, reason: outcome.reason }, [...run.written]);
        }
        run.written.push(change);
      }
      return [...run.written];
    },
    // A step that threw has no receipt: what it wrote is in the run.
    compensate: async (run, written: PriceListChange[] | undefined) => {
      for (const change of [...(written ?? run.written)].reverse()) {
        await setPriceLists(change.partId, change.after, change.before);
      }
    },
  }),
]);

/** A part's lists as the audit log keeps them: the home price and breaks, and each other list in words. */
function auditValues(lists: PartPriceLists): AuditValues {
  return {
    priceCents: lists.priceCents,
    volumeBreaks: formatBreaks(lists.volumeBreaks),
    ...priceListValues(lists.prices),
  };
}

/** Only the values that changed, before and after. */
function changed(before: AuditValues, after: AuditValues) {
  const keys = Object.keys(after).filter((key) => before[key] !== after[key]);
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key]])) as AuditValues,
    after: Object.fromEntries(keys.map((key) => [key, after[key]])) as AuditValues,
  };
}

/** Applies a checked file's changes, all or none, each part's change audited; a conflict names the part. */
export async function importPriceLists(
  changes: PriceListChange[],
  { actor, context }: { actor: { id: string; email: string }; context?: AuditEvent["context"] },
): Promise<{ ok: true; applied: number } | { ok: false; conflict: PriceListConflict }> {
  const result = await writePriceListsFlow.run({ changes, written: [] });
  if (!result.ok) return { ok: false, conflict: result.stop };
  if (changes.length) forgetCachedSearches();
  for (const change of changes) {
    await audit({
      context,
      actor,
      action: "part.update",
      target: partTarget({ id: change.partId, name: change.name }),
      ...changed(auditValues(change.before), auditValues(change.after)),
    });
  }
  return { ok: true, applied: changes.length };
}
