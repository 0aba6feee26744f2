/** Small statistics helpers shared by the benchmark's parts. */

/** The p-th percentile (0–100) by nearest rank; 0 for an empty list. */
export function percentile(values: number[], p: number) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** The median by nearest rank (of an even count, the lower middle value). */
export function median(values: number[]) {
  return percentile(values, 50);
}

export function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : 0;
  const mean = sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : 0;
  return {
    count: sorted.length,
    mean: round(mean),
    p50: round(at(50)),
    p95: round(at(95)),
    p99: round(at(99)),
    max: round(at(100)),
  };
}

export function round(value: number, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** `db;dur=1.2, render;dur=3.4, total;dur=4.6` -> { db: 1.2, render: 3.4, total: 4.6 } */
export function parseServerTiming(header: string | null | undefined) {
  const timings: Record<string, number> = {};
  for (const entry of (header ?? "").split(",")) {
    const [name, ...params] = entry.trim().split(";");
    const duration = params.map((param) => param.trim()).find((param) => param.startsWith("dur="));
    if (name && duration) timings[name.trim()] = Number(duration.slice(4));
  }
  return timings;
}

export type ServerTimingSummary = {
  db: ReturnType<typeof summary>;
  render: ReturnType<typeof summary>;
  total: ReturnType<typeof summary>;
};

/** Collects the Server-Timing split (db, render = total minus db when absent) of many answers. */
export function serverTimings() {
  const timings = { db: [] as number[], render: [] as number[], total: [] as number[] };
  return {
    add(timing: ReturnType<typeof parseServerTiming> | undefined) {
      if (timing?.total === undefined) return;
      timings.total.push(timing.total);
      timings.db.push(timing.db ?? 0);
      timings.render.push(timing.render ?? timing.total - (timing.db ?? 0));
    },
    summary(): ServerTimingSummary | null {
      if (!timings.total.length) return null;
      return { db: summary(timings.db), render: summary(timings.render), total: summary(timings.total) };
    },
  };
}
