/**
 * A small, fast run of `npm run bench` (1,000 parts, half a second per page target, 1 s of each order
 * benchmark, 10 requests alone), so the benchmark cannot rot. It asserts that the run finished and
 * wrote a sane report, never how fast anything was: a shorter load or a smaller catalogue exercises
 * the same code (every target, a last and a deep page, both order benchmarks) for less CPU.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { tsxCommand } from "../setup/tsx-command";

const buildDir = process.env.BUILD_DIR;
const haveDeps =
  Boolean(buildDir && existsSync(path.join(buildDir, "server.js"))) &&
  existsSync("node_modules/autocannon") &&
  spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0;

const work = mkdtempSync(path.join(tmpdir(), "shop-bench-smoke-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runBench(args: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    // The bench starts its own database and shop: it must not inherit the test run's.
    const env = { ...process.env };
    for (const key of ["MONGODB_URI", "SHOP_URL", "PUBLIC_URL", "PORT", "SESSION_SECRET"]) delete env[key];
    const child = spawn(...tsxCommand("scripts/bench.ts", args), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

type Timing = { p50: number; p95: number; p99: number; count: number };

describe.skipIf(!haveDeps)("npm run bench (small)", () => {
  test("runs every target, both order benchmarks (form and API) and page weight, and writes a sane JSON report", async () => {
    const out = path.join(work, "bench.json");
    const { code, output } = await runBench([
      "--parts",
      "1000",
      "--duration",
      "0.5",
      "--warmup",
      "0",
      "--connections",
      "10",
      "--order-customers",
      "5",
      "--order-duration",
      "1",
      "--alone-requests",
      "10",
      "--no-lighthouse",
      "--build-dir",
      buildDir!,
      "--out",
      out,
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain("req/s");
    const report = JSON.parse(readFileSync(out, "utf8"));

    expect(report.seed.parts).toBe(1000);
    expect(report.machine.cpus).toBeGreaterThan(0);

    const names = report.load.map((result: { name: string }) => result.name);
    // The deep page is the one a visitor reaches: the last page's Previous link, with its cursor.
    expect(report.load.find((result: { name: string }) => result.name === "/parts deep").path).toMatch(/[?&]before=/);
    // The API's deep page is asked by the API's own cursor.
    expect(report.load.find((result: { name: string }) => result.name === "GET /api/v1/parts deep").path).toMatch(
      /[?&]cursor=/,
    );
    expect(names).toEqual([
      "static /",
      "/",
      "static /parts",
      "/parts",
      "/parts last",
      "/parts deep",
      "/parts search",
      "/parts filtered",
      "/parts/{id}",
      "/dashboard/orders",
      "GET /api/v1/parts",
      "GET /api/v1/parts deep",
      "GET /api/v1/parts search",
      "/blogs",
    ]);
    for (const result of report.load) {
      expect(result.requests, result.name).toBeGreaterThan(0);
      expect(result.rps, result.name).toBeGreaterThan(0);
      // Every answer was a page, not an error or a redirect to the login.
      expect(Object.keys(result.status), result.name).toEqual(["200"]);
      expect(result.errors + result.timeouts, result.name).toBe(0);
      expect(result.latency.p50).toBeLessThanOrEqual(result.latency.p95);
      expect(result.latency.p95).toBeLessThanOrEqual(result.latency.p99);
      const timing = result.serverTiming as { db: Timing; render: Timing; total: Timing } | null;
      expect(timing, result.name).not.toBeNull();
      expect(timing!.total.count).toBe(result.requests);
      if (!result.name.startsWith("static")) {
        expect(result.ratioToCeiling, result.name).toBeGreaterThan(0);
      }
      if (!result.name.startsWith("static") && result.name !== "/blogs") {
        expect(timing!.db.p95, `${result.name}: its queries are seen`).toBeGreaterThan(0);
      }
      // Rendered fresh: one request alone, its app share and the server's CPU time per request.
      if (!result.name.startsWith("static")) expect(result.single.appP50, result.name).toBeGreaterThan(0);
    }
    // The pages with a budget say whether it is met.
    const budgeted = report.load.filter((result: { budgetMs: number | null }) => result.budgetMs !== null);
    expect(budgeted.map((result: { name: string }) => result.name)).toEqual(["/", "/parts", "/parts/{id}", "/blogs"]);
    for (const result of budgeted) expect(typeof result.budgetMet, result.name).toBe("boolean");
    expect(output).toContain("Budgets, rendered fresh");
    // The search targets ask many different addresses, and say whether the search budget is met.
    const searching = report.load.filter((result: { appP95BudgetMs: number | null }) => result.appP95BudgetMs !== null);
    expect(searching.map((result: { name: string }) => result.name)).toEqual(["/parts search", "/parts filtered"]);
    for (const result of searching) {
      expect(typeof result.appP95BudgetMet, result.name).toBe("boolean");
      expect(result.single.appP95, result.name).toBeGreaterThan(0);
    }
    expect(output).toContain("Search budget");

    const orders = report.orders;
    expect(orders.placed).toBeGreaterThan(0);
    expect(orders.invariantHolds).toBe(true);
    for (const part of orders.parts) {
      expect(part.endStock).toBeGreaterThanOrEqual(0);
      expect(part.endStock).toBe(part.startStock - part.unitsOrderedInDb);
      expect(part.unitsOrderedInDb).toBe(part.unitsPlacedPerAnswers);
    }

    // Orders by API, measured the same way: placed with customers' keys, and every answer an order
    // placed (201) or a part sold out (409), never a refused key, a bad body or an error.
    const apiOrders = report.apiOrders;
    expect(apiOrders.customers).toBe(5);
    expect(apiOrders.placed, JSON.stringify(apiOrders.refusals)).toBeGreaterThan(0);
    expect(apiOrders.errors).toBe(0);
    expect(apiOrders.status["201"]).toBe(apiOrders.placed);
    for (const code of Object.keys(apiOrders.status))
      expect(["201", "409"], JSON.stringify(apiOrders.refusals)).toContain(code);
    expect(apiOrders.ordersPerSecond).toBeGreaterThan(0);
    expect(apiOrders.latency.count).toBe(apiOrders.attempts);
    expect(apiOrders.latency.p50).toBeGreaterThan(0);
    expect(apiOrders.latency.p50).toBeLessThanOrEqual(apiOrders.latency.p95);
    expect(apiOrders.invariantHolds).toBe(true);
    expect(apiOrders.parts).toHaveLength(5);
    // Its own parts: the stock the API sold is not the order form's.
    const screenParts = new Set(orders.parts.map((part: { partId: string }) => part.partId));
    for (const part of apiOrders.parts) {
      expect(screenParts.has(part.partId)).toBe(false);
      expect(part.endStock).toBeGreaterThanOrEqual(0);
      expect(part.endStock).toBe(part.startStock - part.unitsOrderedInDb);
      expect(part.unitsOrderedInDb).toBe(part.unitsPlacedPerAnswers);
    }
    expect(apiOrders.parts.reduce((sum: number, part: { ordersInDb: number }) => sum + part.ordersInDb, 0)).toBe(
      apiOrders.placed,
    );
    expect(output).toContain("Orders by API");
    // Both order benchmarks are rows of the table too: req/s, latency, the app's and the database's
    // share from Server-Timing, and the ratio to the static ceiling, like the pages.
    for (const [name, placing] of [
      ["POST order form", orders],
      ["POST /api/v1/orders", apiOrders],
    ] as const) {
      expect(placing.requestsPerSecond, name).toBeGreaterThan(0);
      expect(placing.ratioToCeiling, name).toBeGreaterThan(0);
      expect(placing.serverTiming, name).not.toBeNull();
      expect(placing.serverTiming.total.count, name).toBe(placing.attempts - placing.errors);
      expect(placing.serverTiming.db.p95, `${name}: its queries are seen`).toBeGreaterThan(0);
      expect(placing.serverTiming.render.p50, name).toBeGreaterThan(0);
    }
    // The table of the printed report has a row for each API target and each order benchmark.
    const table = output.slice(output.lastIndexOf("target "));
    for (const row of [
      "GET /api/v1/parts ",
      "GET /api/v1/parts deep",
      "GET /api/v1/parts search",
      "POST order form",
      "POST /api/v1/orders",
    ])
      expect(table, row).toMatch(new RegExp(`^${row.replace(/[/.]/g, "\\$&")}\\s+\\d`, "m"));
    // The small run's order figures, for whoever runs this (no assertion on speed).
    console.log(
      output
        .split("\n")
        .filter((line) => /^(Orders|Stock|Refused)/.test(line))
        .join("\n"),
    );

    expect(report.pageWeight.map((page: { path: string }) => page.path)).toEqual([
      "/",
      "/parts",
      "/blogs",
      "/portfolio",
    ]);
    for (const page of report.pageWeight) {
      expect(page.status, page.path).toBe(200);
      expect(page.html.bytes).toBeGreaterThan(0);
      expect(page.css.gzipBytes).toBeGreaterThan(0);
      // The public pages ship no framework JavaScript (home budget: 90 KB gzipped).
      expect(page.js.gzipBytes).toBeLessThanOrEqual(90 * 1024);
    }
    expect(report.lighthouse).toBeNull();
  }, 360_000);
});
