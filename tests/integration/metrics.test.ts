/**
 * /metrics: requests counted and timed by Remix route and status (never by a URL with an id),
 * database operations timed, the queues and the process shown; answered to this machine without a
 * proxy, or to a Bearer METRICS_TOKEN, and to nobody else. A scrape never waits long on the database.
 * The alert rules and the dashboard (docs/monitoring/) are valid and name only metrics the shop exports.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import type { LocalDb } from "../../server/local-db";
import { shopMetrics, type ShopGauges } from "../../server/metrics";
import { startShop, type Shop } from "../../scripts/bench/shop";

const work = mkdtempSync(path.join(tmpdir(), "shop-metrics-"));
const db = { uri: process.env.MONGODB_URI! } as LocalDb;
const buildDir = process.env.BUILD_DIR!;
const shops: Shop[] = [];
const TOKEN = randomBytes(24).toString("hex");

/** This machine's own non-loopback address: a request to it arrives from a non-loopback peer. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

async function shopWith(extraEnv: Record<string, string> = {}) {
  const dir = path.join(work, String(shops.length));
  // The data folder's disk is reported once the folder is there.
  mkdirSync(path.join(dir, "data"), { recursive: true });
  const shop = await startShop({
    work: dir,
    db,
    buildDir,
    extraEnv: { SESSION_SECRET: process.env.SESSION_SECRET!, ...extraEnv },
  });
  shops.push(shop);
  return shop;
}

afterAll(async () => {
  await Promise.all(shops.map((shop) => shop.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** A raw GET with exactly these headers (fetch would not let Host be set). */
function rawGet(host: string, port: number, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    const req = httpRequest({ host, port, path: pathname, method: "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers["content-type"] ?? "") }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** The samples of a Prometheus text exposition, by series (`name{labels}`) as the shop writes it. */
function samples(text: string) {
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const cut = line.lastIndexOf(" ");
    values.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return values;
}

async function scrape(shop: Shop) {
  const answer = await rawGet("127.0.0.1", shop.port, "/metrics");
  expect(answer.status).toBe(200);
  expect(answer.type).toContain("text/plain");
  return { text: answer.body, values: samples(answer.body) };
}

const series = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(",")}}`;

describe("a shop's /metrics", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await shopWith();
  }, 120_000);

  test("counts and times requests by Remix route and status, with no id in a label", async () => {
    const before = await scrape(shop);
    const partId = randomBytes(12).toString("hex");
    const pages = [
      { path: "/parts", route: "routes/parts._index", status: "200" },
      { path: "/parts.data", route: "routes/parts._index", status: "200" },
      { path: `/parts/${partId}`, route: "routes/parts.$id" },
      { path: `/no-such-page/${partId}`, route: "routes/$", status: "404" },
    ];
    const statuses: string[] = [];
    for (const page of pages) {
      const response = await fetch(`${shop.url}${page.path}`, { redirect: "manual" });
      await response.arrayBuffer();
      statuses.push(String(response.status));
      if (page.status) expect(String(response.status), page.path).toBe(page.status);
    }
    const after = await scrape(shop);

    const moved = (name: string, labels: Record<string, string>) =>
      (after.values.get(series(name, labels)) ?? 0) - (before.values.get(series(name, labels)) ?? 0);
    const parts = { method: "GET", route: "routes/parts._index", status: "200" };
    expect(moved("shop_http_requests_total", parts)).toBe(2);
    expect(moved("shop_http_request_duration_seconds_count", parts)).toBe(2);
    expect(moved("shop_http_request_duration_seconds_bucket", { le: "+Inf", ...parts })).toBe(2);
    expect(after.values.get(series("shop_http_request_duration_seconds_sum", parts))).toBeGreaterThan(0);
    const part = { method: "GET", route: "routes/parts.$id", status: statuses[2] };
    expect(moved("shop_http_requests_total", part)).toBe(1);
    const missing = { method: "GET", route: "routes/$", status: "404" };
    expect(moved("shop_http_requests_total", missing)).toBe(1);
    expect(moved("shop_http_request_duration_seconds_count", missing)).toBe(1);
    // The scrape itself is counted under its own name.
    expect(
      after.values.get(series("shop_http_requests_total", { method: "GET", route: "/metrics", status: "200" })),
    ).toBeGreaterThanOrEqual(1);
    // Bounded labels: never the URL.
    expect(after.text).not.toContain(partId);
    expect(after.text).not.toContain("/no-such-page");
  });

  test("times database operations, and shows the queues, holds, backorders, PDFs, stock check, disk and process", async () => {
    await (await fetch(`${shop.url}/parts`)).arrayBuffer();
    const { values, text } = await scrape(shop);
    const dbCounts = [...values].filter(([key]) => key.startsWith("shop_db_operation_duration_seconds_count{"));
    expect(dbCounts.length).toBeGreaterThan(0);
    expect(dbCounts.some(([key, count]) => key.includes('collection="parts"') && count > 0)).toBe(true);
    expect(text).toContain("# TYPE shop_db_operation_errors_total counter");

    for (const queue of ["mail", "webhooks", "jobs"]) {
      expect(values.get(series("shop_queue_depth", { queue })), queue).toBeGreaterThanOrEqual(0);
      expect(values.get(series("shop_queue_oldest_age_seconds", { queue })), queue).toBeGreaterThanOrEqual(0);
    }
    for (const state of ["active", "ending_soon", "overdue"])
      expect(values.get(series("shop_holds", { state })), state).toBeGreaterThanOrEqual(0);
    for (const name of [
      "shop_backorders_waiting_orders",
      "shop_backorders_oldest_age_seconds",
      "shop_pdf_printing",
      "shop_pdf_waiting",
      "shop_stock_check_problems",
      "shop_stock_check_timestamp_seconds",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ])
      expect(values.get(name), name).toBeGreaterThanOrEqual(0);
    expect(values.get("shop_db_up")).toBe(1);
    expect(values.get("shop_db_writable")).toBe(1);
    expect(values.get("shop_metrics_db_read_success")).toBe(1);
    expect(values.get(series("shop_disk_free_bytes", { volume: "data" }))).toBeGreaterThan(0);
    expect(values.get(series("shop_disk_size_bytes", { volume: "data" }))).toBeGreaterThan(0);
  });

  test("answers only to this machine without a proxy: anyone else gets the shop's 404", async () => {
    const relayed: Record<string, string>[] = [
      { "X-Forwarded-For": "198.51.100.7" },
      { Forwarded: "for=198.51.100.7" },
      { Via: "1.1 proxy" },
    ];
    for (const headers of relayed) {
      const answer = await rawGet("127.0.0.1", shop.port, "/metrics", headers);
      expect(answer.status, JSON.stringify(headers)).toBe(404);
      expect(answer.body).not.toContain("shop_http_requests_total");
    }
    expect((await rawGet("127.0.0.1", shop.port, "/metrics", { Host: "shop.example.com" })).status).toBe(404);
    // No token is set: a Bearer one opens nothing.
    const guessed = await rawGet("127.0.0.1", shop.port, "/metrics", {
      "X-Forwarded-For": "198.51.100.7",
      Authorization: `Bearer ${TOKEN}`,
    });
    expect(guessed.status).toBe(404);
    if (outsideAddress) expect((await rawGet(outsideAddress, shop.port, "/metrics")).status).toBe(404);
  });
});

/** What PromQL names that is not a metric: keywords, and the functions' names (followed by "("). */
const PROMQL_WORDS = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
]);

/** The metric names an expression reads (label matchers, ranges, groupings and functions taken out). */
function metricNames(expr: string) {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  return [...bare.matchAll(/\b[a-zA-Z_][a-zA-Z0-9_:]*\b(?!\s*\()/g)]
    .map((match) => match[0])
    .filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name));
}

/** The series names a scrape exposes: every metric, and a histogram's _bucket, _count and _sum. */
function exposedNames(text: string) {
  const names = new Set(["up"]);
  for (const match of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(match[1]);
    if (match[2] === "histogram" || match[2] === "summary")
      for (const suffix of ["_bucket", "_count", "_sum"]) names.add(`${match[1]}${suffix}`);
  }
  return names;
}

describe("the alert rules and the dashboard", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = shops[0] ?? (await shopWith());
  }, 120_000);

  const rulesFile = path.resolve("docs/monitoring/alerts.yml");
  type Rule = { alert?: string; expr: string; for?: string; labels?: Record<string, string> };
  const rules = () =>
    (parseYaml(readFileSync(rulesFile, "utf8")) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap(
      (group) => group.rules,
    );

  test("promtool accepts the rules (when Debian's prometheus package is installed)", () => {
    const promtool = spawnSync("promtool", ["check", "rules", rulesFile], { encoding: "utf8" });
    if (promtool.error) return; // not installed here: the checks below still run
    expect(promtool.status, `${promtool.stdout}\n${promtool.stderr}`).toBe(0);
  });

  test("every alert has a severity and a summary, and reads only metrics the shop exports", async () => {
    const exposed = exposedNames((await scrape(shop)).text);
    const alerts = rules();
    expect(alerts.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        "ShopHigh5xxRate",
        "ShopSlowPages",
        "ShopMailQueueStuck",
        "ShopDatabaseAway",
        "ShopDiskMarginLow",
      ]),
    );
    for (const rule of alerts) {
      expect(rule.alert, rule.expr).toBeTruthy();
      expect(rule.labels?.severity, rule.alert).toBeTruthy();
      const names = metricNames(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(exposed, `${rule.alert} reads ${name}`).toContain(name);
    }
  });

  test("every panel of the dashboard reads only metrics the shop exports", async () => {
    const exposed = exposedNames((await scrape(shop)).text);
    const dashboard = JSON.parse(readFileSync(path.resolve("docs/monitoring/dashboard.json"), "utf8")) as {
      panels: { title: string; type: string; targets?: { expr: string }[] }[];
    };
    const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, target })));
    expect(queries.length).toBeGreaterThan(10);
    for (const { panel, target } of queries)
      for (const name of metricNames(target.expr)) expect(exposed, `${panel.title} reads ${name}`).toContain(name);
  });
});

describe("a shop with METRICS_TOKEN", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await shopWith({ METRICS_TOKEN: TOKEN });
  }, 120_000);

  test("answers a scrape through a proxy with the token, and 404 without it or with another", async () => {
    const proxied = { "X-Forwarded-For": "198.51.100.7", "X-Forwarded-Proto": "https" };
    expect((await rawGet("127.0.0.1", shop.port, "/metrics", proxied)).status).toBe(404);
    const wrong = await rawGet("127.0.0.1", shop.port, "/metrics", { ...proxied, Authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(404);
    const allowed = await rawGet("127.0.0.1", shop.port, "/metrics", { ...proxied, Authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toContain("shop_http_requests_total");
    if (outsideAddress) {
      expect((await rawGet(outsideAddress, shop.port, "/metrics")).status).toBe(404);
      const remote = await rawGet(outsideAddress, shop.port, "/metrics", { Authorization: `Bearer ${TOKEN}` });
      expect(remote.status).toBe(200);
    }
  });
});

describe("the database gauges", () => {
  const quiet: ShopGauges = {
    queues: { mail: { waiting: 0, oldestAt: null, failed: 0 } },
    holds: { active: 0, endingSoon: 0, overdue: 0 },
    backorders: { orders: 0, oldestAt: null },
    stockCheck: null,
  };

  async function serve(readShopGauges: () => Promise<ShopGauges>, dbState = { up: true, writable: true }) {
    const metrics = shopMetrics({
      routeOf: () => undefined,
      readShopGauges,
      pdfQueue: () => ({ printing: 0, waiting: 0 }),
      dbState: () => dbState,
      volumes: {},
      cacheMs: 60_000,
      timeoutMs: 300,
    });
    const app = express();
    app.get("/metrics", metrics.metricsRoute({ proxyConfigured: false, token: undefined }));
    const server: Server = await new Promise((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    const port = (server.address() as AddressInfo).port;
    return { port, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  test("a database that does not answer holds a scrape up only briefly, and is asked once at a time", async () => {
    let reads = 0;
    const { port, close } = await serve(() => {
      reads++;
      return new Promise<ShopGauges>(() => undefined);
    });
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const answer = await rawGet("127.0.0.1", port, "/metrics");
        expect(answer.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(2000);
        expect(samples(answer.body).get("shop_metrics_db_read_success")).toBe(0);
        // Nothing read yet is not shown as a zero.
        expect(answer.body).not.toContain("shop_queue_depth{");
      }
      expect(reads).toBe(1);
    } finally {
      await close();
    }
  });

  test("a reading is kept for the next scrapes, and the database is not asked while it is away", async () => {
    let reads = 0;
    const { port, close } = await serve(async () => {
      reads++;
      return { ...quiet, queues: { mail: { waiting: 3, oldestAt: Date.now() - 90_000, failed: 1 } } };
    });
    try {
      for (let i = 0; i < 3; i++) {
        const values = samples((await rawGet("127.0.0.1", port, "/metrics")).body);
        expect(values.get(series("shop_queue_depth", { queue: "mail" }))).toBe(3);
        expect(values.get(series("shop_queue_oldest_age_seconds", { queue: "mail" }))).toBeGreaterThanOrEqual(90);
      }
      expect(reads).toBe(1);
    } finally {
      await close();
    }
    let asked = false;
    const away = await serve(
      async () => {
        asked = true;
        return quiet;
      },
      { up: false, writable: true },
    );
    try {
      const values = samples((await rawGet("127.0.0.1", away.port, "/metrics")).body);
      expect(values.get("shop_db_up")).toBe(0);
      expect(values.get("shop_metrics_db_read_success")).toBe(0);
      expect(asked).toBe(false);
    } finally {
      await away.close();
    }
  });
});
