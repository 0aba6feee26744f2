import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Where the browser suite's time goes, printed after its run: the slowest tests, the files that
 * take longest (all their tests' time, both projects), and how busy each worker was. A worker that
 * idles at the end while another still runs shows a file that should be split or start earlier.
 */
export default class DurationsReporter implements Reporter {
  private tests: { title: string; file: string; project: string; ms: number }[] = [];
  private workers = new Map<number, { ms: number; first: number; last: number }>();

  onTestEnd(test: TestCase, result: TestResult) {
    const file = test.location.file.replace(/^.*\/tests\/e2e\//, "");
    const project = test.parent.project()?.name ?? "";
    this.tests.push({ title: test.title, file, project, ms: result.duration });
    const start = result.startTime.getTime();
    const worker = this.workers.get(result.parallelIndex) ?? { ms: 0, first: start, last: start };
    worker.ms += result.duration;
    worker.first = Math.min(worker.first, start);
    worker.last = Math.max(worker.last, start + result.duration);
    this.workers.set(result.parallelIndex, worker);
  }

  onEnd(_result: FullResult) {
    if (!this.tests.length) return;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const slowest = [...this.tests].sort((a, b) => b.ms - a.ms).slice(0, 15);
    console.log("\nSlowest tests:");
    for (const t of slowest) console.log(`  ${s(t.ms).padStart(7)}  [${t.project}] ${t.file} › ${t.title}`);
    const files = new Map<string, number>();
    for (const t of this.tests) files.set(t.file, (files.get(t.file) ?? 0) + t.ms);
    console.log("Longest files (both projects):");
    for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
      console.log(`  ${s(ms).padStart(7)}  ${file}`);
    }
    const total = this.tests.reduce((sum, t) => sum + t.ms, 0);
    const busy = [...this.workers]
      .sort((a, b) => a[0] - b[0])
      .map(
        ([index, w]) =>
          `worker ${index} ${s(w.ms)} busy, done at ${s(w.last - Math.min(...[...this.workers.values()].map((x) => x.first)))}`,
      );
    console.log(`Test time ${s(total)} over ${this.tests.length} tests; ${busy.join("; ")}`);
  }

  printsToStdio() {
    return false;
  }
}
