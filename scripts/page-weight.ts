/**
 * Page weight from the build: for each page, the HTML the server sends, and the JavaScript and
 * CSS that HTML makes the browser load up front (every /build/ asset it names: module preloads,
 * the entry script, the stylesheet), raw and gzipped as the server sends them.
 *
 *   npx tsx scripts/page-weight.ts                 builds, starts a throwaway shop, measures
 *   npx tsx scripts/page-weight.ts --url URL --build-dir DIR    measures a running shop
 *
 * Exits non-zero when the home page needs more than 90 KB of gzipped JavaScript.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";

export const PAGES = ["/", "/parts", "/blogs", "/portfolio"];
export const HOME_JS_BUDGET_BYTES = 90 * 1024;

export type AssetWeight = { files: number; bytes: number; gzipBytes: number };
export type PageWeight = {
  path: string;
  status: number;
  html: { bytes: number; gzipBytes: number };
  js: AssetWeight;
  /** Script written into the HTML itself (counted in the HTML bytes too). */
  inlineJsBytes: number;
  css: AssetWeight;
};

const gzipSize = (data: Buffer | string) => gzipSync(data).length;

/** Every /build/ asset that this HTML makes the browser fetch at load. */
export function assetsOf(html: string) {
  const found = new Set<string>();
  for (const match of html.matchAll(/["'(](\/build\/[^"'()\s]+\.(?:js|css))["')]/g)) found.add(match[1]);
  return [...found].sort();
}

function weigh(files: string[], buildDir: string): AssetWeight {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(path.join(buildDir, "client", file));
    bytes += content.length;
    gzipBytes += gzipSize(content);
  }
  return { files: files.length, bytes, gzipBytes };
}

export async function measurePages(baseUrl: string, buildDir: string, pages = PAGES): Promise<PageWeight[]> {
  const results: PageWeight[] = [];
  for (const page of pages) {
    const response = await fetch(new URL(page, baseUrl), { headers: { "Accept-Encoding": "identity" } });
    const html = await response.text();
    const assets = assetsOf(html);
    results.push({
      path: page,
      status: response.status,
      html: { bytes: Buffer.byteLength(html), gzipBytes: gzipSize(html) },
      js: weigh(
        assets.filter((file) => file.endsWith(".js")),
        buildDir,
      ),
      inlineJsBytes: [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].reduce(
        (sum, match) => sum + Buffer.byteLength(match[1]),
        0,
      ),
      css: weigh(
        assets.filter((file) => file.endsWith(".css")),
        buildDir,
      ),
    });
  }
  return results;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatPageWeights(weights: PageWeight[]) {
  const lines = [
    "page         status   HTML (gzip)         JS gzip (files)   inline JS   CSS gzip",
    ...weights.map(
      (weight) =>
        `${weight.path.padEnd(12)} ${String(weight.status).padEnd(8)} ${`${kb(weight.html.bytes)} (${kb(weight.html.gzipBytes)})`.padEnd(19)} ${`${kb(weight.js.gzipBytes)} (${weight.js.files})`.padEnd(17)} ${kb(weight.inlineJsBytes).padEnd(11)} ${kb(weight.css.gzipBytes)}`,
    ),
  ];
  return lines.join("\n");
}

/** The home page's JavaScript budget: null when met, else what is wrong. */
export function homeBudgetProblem(weights: PageWeight[]) {
  const home = weights.find((weight) => weight.path === "/");
  if (!home) return null;
  if (home.js.gzipBytes > HOME_JS_BUDGET_BYTES)
    return `the home page loads ${kb(home.js.gzipBytes)} of gzipped JavaScript (budget ${kb(HOME_JS_BUDGET_BYTES)})`;
  return null;
}

async function main() {
  const { values } = parseArgs({
    options: { url: { type: "string" }, "build-dir": { type: "string" }, json: { type: "boolean", default: false } },
  });
  let stop = async () => {};
  let baseUrl = values.url;
  let buildDir = values["build-dir"] ? path.resolve(values["build-dir"]) : undefined;
  if (!baseUrl) {
    const { startDemoShop } = await import("./bench/demo-shop");
    const work = mkdtempSync(path.join(tmpdir(), "shop-weight-"));
    const shop = await startDemoShop({ work });
    baseUrl = shop.url;
    buildDir = shop.buildDir;
    stop = async () => {
      await shop.stop();
      rmSync(work, { recursive: true, force: true });
    };
  }
  if (!buildDir || !existsSync(buildDir)) throw new Error("--build-dir: the build the shop at --url runs");
  try {
    const weights = await measurePages(baseUrl, buildDir);
    console.log(values.json ? JSON.stringify(weights, null, 2) : formatPageWeights(weights));
    const problem = homeBudgetProblem(weights);
    if (problem) {
      console.error(`Over budget: ${problem}`);
      process.exitCode = 1;
    }
  } finally {
    await stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
