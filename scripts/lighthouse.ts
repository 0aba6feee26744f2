/**
 * npm run lighthouse: Lighthouse (mobile preset, its default) in Debian's chromium against the
 * public pages; prints the four category scores per page and exits non-zero below the budget
 * (performance 95, accessibility, best practices and SEO 100).
 *
 *   npm run lighthouse                      builds, starts a throwaway shop with the demo data
 *   npm run lighthouse -- --parts 100000    ... plus a synthetic catalogue of that size
 *   npm run lighthouse -- --url URL         audits a shop that is already running
 *   --out FILE                              also writes the results as JSON
 *   --reports DIR                           also writes Lighthouse's full report of each page there
 *
 * The shop is pinned to CPU 0 and chromium to CPU 1 (taskset), so the two don't take turns.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { freePort } from "../server/local-db";
import { pinned, stopProcess } from "./bench/shop";

export const LIGHTHOUSE_PAGES = ["/", "/parts", "/blogs", "/portfolio"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
export const BUDGET: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};

const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export type LighthousePage = {
  path: string;
  scores: Record<Category, number>;
  metrics: Record<string, number>;
  /** Audits that cost points in a category below its budget. */
  failing: { category: Category; id: string; title: string }[];
  error?: string;
};

async function launchChromium(cpus: string | undefined) {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), "shop-lighthouse-chromium-"));
  const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
  const [command, args] = pinned(cpus, chromePath, [
    ...CHROMIUM_FLAGS,
    `--remote-debugging-port=${port}`,
    `--user-data-dir=${profile}`,
    "about:blank",
  ]);
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${output}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("DevTools listening on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited (${code}):\n${output}`));
    });
  });
  return {
    port,
    async stop() {
      await stopProcess(child as ChildProcess);
      // Chromium's helper processes may still be writing to the profile for a moment.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (error) {
        console.error(`Could not remove ${profile}: ${(error as Error).message}`);
      }
    },
  };
}

export async function runLighthouse(
  baseUrl: string,
  { pages = LIGHTHOUSE_PAGES, cpus = "1", reportDir }: { pages?: string[]; cpus?: string; reportDir?: string } = {},
) {
  const chromium = await launchChromium(cpus);
  const results: LighthousePage[] = [];
  try {
    for (const page of pages) {
      const result = await lighthouse(new URL(page, baseUrl).href, {
        port: chromium.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result?.lhr;
      if (lhr && reportDir) {
        mkdirSync(reportDir, { recursive: true });
        const name = page === "/" ? "home" : page.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
        writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(lhr));
      }
      if (!lhr || lhr.runtimeError) {
        // A page Lighthouse could not load scores zero and says why.
        const error = lhr?.runtimeError?.message ?? "Lighthouse returned no result";
        results.push({ path: page, scores: { performance: 0, accessibility: 0, "best-practices": 0, seo: 0 }, metrics: {}, failing: [], error });
        continue;
      }
      const scores = Object.fromEntries(
        CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
      ) as Record<Category, number>;
      const metric = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
      const failing = CATEGORIES.filter((id) => scores[id] < 100).flatMap((category) =>
        (lhr.categories[category]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0)
          .map((ref) => lhr.audits[ref.id])
          .filter((audit) => audit && audit.score !== null && audit.score < 0.9)
          .map((audit) => ({ category, id: audit.id, title: audit.title })),
      );
      results.push({
        path: page,
        scores,
        metrics: {
          fcpMs: metric("first-contentful-paint"),
          lcpMs: metric("largest-contentful-paint"),
          tbtMs: metric("total-blocking-time"),
          cls: Math.round((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0) * 1000) / 1000,
          speedIndexMs: metric("speed-index"),
        },
        failing,
      });
    }
  } finally {
    await chromium.stop();
  }
  return results;
}

export function formatLighthouse(results: LighthousePage[]) {
  const lines = ["page         perf  a11y  best  seo    FCP     LCP     TBT   CLS"];
  for (const result of results) {
    const { scores, metrics } = result;
    lines.push(
      `${result.path.padEnd(12)} ${String(scores.performance).padStart(4)}  ${String(scores.accessibility).padStart(4)}  ${String(scores["best-practices"]).padStart(4)}  ${String(scores.seo).padStart(3)}  ${`${metrics.fcpMs} ms`.padStart(7)} ${`${metrics.lcpMs} ms`.padStart(7)} ${`${metrics.tbtMs} ms`.padStart(6)} ${String(metrics.cls).padStart(5)}`,
    );
    if (result.error) lines.push(`    could not audit: ${result.error}`);
    for (const failing of result.failing) lines.push(`    ${failing.category}: ${failing.title} (${failing.id})`);
  }
  return lines.join("\n");
}

export function budgetProblems(results: LighthousePage[]) {
  return results.flatMap((result) =>
    CATEGORIES.filter((id) => result.scores[id] < BUDGET[id]).map(
      (id) => `${result.path}: ${id} ${result.scores[id]} < ${BUDGET[id]}`,
    ),
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      parts: { type: "string", default: "0" },
      out: { type: "string" },
      reports: { type: "string" },
    },
  });
  let baseUrl = values.url;
  let stop = async () => {};
  if (!baseUrl) {
    const { startDemoShop } = await import("./bench/demo-shop");
    const work = mkdtempSync(path.join(tmpdir(), "shop-lighthouse-"));
    console.log("Building and starting a throwaway shop…");
    const shop = await startDemoShop({ work, parts: Number(values.parts), cpus: "0" });
    baseUrl = shop.url;
    stop = async () => {
      await shop.stop();
      rmSync(work, { recursive: true, force: true });
    };
  }
  try {
    console.log(`Lighthouse ${LIGHTHOUSE_PAGES.length} pages on ${baseUrl} (mobile preset)…`);
    const results = await runLighthouse(baseUrl, { reportDir: values.reports && path.resolve(values.reports) });
    console.log(formatLighthouse(results));
    if (values.out) {
      mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
      writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
    }
    const problems = budgetProblems(results);
    if (problems.length) {
      console.error(`Below budget:\n  ${problems.join("\n  ")}`);
      process.exitCode = 1;
    } else {
      console.log("All pages within budget.");
    }
  } finally {
    await stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
