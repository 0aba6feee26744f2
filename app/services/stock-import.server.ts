import { findPartsByNumbers, matchOf, normalisePartNumber } from "./part-number.server";
import { setBackorderPolicy } from "~/models/part-catalogue.server";
import { applyImportedChange } from "~/models/part-csv.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { partTarget, partValues } from "./parts.server";
import { forgetCachedSearches } from "./search-guard.server";
import { formatCents, formatQuantity } from "~/format";
import { MAX_PRICE_DOLLARS, MAX_STOCK } from "~/forms/shop-forms";
import { backorderWords, MAX_LEAD_TIME_DAYS, type BackorderPolicy, type ImportChange } from "~/forms/stock-import";
import { isCalendarDay } from "~/forms/order-forms";
import { columnKey, looksLikeFormula, readCsvUpload, refuse, type ImportRefusal } from "./csv-upload.server";
import { formatBreaks, parseBreaks, type VolumeBreak } from "~/domain/pricing";

export type ImportRow = {
  line: number;
  partId: string;
  partNumber: string;
  name: string;
  field: "stock" | "price" | "breaks" | "backorder";
  /** Stock as a count, price in cents, volume breaks in the compact syntax, backorders in words. */
  before: number | string;
  after: number | string;
};
export type ImportProblem = { line: number; partNumber: string; reasons: string[] };
export type DryRun = {
  ok: true;
  lines: number;
  rows: ImportRow[];
  problems: ImportProblem[];
  unchanged: number;
  /** What Apply receives: one tuple per part with a change. */
  changes: ImportChange[];
  /** The part each line named, by its place ("" when none was found). */
  partIds: string[];
};

const COLUMN_KEYS = {
  partnumber: "partNumber",
  stock: "stock",
  price: "price",
  volumebreaks: "breaks",
  // The export's "May be backordered", "Restock date" and "Lead time (days)", and shorter spellings.
  maybebackordered: "backorderable",
  backorder: "backorderable",
  backorderable: "backorderable",
  restockdate: "restockOn",
  restockon: "restockOn",
  leadtimedays: "leadTimeDays",
  leadtime: "leadTimeDays",
} as const;
type ColumnName = (typeof COLUMN_KEYS)[keyof typeof COLUMN_KEYS];

/** Reads an uploaded stock-and-price CSV (csv-upload.server.ts) and works out what it would change, writing nothing. */
export async function dryRunImport(file: File): Promise<DryRun | ImportRefusal> {
  const read = await readCsvUpload(file);
  if (!read.ok) return read;
  const { header, records } = read;

  const columns: Partial<Record<ColumnName, number>> = {};
  for (const [index, cell] of header.entries()) {
    const name = COLUMN_KEYS[columnKey(cell) as keyof typeof COLUMN_KEYS];
    if (!name) continue;
    if (columns[name] !== undefined) return refuse(422, `The column “${cell.trim()}” appears twice in the first line.`);
    columns[name] = index;
  }
  if (
    columns.partNumber === undefined ||
    (columns.stock === undefined &&
      columns.price === undefined &&
      columns.breaks === undefined &&
      columns.backorderable === undefined &&
      columns.restockOn === undefined &&
      columns.leadTimeDays === undefined)
  ) {
    return refuse(
      422,
      "The first line must name the columns: “part number”, and “stock”, “price”, “volume breaks” and/or the backorder columns (as in the products CSV export).",
    );
  }
  if (records.length === 0) return refuse(422, "The file has a header but no lines to import.");

  // A cell's error names its column as the file's first line writes it.
  const headerOf = (name: ColumnName) => header![columns[name]!].trim();
  return compare(records, columns as Record<"partNumber", number> & Partial<Record<ColumnName, number>>, headerOf);
}

type Parsed = {
  line: number;
  partNumber: string;
  stock: number | null;
  priceCents: number | null;
  /** The breaks cell as typed (null: no such column); checked against the part's price in compare. */
  breaks: string | null;
  /** The backorder cells read (a field left out: the line leaves it alone); null: none given. */
  backorder: Partial<BackorderPolicy> | null;
  /** A restock day before today, and its column: it passes only as the part's own, unchanged. */
  pastRestock?: string;
  reasons: string[];
};

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);
/** Clears the restock date or the lead time (an empty cell leaves it alone, as every column does). */
const NONE = "none";

function readBackorder(
  cells: { allowed: string | null; restockOn: string | null; leadTimeDays: string | null },
  headerOf: (name: ColumnName) => string,
  reasons: string[],
): { policy: Partial<BackorderPolicy> | null; pastRestock?: string } {
  const policy: Partial<BackorderPolicy> = {};
  let pastRestock: string | undefined;
  const allowed = cells.allowed?.trim().toLowerCase() ?? "";
  if (allowed) {
    if (YES.has(allowed)) policy.allowed = true;
    else if (NO.has(allowed)) policy.allowed = false;
    else reasons.push(`${headerOf("backorderable")} “${cells.allowed!.trim()}” is not yes or no`);
  }
  const day = cells.restockOn?.trim() ?? "";
  if (day.toLowerCase() === NONE) policy.restockOn = null;
  else if (day) {
    if (looksLikeFormula(cells.restockOn!)) reasons.push(`${headerOf("restockOn")} “${day}” looks like a formula`);
    else if (!isCalendarDay(day)) {
      reasons.push(`${headerOf("restockOn")} “${day}” is not a real date: write it as 2027-01-12, or none`);
    } else {
      policy.restockOn = day;
      if (day < new Date().toISOString().slice(0, 10)) pastRestock = day;
    }
  }
  const lead = cells.leadTimeDays?.trim() ?? "";
  if (lead.toLowerCase() === NONE) policy.leadTimeDays = null;
  else if (lead) {
    const days = /^\d{1,4}$/.test(lead) ? Number(lead) : NaN;
    if (!Number.isInteger(days) || days < 1 || days > MAX_LEAD_TIME_DAYS) {
      reasons.push(
        `${headerOf("leadTimeDays")} “${lead}” is not a whole number of days from 1 to ${MAX_LEAD_TIME_DAYS}, or none`,
      );
    } else policy.leadTimeDays = days;
  }
  return { policy: Object.keys(policy).length ? policy : null, pastRestock };
}

function readStock(cell: string, reasons: string[]) {
  const value = cell.trim();
  if (/^-\d+(\.\d+)?$/.test(value)) return void reasons.push(`stock “${value}” is negative`);
  if (looksLikeFormula(cell)) return void reasons.push(`stock “${value}” looks like a formula`);
  if (!/^\d+$/.test(value)) return void reasons.push(`stock “${value}” is not a whole number`);
  const stock = Number(value);
  if (stock > MAX_STOCK) return void reasons.push(`stock is at most ${formatQuantity(MAX_STOCK)}`);
  return stock;
}

function readPrice(cell: string, reasons: string[]) {
  const value = cell.trim();
  if (/^-\d+(\.\d+)?$/.test(value)) return void reasons.push(`price “${value}” is negative`);
  if (looksLikeFormula(cell)) return void reasons.push(`price “${value}” looks like a formula`);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return void reasons.push(`price “${value}” is not whole dollars such as 37`);
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (cents < 100) return void reasons.push("price is at least $1");
  if (cents > MAX_PRICE_DOLLARS * 100) {
    return void reasons.push(`price is at most $${formatQuantity(MAX_PRICE_DOLLARS)}`);
  }
  return cents;
}

function compare(
  records: { line: number; cells: string[] }[],
  columns: Record<"partNumber", number> & Partial<Record<ColumnName, number>>,
  headerOf: (name: ColumnName) => string,
): Promise<DryRun> {
  const parsed: Parsed[] = records.map(({ line, cells }) => {
    const reasons: string[] = [];
    const rawNumber = cells[columns.partNumber] ?? "";
    const partNumber = rawNumber.trim().toUpperCase();
    if (!partNumber) reasons.push("no part number");
    else if (looksLikeFormula(rawNumber)) reasons.push(`part number “${rawNumber.trim()}” looks like a formula`);
    const stockCell = columns.stock === undefined ? "" : (cells[columns.stock] ?? "");
    const priceCell = columns.price === undefined ? "" : (cells[columns.price] ?? "");
    const stock = stockCell.trim() ? (readStock(stockCell, reasons) ?? null) : null;
    const priceCents = priceCell.trim() ? (readPrice(priceCell, reasons) ?? null) : null;
    const breaksCell = columns.breaks === undefined ? null : (cells[columns.breaks] ?? "");
    if (breaksCell !== null && /^\s*[=+@]/.test(breaksCell)) reasons.push("volume breaks look like a formula");
    const cellOf = (name: ColumnName) => (columns[name] === undefined ? null : (cells[columns[name]!] ?? ""));
    const { policy, pastRestock } = readBackorder(
      { allowed: cellOf("backorderable"), restockOn: cellOf("restockOn"), leadTimeDays: cellOf("leadTimeDays") },
      headerOf,
      reasons,
    );
    return {
      line,
      partNumber,
      stock,
      priceCents,
      breaks: breaksCell,
      backorder: policy,
      ...(pastRestock ? { pastRestock: `${headerOf("restockOn")} “${pastRestock}”` } : {}),
      reasons,
    };
  });
  return compareParsed(parsed);
}

/**
 * The same dry run for updates given as numbers (the API's stock and price updates): the checks
 * against the catalogue are the import's, line by line (line 2 is the first update, as in a file).
 */
export function dryRunUpdates(updates: { partNumber: string; stock?: number | null; priceCents?: number | null }[]) {
  return compareParsed(
    updates.map((update, index) => ({
      line: index + 2,
      partNumber: update.partNumber.trim().toUpperCase(),
      stock: update.stock ?? null,
      priceCents: update.priceCents ?? null,
      breaks: null,
      backorder: null,
      reasons: [],
    })),
  );
}

async function compareParsed(parsed: Parsed[]): Promise<DryRun> {
  // One resolver for every typed number (part-number.server.ts): "pw 1003" and an OE number find their part.
  const matches = await findPartsByNumbers(parsed.map((row) => row.partNumber).filter(Boolean));
  const partOf = (row: Parsed) => (row.partNumber ? matchOf(matches, row.partNumber).part : null);
  // Two lines naming one part (also written two ways) are the same line twice.
  const sameLine = (row: Parsed) => partOf(row)?.id ?? normalisePartNumber(row.partNumber);
  const linesOf = new Map<string, number[]>();
  for (const row of parsed) {
    if (row.partNumber) linesOf.set(sameLine(row), [...(linesOf.get(sameLine(row)) ?? []), row.line]);
  }
  const rows: ImportRow[] = [];
  const problems: ImportProblem[] = [];
  const changes: ImportChange[] = [];
  let unchanged = 0;
  for (const row of parsed) {
    const lines = row.partNumber ? (linesOf.get(sameLine(row)) ?? []) : [];
    if (lines.length > 1) {
      row.reasons.push(
        `${row.partNumber} appears more than once in the file (lines ${lines.join(", ")}): keep one line`,
      );
    }
    const part = partOf(row);
    if (row.partNumber && !part && !row.reasons.some((r) => r.includes("formula"))) {
      const match = matchOf(matches, row.partNumber);
      row.reasons.push(
        match.part === null && match.reason === "ambiguous"
          ? `“${row.partNumber}” is an OE number of several parts (${match.candidates.join(", ")}): use the part number`
          : `unknown part number “${row.partNumber}”`,
      );
    }
    // Prices are whole dollars; a price with cents passes only as the part's own, unchanged.
    if (part && row.priceCents !== null && row.priceCents % 100 !== 0 && row.priceCents !== part.priceCents) {
      const down = Math.max(1, Math.floor(row.priceCents / 100));
      row.reasons.push(
        `price “${(row.priceCents / 100).toFixed(2)}” is not whole dollars: prices are whole dollars, such as ${down} or ${down + 1}`,
      );
    }
    // Breaks are checked against the price the line leaves the part with.
    let breaks: VolumeBreak[] | null = null;
    if (part && row.breaks !== null) {
      const parsed = parseBreaks(row.breaks, row.priceCents ?? part.priceCents);
      if (parsed.ok) breaks = parsed.breaks;
      else row.reasons.push(`volume breaks “${row.breaks.trim()}”: ${parsed.message}`);
    }
    // A restock day in the past passes only as the part's own, unchanged (an export read back as it is).
    if (part && row.pastRestock && row.backorder?.restockOn !== part.restockOn) {
      row.reasons.push(`${row.pastRestock} is in the past: give the day stock is now expected, or none`);
    }
    if (row.reasons.length || !part) {
      problems.push({ line: row.line, partNumber: row.partNumber, reasons: row.reasons });
      continue;
    }
    const base = { line: row.line, partId: part.id, partNumber: part.partNumber, name: part.name };
    const stockChanges = row.stock !== null && row.stock !== part.availableQuantity;
    const priceChanges = row.priceCents !== null && row.priceCents !== part.priceCents;
    if (stockChanges) rows.push({ ...base, field: "stock", before: part.availableQuantity, after: row.stock! });
    if (priceChanges) rows.push({ ...base, field: "price", before: part.priceCents, after: row.priceCents! });
    const breaksBefore = formatBreaks(part.volumeBreaks);
    const breaksAfter = breaks ? formatBreaks(breaks) : null;
    const breaksChange = breaksAfter !== null && breaksAfter !== breaksBefore;
    if (breaksChange) rows.push({ ...base, field: "breaks", before: breaksBefore, after: breaksAfter });
    const policyBefore: BackorderPolicy = {
      allowed: part.backorderable,
      restockOn: part.restockOn,
      leadTimeDays: part.leadTimeDays,
    };
    const policyAfter: BackorderPolicy | null = row.backorder ? { ...policyBefore, ...row.backorder } : null;
    const backorderChange = policyAfter !== null && backorderWords(policyAfter) !== backorderWords(policyBefore);
    if (backorderChange) {
      rows.push({
        ...base,
        field: "backorder",
        before: backorderWords(policyBefore),
        after: backorderWords(policyAfter),
      });
    }
    if (!stockChanges && !priceChanges && !breaksChange && !backorderChange) {
      unchanged += 1;
      continue;
    }
    changes.push([
      part.id,
      row.line,
      stockChanges ? part.availableQuantity : null,
      stockChanges ? row.stock : null,
      priceChanges ? part.priceCents : null,
      priceChanges ? row.priceCents : null,
      breaksChange ? breaksBefore : null,
      breaksChange ? breaksAfter : null,
      backorderChange ? policyBefore : null,
      backorderChange ? policyAfter : null,
    ]);
  }
  return {
    ok: true,
    lines: parsed.length,
    rows,
    problems,
    unchanged,
    changes,
    partIds: parsed.map((row) => partOf(row)?.id ?? ""),
  };
}

const policyValues = (part: { backorderable: boolean; restockOn: string | null; leadTimeDays: number | null }) => ({
  backorderable: part.backorderable,
  restockOn: part.restockOn,
  leadTimeDays: part.leadTimeDays,
});

export type ImportConflict = { line: number; partId: string; name: string; reason: string };
/** A line whose stock rose: by how much, and the part's available stock it left (before any backorder took some). */
export type ImportRestock = {
  line: number;
  partId: string;
  partNumber: string;
  name: string;
  received: number;
  available: number;
};

/**
 * Applies a dry run's changes (the import's Apply, and the API's updates): each a conditional
 * single-document update (a part changed since the dry run is not overwritten) with its own audit entry.
 */
export async function applyImportChanges(
  changes: ImportChange[],
  { actor, context }: { actor: { id: string; email: string }; context?: AuditEvent["context"] },
) {
  let applied = 0;
  const conflicts: ImportConflict[] = [];
  const restocked: ImportRestock[] = [];
  for (const [
    partId,
    line,
    stockBefore,
    stockAfter,
    priceBefore,
    priceAfter,
    breaksBefore,
    breaksAfter,
    backorderBefore,
    backorderAfter,
  ] of changes) {
    // The breaks are read again (never trusted as sent): the dry run's text, parsed and checked once more.
    const parsedBreaks = breaksAfter !== null ? parseBreaks(breaksAfter) : null;
    const outcome = await applyImportedChange({
      partId,
      stock: stockBefore !== null && stockAfter !== null ? { before: stockBefore, after: stockAfter } : null,
      priceCents: priceBefore !== null && priceAfter !== null ? { before: priceBefore, after: priceAfter } : null,
      breaks: breaksBefore !== null && parsedBreaks?.ok ? { before: breaksBefore, after: parsedBreaks.breaks } : null,
      backorder: backorderBefore && backorderAfter ? { before: backorderBefore, after: backorderAfter } : null,
    });
    if (outcome.ok) {
      applied += 1;
      if (stockBefore !== null && stockAfter !== null && stockAfter > stockBefore) {
        const { partNumber, name, availableQuantity } = outcome.after;
        restocked.push({
          line,
          partId,
          partNumber,
          name,
          received: stockAfter - stockBefore,
          available: availableQuantity,
        });
      }
      await audit({
        context,
        actor,
        action: "part.update",
        target: partTarget(outcome.before),
        before: { ...partValues(outcome.before), ...(backorderBefore ? policyValues(outcome.before) : {}) },
        after: { ...partValues(outcome.after), ...(backorderAfter ? policyValues(outcome.after) : {}) },
      });
      continue;
    }
    const part = outcome.part;
    conflicts.push({
      line,
      partId,
      name: part?.name ?? "A part",
      reason: part
        ? `changed since the dry run (now stock ${formatQuantity(part.availableQuantity)}, price ${formatCents(part.priceCents)}): not overwritten`
        : "no longer exists",
    });
  }
  if (applied) forgetCachedSearches();
  // The parts whose stock rose: the order module gives it to the orders waiting on backorder first.
  return { applied, conflicts, restocked };
}

/** The stock API's backorder settings, part by part, each audited as an edit; how many were set. */
export async function applyBackorderPolicies(
  policies: {
    partId: string;
    backorder: { allowed: boolean; restockOn?: string | null; leadTimeDays?: number | null };
  }[],
  { actor, context }: { actor: { id: string; email: string }; context?: AuditEvent["context"] },
) {
  let set = 0;
  for (const { partId, backorder } of policies) {
    const changed = await setBackorderPolicy(partId, {
      backorderable: backorder.allowed,
      restockOn: backorder.restockOn ?? null,
      leadTimeDays: backorder.leadTimeDays ?? null,
    });
    if (!changed) continue;
    set++;
    await audit({
      context,
      actor,
      action: "part.edit",
      target: { type: "part", id: changed.id, label: changed.name },
      before: changed.before,
      after: changed.after,
    });
  }
  return set;
}
