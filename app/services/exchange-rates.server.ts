/**
 * The exchange rates staff keep (Exchange Rates screen): a rate typed by hand, or the ECB's file
 * imported. A rate from the ECB's file is final (invoices print it); one typed by hand may be
 * corrected, by hand or by the ECB's file. Each change is audited.
 */
import { formatRate } from "~/domain/exchange-rates";
import { recordedRates, writeRates, type RateRow } from "~/models/exchange-rate.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { readEcbFile } from "./ecb-file.server";

type By = { actor: { id: string; email: string }; context?: AuditEvent["context"] };

export type RecordOutcome =
  { outcome: "recorded" | "corrected" | "unchanged" } | { outcome: "refused"; message: string };

/** A rate typed by staff for a day and currency. */
export async function recordRate(row: RateRow, { actor, context }: By): Promise<RecordOutcome> {
  const before = (await recordedRates([row])).get(`${row.day} ${row.currency}`);
  if (before?.rateMicros === row.rateMicros) return { outcome: "unchanged" };
  if (before?.source === "ecb-file") {
    return {
      outcome: "refused",
      message: `The ECB's rate for ${row.currency} on ${row.day} is recorded (${formatRate(before.rateMicros)}) and stays: invoices print it.`,
    };
  }
  await writeRates([row], "staff", actor.email);
  await audit({
    context,
    actor,
    action: "exchange-rate.record",
    before: before ? { day: before.day, currency: before.currency, rate: formatRate(before.rateMicros) } : null,
    after: { day: row.day, currency: row.currency, rate: formatRate(row.rateMicros) },
  });
  return { outcome: before ? "corrected" : "recorded" };
}

export type ImportOutcome =
  { ok: true; days: number; added: number; corrected: number; unchanged: number } | { ok: false; message: string };

/**
 * The ECB's file, whole or not at all: new rates added, rates typed by hand corrected to the ECB's,
 * the same rates left alone (a second import changes nothing). A rate that differs from an ECB rate
 * already recorded refuses the file: it is not the ECB's.
 */
export async function importEcbRates(file: File, today: string, { actor, context }: By): Promise<ImportOutcome> {
  const read = await readEcbFile(file, today);
  if (!read.ok) return read;
  const recorded = await recordedRates(read.rows);
  const writes: RateRow[] = [];
  let corrected = 0;
  for (const row of read.rows) {
    const before = recorded.get(`${row.day} ${row.currency}`);
    if (before?.rateMicros === row.rateMicros) continue;
    if (before?.source === "ecb-file") {
      return {
        ok: false,
        message: `The file's rate for ${row.currency} on ${row.day} (${formatRate(row.rateMicros)}) differs from the ECB's recorded (${formatRate(before.rateMicros)}): nothing was imported.`,
      };
    }
    if (before) corrected += 1;
    writes.push(row);
  }
  await writeRates(writes, "ecb-file", actor.email);
  const result = {
    days: read.days,
    added: writes.length - corrected,
    corrected,
    unchanged: read.rows.length - writes.length,
  };
  if (writes.length) {
    const days = writes.map((row) => row.day).sort();
    await audit({
      context,
      actor,
      action: "exchange-rate.import",
      after: { file: file.name.slice(0, 100), from: days[0], to: days[days.length - 1], ...result },
    });
  }
  return { ok: true, ...result };
}
