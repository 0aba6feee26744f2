/**
 * A saved list from an uploaded CSV file (`part number,quantity`, with that header): every line
 * checked, all or nothing; a bad line is listed by its number and nothing is written.
 */
import { MAX_LIST_LINES } from "~/forms/saved-list-forms";
import type { SavedListLine } from "~/models/saved-list.server";
import { columnKey, readCsvUpload } from "./csv-upload.server";
import { findPartsByNumbers, matchOf, unmatchedMessage } from "./part-number.server";
import { createList, quantityProblem, type ListUser, type Refusal } from "./saved-lists.server";
import type { AuditEvent } from "./audit-trail.server";

export type ListFileProblem = { line: number; message: string };

export type ListImport =
  { ok: true; list: { id: string; name: string }; lines: number } | (Refusal & { problems?: ListFileProblem[] });

const HEADER = "The first line must be the header part number,quantity.";

export async function importListFile(
  user: ListUser,
  { name, shared = false, file }: { name: string; shared?: boolean; file: File },
  context?: AuditEvent["context"],
): Promise<ListImport> {
  const read = await readCsvUpload(file, "a list");
  if (!read.ok) return { ok: false, status: read.status, message: read.message, field: "file" };
  const keys = read.header.map(columnKey);
  const numberAt = keys.indexOf("partnumber");
  const quantityAt = keys.indexOf("quantity");
  if (numberAt === -1 || quantityAt === -1) return { ok: false, status: 422, message: HEADER, field: "file" };
  if (read.records.length === 0) {
    return { ok: false, status: 422, message: "The file has no lines after its header.", field: "file" };
  }
  if (read.records.length > MAX_LIST_LINES) {
    return { ok: false, status: 422, message: `A list holds at most ${MAX_LIST_LINES} lines.`, field: "file" };
  }
  const matches = await findPartsByNumbers(read.records.map((record) => record.cells[numberAt] ?? ""));
  const problems: ListFileProblem[] = [];
  const lines: SavedListLine[] = [];
  for (const { line, cells } of read.records) {
    const typed = (cells[numberAt] ?? "").trim();
    const quantityText = (cells[quantityAt] ?? "").trim();
    const match = matchOf(matches, typed);
    if (!typed) {
      problems.push({ line, message: "no part number" });
      continue;
    }
    if (!match.part) {
      problems.push({ line, message: unmatchedMessage(typed.toUpperCase(), match) ?? "unknown part number" });
      continue;
    }
    const quantity = /^\d{1,9}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    const problem = Number.isNaN(quantity)
      ? `“${quantityText}” is not a whole number of units`
      : quantityProblem(match.part, quantity);
    if (problem) {
      problems.push({ line, message: problem });
      continue;
    }
    const part = match.part;
    lines.push({ partId: part.id, partNumber: part.partNumber, name: part.name, quantity });
  }
  if (problems.length) {
    const count = problems.length === 1 ? "1 line has a problem" : `${problems.length} lines have problems`;
    return { ok: false, status: 422, message: `Nothing saved: ${count}.`, problems };
  }
  const created = await createList(user, { name, shared, lines }, context);
  if (!created.ok) return created;
  return { ok: true, list: { id: created.list.id, name: created.list.name }, lines: created.list.lines.length };
}

/** Lines given by part number (the API), each checked; the problems by the index of their line. */
export async function linesByNumber(entries: { partNumber: string; quantity: number }[]) {
  const matches = await findPartsByNumbers(entries.map((entry) => entry.partNumber));
  const problems: { index: number; field: "partNumber" | "quantity"; message: string }[] = [];
  const lines: SavedListLine[] = [];
  entries.forEach((entry, index) => {
    const match = matchOf(matches, entry.partNumber);
    if (!match.part) {
      const message = unmatchedMessage(entry.partNumber.toUpperCase(), match) ?? "Unknown part number";
      problems.push({ index, field: "partNumber", message });
      return;
    }
    const problem = quantityProblem(match.part, entry.quantity);
    if (problem) problems.push({ index, field: "quantity", message: problem });
    else
      lines.push({
        partId: match.part.id,
        partNumber: match.part.partNumber,
        name: match.part.name,
        quantity: entry.quantity,
      });
  });
  return { lines, problems };
}
