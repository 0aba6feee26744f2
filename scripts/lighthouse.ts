/**
 * npm run lighthouse: Lighthouse (mobile preset, its default) in Debian's chromium; prints the four
 * category scores per page (the median of `--runs` runs) and exits non-zero below the budget:
 * 100 in every category on the public pages (/, /parts, /blogs, /portfolio); for a signed-in
 * customer, performance 95 and 100 in accessibility and best practices on a part page and on the cart.
 *
 *   npm run lighthouse                      builds, starts a throwaway shop with the demo data
 *   npm run lighthouse -- --parts 100000    ... plus a synthetic catalogue of that size
 *   npm run lighthouse -- --url URL         audits a shop that is already running
 *   --runs N                                runs per page, the median counts (default 3)
 *   --customer EMAIL:PASSWORD               who signs in for the signed-in pages (default: the demo customer)
 *   --cart PATH                             the cart's address (default /cart); a 404 there skips it, saying why
 *   --out FILE                              also writes the results as JSON
 *   --reports DIR                           also writes Lighthouse's full report of each page there
 *   --only LABELS                           audits only these pages, by label: "/,/parts", "cart (signed in)"
 *   --chromium-cpus LIST                    pins chromium to these CPUs (taskset); by default it is not pinned
 *
 * The shop is pinned to CPU 0. Chromium is not pinned: a browser is a handful of processes (the
 * page's main thread, its compositor and raster threads, the network service, the browser), and on
 * one core they take turns, so a first paint waited for the network service and the raster threads
 * (observed first paint 250-330 ms on one core, 150-240 ms on two, for the same page).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, toolChromiumPath } from "../shared/chromium";
import { freePort } from "../server/local-db";
import { pinned, stopProcess } from "./bench/shop";

export const LIGHTHOUSE_PAGES = ["/", "/parts", "/blogs", "/portfolio"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
type Budget = Record<Category, number>;
/** The public pages: content, links and GET forms, sent without the framework's JavaScript. */
export const BUDGET: Budget = { performance: 100, accessibility: 100, "best-practices": 100, seo: 100 };
/**
 * Signed-in pages hydrate (their forms validate as you type) and pay for it in performance. They
 * are private, kept from crawlers by robots.txt, so the SEO category does not apply to them.
 */
export const SIGNED_IN_BUDGET: Budget = { ...BUDGET, performance: 95, seo: 0 };

/** One page to audit: its address, the budget it must meet, and the cookie of a signed-in browser. */
export type LighthouseTarget = { label: string; path: string; budget: Budget; cookie?: string };

const CHROMIUM_FLAGS = ["--headless=new", ...CHROMIUM_ARGS];

export type LighthousePage = {
  label: string;
  path: string;
  budget: Budget;
  /** Performance of each run, when there were several (the scores are their median). */
  runs?: number[];
  /** Why the page was not audited (its route is not in this build). */
  skipped?: string;
  scores: Record<Category, number>;
  metrics: Record<string, number>;
  /** Audits that cost points in a category below its budget. */
  failing: { category: Category; id: string; title: string }[];
  error?: string;
};

async function launchChromium(cpus: string | undefined) {
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), "shop-lighthouse-chromium-"));
  const chromePath = toolChromiumPath(process.env);
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

/** The public pages as targets of the public budget. */
export function publicTargets(pages = LIGHTHOUSE_PAGES): LighthouseTarget[] {
  return pages.map((page) => ({ label: page, path: page, budget: BUDGET }));
}

async function auditOnce(
  port: number,
  baseUrl: string,
  target: LighthouseTarget,
  reportDir?: string,
): Promise<LighthousePage> {
  const result = await lighthouse(new URL(target.path, baseUrl).href, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    ...(target.cookie ? { extraHeaders: { Cookie: target.cookie } } : {}),
  });
  const lhr = result?.lhr;
  if (lhr && reportDir) {
    mkdirSync(reportDir, { recursive: true });
    const name = target.label === "/" ? "home" : target.label.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");
    writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(lhr));
  }
  const base = { label: target.label, path: target.path, budget: target.budget };
  // A metric Lighthouse could not measure leaves its category without a score.
  const unscored = lhr && CATEGORIES.find((id) => lhr.categories[id]?.score == null);
  if (!lhr || lhr.runtimeError || unscored) {
    // A page Lighthouse could not load scores zero and says why.
    const failedAudit = lhr && Object.values(lhr.audits).find((audit) => audit.errorMessage);
    const error =
      lhr?.runtimeError?.message ??
      (unscored ? `no ${unscored} score: ${failedAudit?.errorMessage ?? "a metric was not measured"}` : null) ??
      "Lighthouse returned no result";
    return {
      ...base,
      scores: { performance: 0, accessibility: 0, "best-practices": 0, seo: 0 },
      metrics: {},
      failing: [],
      error,
    };
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
  return {
    ...base,
    scores,
    metrics: {
      fcpMs: metric("first-contentful-paint"),
      lcpMs: metric("largest-contentful-paint"),
      tbtMs: metric("total-blocking-time"),
      cls: Math.round((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0) * 1000) / 1000,
      speedIndexMs: metric("speed-index"),
    },
    failing,
  };
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

/** The median run of a page: each score and metric is the median over the runs. */
function medianOf(runs: LighthousePage[]): LighthousePage {
  if (runs.length === 1) return runs[0];
  const ok = runs.filter((run) => !run.error);
  if (!ok.length) return runs[0];
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(ok.map((run) => run.scores[id]))])) as Record<
    Category,
    number
  >;
  const metrics = Object.fromEntries(
    Object.keys(ok[0].metrics).map((key) => [key, median(ok.map((run) => run.metrics[key]))]),
  );
  // The audits that cost points in the run whose performance is the median one.
  const middle = [...ok].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor(ok.length / 2)];
  return { ...middle, scores, metrics, runs: runs.map((run) => run.scores.performance) };
}

/**
 * Audits each target `runs` times (round by round, so a busy moment of the machine hits every page
 * alike) and returns the median of each. `pages` (public paths) is the shorthand of the benchmark.
 */
export async function runLighthouse(
  baseUrl: string,
  {
    pages = LIGHTHOUSE_PAGES,
    targets = publicTargets(pages),
    runs = 1,
    cpus,
    reportDir,
  }: { pages?: string[]; targets?: LighthouseTarget[]; runs?: number; cpus?: string; reportDir?: string } = {},
) {
  const chromium = await launchChromium(cpus);
  const results: LighthousePage[][] = targets.map(() => []);
  try {
    for (let round = 0; round < runs; round++) {
      for (const [index, target] of targets.entries()) {
        let result = await auditOnce(chromium.port, baseUrl, target, reportDir);
        if (result.error) {
          // Lighthouse could not finish this run (it measured nothing): said, and run once more.
          console.error(`${target.label}, run ${round + 1}: Lighthouse could not audit it (${result.error}); again`);
          result = await auditOnce(chromium.port, baseUrl, target, reportDir);
        }
        results[index].push(result);
      }
    }
  } finally {
    await chromium.stop();
  }
  return results.map(medianOf);
}

export function formatLighthouse(results: LighthousePage[]) {
  const lines = ["page                  perf  a11y  best  seo    FCP     LCP     TBT   CLS   perf of each run"];
  for (const result of results) {
    if (result.skipped) {
      lines.push(`${result.label.padEnd(21)} skipped: ${result.skipped}`);
      continue;
    }
    const { scores, metrics } = result;
    lines.push(
      `${result.label.padEnd(21)} ${String(scores.performance).padStart(4)}  ${String(scores.accessibility).padStart(4)}  ${String(scores["best-practices"]).padStart(4)}  ${String(scores.seo).padStart(3)}  ${`${metrics.fcpMs} ms`.padStart(7)} ${`${metrics.lcpMs} ms`.padStart(7)} ${`${metrics.tbtMs} ms`.padStart(6)} ${String(metrics.cls).padStart(5)}   ${result.runs?.join(", ") ?? ""}`,
    );
    if (result.error) lines.push(`    could not audit: ${result.error}`);
    for (const failing of result.failing) lines.push(`    ${failing.category}: ${failing.title} (${failing.id})`);
  }
  return lines.join("\n");
}

export function budgetProblems(results: LighthousePage[]) {
  return results
    .filter((result) => !result.skipped)
    .flatMap((result) =>
      CATEGORIES.filter((id) => result.scores[id] < result.budget[id]).map(
        (id) => `${result.label}: ${id} ${result.scores[id]} < ${result.budget[id]}`,
      ),
    );
}

/** Signs in through the login form, as a browser would, and returns the session cookie. */
async function signIn(baseUrl: string, email: string, password: string) {
  const response = await fetch(new URL("/login", baseUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ email, password, redirectTo: "/" }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .find((pair) => pair.startsWith("__session="));
  if (response.status !== 302 || !cookie) throw new Error(`signing in as ${email} failed (${response.status})`);
  return cookie;
}

/**
 * The signed-in targets: the first part of the catalogue, and the cart unless its route is missing
 * from this build (a skipped entry that says so).
 */
async function signedInTargets(baseUrl: string, { customer, cartPath }: { customer: string; cartPath: string }) {
  const [email, ...rest] = customer.split(":");
  const cookie = await signIn(baseUrl, email, rest.join(":"));
  const partsHtml = await (await fetch(new URL("/parts", baseUrl))).text();
  const partPath = partsHtml.match(/href="(\/parts\/[a-f0-9]{24})"/)?.[1];
  const targets: LighthouseTarget[] = [];
  const skipped: LighthousePage[] = [];
  const skip = (label: string, target: string, reason: string) =>
    skipped.push({
      label,
      path: target,
      budget: SIGNED_IN_BUDGET,
      scores: { ...BUDGET },
      metrics: {},
      failing: [],
      skipped: reason,
    });
  if (partPath) targets.push({ label: "part page (signed in)", path: partPath, budget: SIGNED_IN_BUDGET, cookie });
  else skip("part page (signed in)", "/parts/…", "the catalogue has no parts to open");
  const cart = await fetch(new URL(cartPath, baseUrl), { headers: { Cookie: cookie }, redirect: "manual" });
  if (cart.status === 404)
    skip("cart (signed in)", cartPath, `GET ${cartPath} answers 404: this build has no cart yet`);
  else targets.push({ label: "cart (signed in)", path: cartPath, budget: SIGNED_IN_BUDGET, cookie });
  return { targets, skipped };
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: "string" },
      parts: { type: "string", default: "0" },
      runs: { type: "string", default: "3" },
      customer: { type: "string", default: "customer@partsworks.test:customer-demo-123" },
      cart: { type: "string", default: "/dashboard/cart" },
      out: { type: "string" },
      reports: { type: "string" },
      only: { type: "string" },
      "chromium-cpus": { type: "string" },
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
    const signedIn = await signedInTargets(baseUrl, { customer: values.customer!, cartPath: values.cart! });
    const only = values.only?.split(",");
    const targets = [...publicTargets(), ...signedIn.targets].filter((target) => !only || only.includes(target.label));
    // Lighthouse sees the shop as a visitor of a live shop would, not a first render on a cold database.
    for (const target of targets) {
      await fetch(new URL(target.path, baseUrl), { headers: target.cookie ? { Cookie: target.cookie } : {} }).then(
        (r) => r.text(),
      );
    }
    const runs = Math.max(1, Number(values.runs) || 1);
    console.log(
      `Lighthouse ${targets.length} pages on ${baseUrl} (mobile preset), median of ${runs} ${runs === 1 ? "run" : "runs"}…`,
    );
    const audited = await runLighthouse(baseUrl, {
      targets,
      runs,
      cpus: values["chromium-cpus"],
      reportDir: values.reports && path.resolve(values.reports),
    });
    const results = [...audited, ...signedIn.skipped];
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
