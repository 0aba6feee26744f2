/**
 * npm run bench: throughput, latency, page weight and Lighthouse of a production build on a
 * synthetic catalogue, side by side with the static ceiling of the same server.
 *
 *   npm run bench                                   100,000 parts, 10 s per target, Lighthouse
 *   npm run bench -- --parts 2000 --duration 3 --no-lighthouse     a quick run (CI)
 *
 * Options: --parts N (100000), --duration S (10), --warmup S (2; 0 also skips the database's warm-up),
 *   --connections C (50), --order-customers K (50, for both order benchmarks: the order form and the API),
 *   --order-duration S (= duration, each), --no-orders (neither), --no-lighthouse,
 *   --only NAME,NAME (only these load targets, with their static ceilings), --alone-requests N (50:
 *   the requests one at a time per target), --build-dir DIR (run an existing build instead of building), --out FILE (JSON; by default
 *   bench-results/bench-<time>.json, and bench-results/latest.json), --server-cpu (0),
 *   --load-cpu (1), --db-cpu (the local database; unpinned by default), --cpu-prof DIR (write a
 *   V8 CPU profile of the server into DIR when it stops).
 *
 * The shop and its database run pinned to one CPU, the load generators (autocannon, the order
 * clients) in one process of their own pinned to the other, so they never take turns on a core.
 * Lighthouse, which runs after the load, leaves chromium unpinned (scripts/lighthouse.ts says why).
 * Everything runs on a throwaway local database in a temp directory; nothing touches .data/.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import mongoose from "mongoose";
import { Order } from "../app/orders/model/schema.server";
import { Part } from "../app/models/part.server";
import { User } from "../app/models/user.server";
import { connectDb, disconnectDb, syncIndexes } from "../app/services/db.server";
import { ensureDemoData } from "../app/demo/data.server";
import { migrateDb } from "../app/services/migrate.server";
import { encodeCursor } from "../app/services/api.server";
import { seedCatalogue, type SeedReport } from "./bench/seed-catalogue";
import type { LoadOptions, LoadResult } from "./bench/load";
import type { LoadJob } from "./bench/load-runner";
import type { ApiOrderLoadOptions, ApiOrderLoadResult } from "./bench/api-orders";
import type { OrderLoadOptions, OrderLoadResult } from "./bench/orders";
import { buildShop, hasTaskset, pinned, startDb, startShop, type Shop } from "./bench/shop";
import { FRESH_BUDGETS_MS, measureAlone } from "./bench/fresh";
import { round } from "./bench/stats";
import { formatPageWeights, homeBudgetProblem, measurePages, type PageWeight } from "./page-weight";

const { values: args } = parseArgs({
  options: {
    parts: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    "order-customers": { type: "string", default: "50" },
    "order-duration": { type: "string" },
    "no-orders": { type: "boolean", default: false },
    "no-lighthouse": { type: "boolean", default: false },
    "build-dir": { type: "string" },
    out: { type: "string" },
    "server-cpu": { type: "string", default: "0" },
    "load-cpu": { type: "string", default: "1" },
    "db-cpu": { type: "string" },
    "cpu-prof": { type: "string" },
    only: { type: "string" },
    "alone-requests": { type: "string", default: "50" },
  },
});

function positive(name: string, value: string | undefined) {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
  return number;
}

const options = {
  parts: Math.floor(positive("parts", args.parts)),
  duration: positive("duration", args.duration),
  warmup: Number(args.warmup) || 0,
  connections: Math.floor(positive("connections", args.connections)),
  orderCustomers: Math.floor(positive("order-customers", args["order-customers"])),
  orderDuration: positive("order-duration", args["order-duration"] ?? args.duration),
  orders: !args["no-orders"],
  lighthouse: !args["no-lighthouse"],
  serverCpu: args["server-cpu"],
  loadCpu: args["load-cpu"],
  dbCpu: args["db-cpu"] ?? null,
  cpuProfileDir: args["cpu-prof"] ? path.resolve(args["cpu-prof"]) : null,
  /** Only these load targets (by name, comma-separated), with the static ceilings they are compared with. */
  only: args.only ? args.only.split(",").map((name) => name.trim()) : null,
  aloneRequests: Math.floor(positive("alone-requests", args["alone-requests"])),
};

const log = (line: string) => console.log(line);
const here = path.dirname(new URL(import.meta.url).pathname);

/** The load generators' process (scripts/bench/load-runner.ts), pinned to the load CPU, started at the first job. */
let loadRunner: { run: (job: LoadJob, input: unknown) => Promise<unknown>; stop: () => void } | undefined;

function startLoadRunner(): NonNullable<typeof loadRunner> {
  const [command, commandArgs] = pinned(options.loadCpu, process.execPath, [
    "--import",
    "tsx",
    path.join(here, "bench", "load-runner.ts"),
  ]);
  const child = spawn(command, commandArgs, { stdio: ["pipe", "pipe", "inherit"] });
  const waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const answer = answerOf(line);
    if (!answer) return void process.stderr.write(`${line}\n`);
    const job = waiting.shift();
    if (answer.error === undefined) job?.resolve(answer.result);
    else job?.reject(new Error(answer.error));
  });
  child.once("exit", (code) => {
    for (const job of waiting.splice(0)) job.reject(new Error(`the load runner exited with ${code}`));
    loadRunner = undefined;
  });
  return {
    run: (job, input) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin!.write(`${JSON.stringify({ job, input })}\n`);
      }),
    stop: () => child.stdin!.end(),
  };
}

/** A line of the load runner that answers a job, or null (anything else it prints goes to stderr). */
function answerOf(line: string) {
  try {
    const answer = JSON.parse(line) as { result?: unknown; error?: string } | null;
    return answer && typeof answer === "object" && ("result" in answer || "error" in answer) ? answer : null;
  } catch {
    return null;
  }
}

/** One job of the load generators (one at a time: the load CPU is theirs alone). */
function runPinned<T>(job: LoadJob, input: unknown): Promise<T> {
  loadRunner ??= startLoadRunner();
  return loadRunner.run(job, input) as Promise<T>;
}

/**
 * One request at a time, 50 times: the cost of a page without queueing, as the median of its
 * Server-Timing split (app = total minus database, up to the headers) and the server's CPU time.
 */
async function alone(urls: string | string[], headers: Record<string, string> = {}, pid?: number) {
  const measured = await measureAlone(urls, { headers, requests: options.aloneRequests, warmup: 5, pid });
  return {
    latencyP50: measured.latencyP50,
    dbP50: measured.dbP50,
    appP50: measured.appP50,
    appP95: measured.appP95,
    cpuPerRequest: measured.cpuPerRequest,
    htmlBytes: measured.htmlBytes,
  };
}

type Target = {
  name: string;
  path: string;
  ceiling?: string;
  headers?: Record<string, string>;
  note: string;
  /** The most the app's own time may take for one request alone (median of 50), in ms. */
  budgetMs?: number;
  /** Paths asked for in turn, alone and under load, in place of `path` (which names the target). */
  paths?: string[];
  /** The most the app's own share may take at the 95th percentile over `paths` asked alone, in ms. */
  appP95BudgetMs?: number;
};

/**
 * The search budget (`/parts`, any search, 100,000 parts): the app's own share (total minus
 * database) p95 under 30 ms, over 50 different searches asked one at a time. The local stand-in
 * reads every part a search's first term names (its indexes keep only their first field) and runs
 * one query of a collection at a time, so 50 different searches at once measure its queue; that load test is reported as it is, beside. What a search reads on real
 * MongoDB is checked by tests/integration/catalogue-plans.test.ts.
 */
const SEARCH_APP_P95_BUDGET_MS = 30;

async function fetchText(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return body;
}

/** The hrefs of the /parts links in a page of HTML (entities decoded). */
function partsLinks(html: string) {
  return [...html.matchAll(/<a\b[^>]*\bhref="(\/parts\?[^"]*)"[^>]*>/g)].map((match) => ({
    href: match[1].replace(/&amp;/g, "&"),
    tag: match[0],
  }));
}

/**
 * Two pages deep in the list, reached the way a visitor reaches them: the last page (linked from
 * the first) and the one before it (the last page's Previous link, which carries a cursor).
 */
async function deepPages(baseUrl: string, firstPageHtml: string, parts: number) {
  const pageOf = (href: string) => Number(new URLSearchParams(href.split("?")[1]).get("page") ?? 1);
  const links = partsLinks(firstPageHtml).filter((link) => pageOf(link.href) > 1);
  const last = links.sort((a, b) => pageOf(b.href) - pageOf(a.href))[0]?.href ?? `/parts?page=${Math.ceil(parts / 12)}`;
  const lastHtml = await fetchText(`${baseUrl}${last}`);
  const previous =
    partsLinks(lastHtml).find((link) => /\brel="prev"/.test(link.tag))?.href ?? `/parts?page=${pageOf(last) - 1}`;
  return { last, previous };
}

function machine() {
  const cpus = os.cpus();
  const ps = spawnSync("ps", ["-eo", "comm="], { encoding: "utf8" });
  const processes = (ps.stdout ?? "").split("\n");
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    memoryGiB: round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverage: os.loadavg().map((value) => round(value, 2)),
    /** Other work on the machine while the bench ran (shared machines are noisy). */
    chromiumProcesses: processes.filter((name) => name.includes("chrom")).length,
    nodeProcesses: processes.filter((name) => name === "node").length,
    taskset: hasTaskset(),
  };
}

async function signedInCookies(userIds: string[]) {
  // The shop's own session storage, signed with the shop's secret (SESSION_SECRET, set at start).
  const { createSession } = await import("../app/models/session.server");
  const { authSessionStorage } = await import("../app/services/session-cookie.server");
  const cookies: string[] = [];
  for (const userId of userIds) {
    const session = await authSessionStorage.getSession();
    session.set("sessionId", await createSession(userId));
    cookies.push((await authSessionStorage.commitSession(session)).split(";")[0]);
  }
  return cookies;
}

async function patiently<T>(read: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

const HOT_STOCK = 40_000;

/**
 * Five fresh parts, each with stock for 400 orders of 100 units: enough that a fast run sells out,
 * so the stock check sees both placed and refused orders. Each order benchmark has its own.
 */
async function hotParts(label: string) {
  const created = await Part.insertMany(
    Array.from({ length: 5 }, (_, index) => ({
      name: `Benchmark Hot Part ${label} ${index + 1}`,
      partNumber: `HOT-${label}-${index + 1}-${randomBytes(3).toString("hex").toUpperCase()}`,
      description: "Ordered by many customers at once during the benchmark.",
      img: "/images/parts/pw-1001.svg",
      priceCents: 1500,
      minOrderQuantity: 100,
      availableQuantity: HOT_STOCK,
    })),
  );
  return created.map((part) => ({ id: part._id.toString(), partNumber: part.partNumber }));
}

/**
 * The stock of each part after an order benchmark, beside the orders in the database and the
 * units the answers said were placed: never below zero, and the start minus what was ordered.
 */
async function stockCheck(partIds: string[], placedUnits: Record<string, number>) {
  const parts = [];
  for (const id of partIds) {
    // The database may still be working through the load: be patient with it.
    const part = await patiently(() => Part.findById(id).lean());
    const ordered = await patiently(() =>
      Order.aggregate<{ units: number; orders: number }>([
        { $match: { "lines.partId": new mongoose.Types.ObjectId(id) } },
        { $unwind: "$lines" },
        { $match: { "lines.partId": new mongoose.Types.ObjectId(id) } },
        { $group: { _id: null, units: { $sum: "$lines.quantity" }, orders: { $sum: 1 } } },
      ]),
    );
    const unitsInDb = ordered[0]?.units ?? 0;
    const end = part?.availableQuantity ?? Number.NaN;
    parts.push({
      partId: id,
      startStock: HOT_STOCK,
      endStock: end,
      ordersInDb: ordered[0]?.orders ?? 0,
      unitsOrderedInDb: unitsInDb,
      unitsPlacedPerAnswers: placedUnits[id] ?? 0,
      neverBelowZero: end >= 0,
      stockMatches: end === HOT_STOCK - unitsInDb,
      answersMatch: unitsInDb === (placedUnits[id] ?? 0),
    });
  }
  const invariantHolds = parts.every((part) => part.neverBelowZero && part.stockMatches && part.answersMatch);
  return { parts, invariantHolds };
}

/** Customers posting the real order form (POST /parts/{id}, signed in), as a browser without JavaScript. */
async function orderBenchmark(shop: Shop, cookies: string[]) {
  // Patiently: the stand-in may still be working through the last load test's queue.
  const partIds = (await patiently(() => hotParts("SCREEN"))).map((part) => part.id);
  const input: OrderLoadOptions = {
    baseUrl: shop.url,
    cookies,
    partIds,
    quantity: 100,
    duration: options.orderDuration,
  };
  const result = await runPinned<OrderLoadResult>("orders", input);
  return { ...result, ...(await stockCheck(partIds, result.placedUnits)) };
}

/**
 * The same customers placing orders through the API (POST /api/v1/orders), each with their own
 * key: lines by part number and quantity, a fresh Idempotency-Key per order.
 */
async function apiOrderBenchmark(shop: Shop, apiKeys: string[]) {
  const parts = await patiently(() => hotParts("API"));
  const input: ApiOrderLoadOptions = {
    baseUrl: shop.url,
    apiKeys,
    parts,
    quantity: 100,
    duration: options.orderDuration,
  };
  const result = await runPinned<ApiOrderLoadResult>("api-orders", input);
  return {
    ...result,
    ...(await stockCheck(
      parts.map((part) => part.id),
      result.placedUnits,
    )),
  };
}

async function main() {
  const started = Date.now();
  const stamp = new Date(started).toISOString().replace(/[:.]/g, "-");
  const out = path.resolve(args.out ?? path.join("bench-results", `bench-${stamp}.json`));
  const work = mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const ownBuild = !args["build-dir"];
  const buildDir = path.resolve(args["build-dir"] ?? path.join(".cache", `bench-build-${path.basename(work)}`));
  const cleanups: (() => Promise<void> | void)[] = [
    () => rmSync(work, { recursive: true, force: true }),
    () => loadRunner?.stop(),
  ];
  if (ownBuild) cleanups.push(() => rmSync(buildDir, { recursive: true, force: true }));
  const before = machine();
  if (!before.taskset) log("taskset (util-linux) is missing: the server and the load generator will share CPUs.");

  try {
    if (ownBuild) {
      log(`Building into ${path.relative(process.cwd(), buildDir)}…`);
      buildShop(buildDir);
    }

    log("Starting a throwaway local database…");
    const db = await startDb(work);
    cleanups.push(() => db.stop());
    await connectDb(db.uri);
    cleanups.push(() => disconnectDb());
    // The shop's secret, set before anything here reads the settings (the demo data does), so the
    // sessions signed below are the shop's own.
    const secret = randomBytes(32).toString("hex");
    process.env.SESSION_SECRET = secret;
    await syncIndexes();
    // As a new shop does: every migration runs on the empty database (nothing to convert) and is
    // recorded applied; the catalogue is then written in the current shape, so the shop starts
    // with nothing to migrate (scripts/bench/migrations.ts measures the migrations at this size).
    await migrateDb();
    await ensureDemoData();

    const size = {
      parts: options.parts,
      customers: Math.max(options.orderCustomers + 1, 200),
      orders: Math.round(options.parts / 5),
      reviews: Math.min(5000, Math.max(100, Math.round(options.parts / 20))),
    };
    log(`Seeding ${size.parts} parts, ${size.customers} customers, ${size.orders} orders, ${size.reviews} reviews…`);
    const seed: SeedReport = await seedCatalogue(size, { log });
    log(`  seeded in ${seed.seconds.total.toFixed(1)} s (parts: ${seed.partsPerSecond}/s)`);

    const customerIds = (
      await User.find({ email: /^bench-customer-/ })
        .select({ _id: 1 })
        .limit(options.orderCustomers + 1)
        .lean()
    ).map((user) => user._id.toString());
    const cookies = await signedInCookies(customerIds);
    // The ordering customers are large trade accounts: their own caps on unpaid card orders (as an
    // admin sets them on Companies), so the order benchmarks measure placing orders rather than the
    // caps that keep a new account from holding the catalogue unpaid (a few orders each).
    const { companyIdOfUser } = await import("../app/models/user.server");
    const { getOrCreateCompany, setCompanyUnpaidCaps } = await import("../app/models/company.server");
    for (const userId of customerIds.slice(0, options.orderCustomers)) {
      const companyId = await companyIdOfUser(userId);
      if (!companyId) throw new Error(`no company for bench customer ${userId}`);
      await getOrCreateCompany(companyId);
      await setCompanyUnpaidCaps(companyId, { orders: 1_000_000, valueCents: 1_000_000_000_000 });
    }
    // An API key for each customer: the last one's (the customer whose pages are measured signed
    // in) reads the API's parts, the ordering customers' place orders through the API.
    const { createApiKey } = await import("../app/models/api-key.server");
    const apiKeys: string[] = [];
    for (const ownerId of customerIds) {
      apiKeys.push((await createApiKey({ ownerId, name: "Bench", scopes: ["read", "order"] })).token);
    }
    const apiKey = apiKeys[apiKeys.length - 1];

    const staticDir = path.join(work, "static");
    mkdirSync(staticDir, { recursive: true });
    log(`Starting the shop${before.taskset ? ` on CPU ${options.serverCpu}, load on CPU ${options.loadCpu}` : ""}…`);
    const shop = await startShop({
      work,
      db,
      buildDir,
      staticDir,
      cpus: options.serverCpu,
      // The API's limit per key and the search limit per address would refuse a load test's calls: far
      // above what the load sends. Searches are measured as run, not as answered again from the kept answer.
      extraEnv: {
        SESSION_SECRET: secret,
        API_CALLS_PER_MINUTE: "100000",
        SEARCHES_PER_MINUTE: "100000",
        SEARCH_CACHE_SECONDS: "0",
      },
      nodeArgs: options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [],
    });
    cleanups.push(() => shop.stop());
    if (options.dbCpu) shop.pinDb(options.dbCpu);

    // The static ceiling: the exact HTML of / and /parts, served by the same server.
    const homeHtml = await fetchText(`${shop.url}/`);
    const partsHtml = await fetchText(`${shop.url}/parts`);
    writeFileSync(path.join(staticDir, "home.html"), homeHtml);
    writeFileSync(path.join(staticDir, "parts.html"), partsHtml);
    const deep = await deepPages(shop.url, partsHtml, options.parts);
    // Warm the database server up: at 100,000 parts its sorted scans took about 3 s each at
    // first and about 0.2 s after some 20 s under load (a JVM compiling its hot paths, its store
    // settling after the bulk insert). Load first, then measure; --warmup 0 measures it cold.
    if (options.warmup > 0) {
      const warmStarted = performance.now();
      for (const page of ["/", "/parts"]) {
        await runPinned<LoadResult>("load", {
          url: `${shop.url}${page}`,
          connections: 10,
          duration: Math.min(20, options.duration * 2),
          warmup: 0,
        } satisfies LoadOptions);
      }
      log(`  database warmed up under load for ${((performance.now() - warmStarted) / 1000).toFixed(0)} s`);
    }
    const partId = seed.samplePartIds[Math.floor(seed.samplePartIds.length / 2)];
    // A cursor deep in the API's list (newest first): the position of the part 50 from the end, in
    // the API's own cursor form, as a client paging through the whole catalogue would send it.
    const [deepPart] = await Part.find({}, { createdAt: 1 })
      .sort({ createdAt: -1, _id: -1 })
      .skip(Math.max(0, (await Part.estimatedDocumentCount()) - 50))
      .limit(1)
      .lean();
    const deepApiCursor = encodeCursor(`${deepPart.createdAt?.getTime() ?? 0}_${deepPart._id.toString()}`);

    const allTargets: Target[] = [
      { name: "static /", path: "/__static/home.html", note: "ceiling: the HTML of / as a file" },
      { name: "/", path: "/", ceiling: "static /", note: "home, anonymous", budgetMs: FRESH_BUDGETS_MS.home },
      { name: "static /parts", path: "/__static/parts.html", note: "ceiling: the HTML of /parts as a file" },
      {
        name: "/parts",
        path: "/parts",
        ceiling: "static /parts",
        note: "first page, anonymous",
        budgetMs: FRESH_BUDGETS_MS.parts,
      },
      { name: "/parts last", path: deep.last, ceiling: "static /parts", note: "the last page, linked from the first" },
      {
        name: "/parts deep",
        path: deep.previous,
        ceiling: "static /parts",
        note: "the page before the last, by its cursor link",
      },
      {
        name: "/parts search",
        path: `/parts?q=${seed.searchWord}`,
        paths: seed.searches,
        ceiling: "static /parts",
        note: `${seed.searches.length} different searches in turn (words, prefixes, two words, with filters); alone: q=${seed.searchWord}`,
        appP95BudgetMs: SEARCH_APP_P95_BUDGET_MS,
      },
      {
        name: "/parts filtered",
        path: "/parts?category=brakes&make=Volkswagen&model=Golf&year=2016",
        paths: seed.vehicleFilters,
        ceiling: "static /parts",
        note: `${seed.vehicleFilters.length} different vehicles in turn, some with a category, with counts per filter; alone: brakes for a 2016 Volkswagen Golf`,
        appP95BudgetMs: SEARCH_APP_P95_BUDGET_MS,
      },
      {
        name: "/parts/{id}",
        path: `/parts/${partId}`,
        ceiling: "static /parts",
        headers: { Cookie: cookies[cookies.length - 1] },
        note: "part page, signed in, rendered fresh",
        budgetMs: FRESH_BUDGETS_MS.partPage,
      },
      {
        name: "/dashboard/orders",
        path: "/dashboard/orders",
        ceiling: "static /parts",
        headers: { Cookie: cookies[cookies.length - 1] },
        note: "My Orders, signed in, rendered fresh",
      },
      {
        name: "GET /api/v1/parts",
        path: "/api/v1/parts",
        ceiling: "static /parts",
        headers: { Authorization: `Bearer ${apiKey}` },
        note: "the API's first page of parts (25, JSON), with a key",
      },
      {
        name: "GET /api/v1/parts deep",
        path: `/api/v1/parts?cursor=${deepApiCursor}`,
        ceiling: "static /parts",
        headers: { Authorization: `Bearer ${apiKey}` },
        note: "the API's page of 25 some 50 parts before the end of the catalogue, by its cursor",
      },
      {
        name: "GET /api/v1/parts search",
        path: `/api/v1/parts?q=${seed.searchWord}`,
        paths: seed.searches.map((search) => search.replace(/^\/parts/, "/api/v1/parts")),
        ceiling: "static /parts",
        headers: { Authorization: `Bearer ${apiKey}` },
        note: "the same searches as /parts search, through the API",
      },
      {
        name: "/blogs",
        path: "/blogs",
        ceiling: "static /",
        note: "static content, no database",
        budgetMs: FRESH_BUDGETS_MS.blogs,
      },
    ];

    const only = options.only;
    const chosen = only ? allTargets.filter((target) => only.includes(target.name)) : allTargets;
    if (only && chosen.length !== only.length) throw new Error(`--only: no such target among ${only.join(", ")}`);
    const targets = allTargets.filter(
      (target) => chosen.includes(target) || chosen.some((other) => other.ceiling === target.name),
    );
    const results: (LoadResult & {
      name: string;
      path: string;
      note: string;
      ratioToCeiling: number | null;
      single: Awaited<ReturnType<typeof alone>>;
      budgetMs: number | null;
      budgetMet: boolean | null;
      appP95BudgetMs: number | null;
      appP95BudgetMet: boolean | null;
    })[] = [];
    log(`  ${LOAD_HEADER}`);
    for (const target of targets) {
      // One request at a time first: the cost of a page without queueing (and the queue of the
      // previous target drained, since the database answers in order).
      const single = await alone(
        target.paths ? target.paths.map((page) => `${shop.url}${page}`) : `${shop.url}${target.path}`,
        target.headers,
        shop.pid,
      );
      log(`Load: ${target.name} (${target.path}), ${options.connections} connections, ${options.duration} s…`);
      const input: LoadOptions = {
        url: `${shop.url}${target.path}`,
        connections: options.connections,
        duration: options.duration,
        warmup: options.warmup,
        headers: target.headers,
        paths: target.paths,
      };
      const result = await runPinned<LoadResult>("load", input);
      // Requests still queued when the run stopped (the warm-up's too) are answered before this one:
      // the next target starts on an idle shop.
      await fetch(`${shop.url}${target.path}`, { headers: target.headers }).then((response) => response.arrayBuffer());
      const ceiling = target.ceiling ? results.find((done) => done.name === target.ceiling) : undefined;
      results.push({
        ...result,
        url: target.path,
        name: target.name,
        path: target.path,
        note: target.note,
        ratioToCeiling: ceiling && ceiling.rps > 0 ? round(result.rps / ceiling.rps, 3) : null,
        single,
        budgetMs: target.budgetMs ?? null,
        budgetMet: target.budgetMs === undefined ? null : single.appP50 <= target.budgetMs,
        appP95BudgetMs: target.appP95BudgetMs ?? null,
        appP95BudgetMet: target.appP95BudgetMs === undefined ? null : single.appP95 < target.appP95BudgetMs,
      });
      log(`  ${loadLine(loadRow(results[results.length - 1]))}`);
      if (!shop.alive()) throw new Error("the shop stopped during the load test");
    }

    // Order placement beside the same static ceiling as the catalogue's pages.
    const ceilingRps = results.find((done) => done.name === "static /parts")?.rps ?? 0;
    const ratio = (rps: number) => (ceilingRps > 0 ? round(rps / ceilingRps, 3) : null);
    let orders: (Awaited<ReturnType<typeof orderBenchmark>> & { ratioToCeiling: number | null }) | null = null;
    if (options.orders) {
      log(`Orders: ${options.orderCustomers} signed-in customers ordering at once for ${options.orderDuration} s…`);
      const placed = await orderBenchmark(shop, cookies.slice(0, options.orderCustomers));
      orders = { ...placed, ratioToCeiling: ratio(placed.requestsPerSecond) };
      if (!shop.alive()) throw new Error("the shop stopped during the order benchmark");
    }
    let apiOrders: (Awaited<ReturnType<typeof apiOrderBenchmark>> & { ratioToCeiling: number | null }) | null = null;
    if (options.orders) {
      log(
        `Orders by API: ${options.orderCustomers} customers with API keys ordering at once for ${options.orderDuration} s…`,
      );
      const placed = await apiOrderBenchmark(shop, apiKeys.slice(0, options.orderCustomers));
      apiOrders = { ...placed, ratioToCeiling: ratio(placed.requestsPerSecond) };
      if (!shop.alive()) throw new Error("the shop stopped during the API order benchmark");
    }

    log("Page weight…");
    const weights: PageWeight[] = await measurePages(shop.url, buildDir);

    let lighthouse = null;
    if (options.lighthouse) {
      log("Lighthouse (mobile preset), 4 pages…");
      const { LIGHTHOUSE_PAGES, runLighthouse } = await import("./lighthouse");
      try {
        // One visit to each page first, so Lighthouse sees the shop as a visitor of a live shop
        // would, not the stand-in database's first read of a cold collection (seconds at this size).
        for (const page of LIGHTHOUSE_PAGES) await fetchText(`${shop.url}${page}`);
        lighthouse = await runLighthouse(shop.url);
      } catch (error) {
        // The rest of the report is still worth writing.
        console.error(`Lighthouse failed: ${(error as Error).message}`);
      }
    }

    const report = {
      date: new Date(started).toISOString(),
      seconds: Math.round((Date.now() - started) / 1000),
      machine: { ...before, loadAverageAfter: os.loadavg().map((value) => round(value, 2)) },
      options,
      seed,
      load: results,
      orders,
      apiOrders,
      pageWeight: weights,
      lighthouse,
    };
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    if (!args.out) writeFileSync(path.join(path.dirname(out), "latest.json"), `${JSON.stringify(report, null, 2)}\n`);

    log("");
    log(formatReport(report));
    log(`\nWritten to ${path.relative(process.cwd(), out)}`);
    const problem = homeBudgetProblem(weights);
    if (problem) log(`Over budget: ${problem}`);
    if (orders && !orders.invariantHolds) {
      console.error("The stock invariant does not hold: see orders.parts in the JSON.");
      process.exitCode = 1;
    }
    if (apiOrders && !apiOrders.invariantHolds) {
      console.error("The stock invariant does not hold for orders by API: see apiOrders.parts in the JSON.");
      process.exitCode = 1;
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch((error) => console.error(error));
  }
}

type Report = {
  machine: ReturnType<typeof machine> & { loadAverageAfter: number[] };
  options: typeof options;
  seed: SeedReport;
  load: (LoadResult & {
    name: string;
    note: string;
    ratioToCeiling: number | null;
    single?: { latencyP50: number; dbP50: number; appP50: number; appP95: number; cpuPerRequest: number | null };
    budgetMs?: number | null;
    budgetMet?: boolean | null;
    appP95BudgetMs?: number | null;
    appP95BudgetMet?: boolean | null;
  })[];
  orders: (Awaited<ReturnType<typeof orderBenchmark>> & { ratioToCeiling: number | null }) | null;
  apiOrders: (Awaited<ReturnType<typeof apiOrderBenchmark>> & { ratioToCeiling: number | null }) | null;
  pageWeight: PageWeight[];
  lighthouse: Awaited<ReturnType<typeof import("./lighthouse").runLighthouse>> | null;
};

const LOAD_HEADER = `${"target".padEnd(24)}   req/s   p50 ms   p95 ms   p99 ms   ratio   db p95   app p95   db share   non-2xx   alone, median of ${options.aloneRequests}: ms (db/app), CPU/req`;

type Row = Pick<Report["load"][number], "name" | "rps" | "latency" | "ratioToCeiling" | "serverTiming" | "single"> & {
  /** Answers that were not what the target asks for (errors and timeouts included). */
  failed: number;
};

function loadRow(result: Report["load"][number]): Row {
  const non2xx = Object.entries(result.status)
    .filter(([code]) => !code.startsWith("2"))
    .reduce((sum, [, count]) => sum + count, 0);
  return { ...result, failed: non2xx + result.errors + result.timeouts };
}

/** An order benchmark as a row of the load table: every answer a request, a refusal not a success. */
function orderRow(name: string, o: NonNullable<Report["orders"]>): Row {
  const refused = Object.values(o.refusals).reduce((sum, count) => sum + count, 0);
  return { ...o, name, rps: o.requestsPerSecond, failed: refused + o.errors };
}

function loadLine(result: Row) {
  const timing = result.serverTiming;
  const dbShare = timing && timing.total.mean > 0 ? `${Math.round((timing.db.mean / timing.total.mean) * 100)}%` : "-";
  const non2xx = result.failed;
  return [
    result.name.padEnd(24),
    String(result.rps).padStart(7),
    String(result.latency.p50).padStart(8),
    String(result.latency.p95).padStart(8),
    String(result.latency.p99).padStart(8),
    (result.ratioToCeiling === null ? "-" : `${Math.round(result.ratioToCeiling * 100)}%`).padStart(7),
    (timing ? String(timing.db.p95) : "-").padStart(8),
    (timing ? String(timing.render.p95) : "-").padStart(9),
    dbShare.padStart(10),
    String(non2xx).padStart(9),
    result.single
      ? `   ${result.single.latencyP50} (${result.single.dbP50}/${result.single.appP50}), ${result.single.cpuPerRequest ?? "-"}`
      : "",
  ].join(" ");
}

/** Whether each page's app share alone (median of 50) is within its budget (docs/performance.md). */
function budgetLines(load: Report["load"]) {
  return load
    .filter((result) => result.budgetMs != null && result.single)
    .map(
      (result) =>
        `  ${result.name.padEnd(17)} app ${result.single!.appP50} ms alone, budget ${result.budgetMs} ms: ${result.budgetMet ? "met" : "NOT MET"}`,
    );
}

/**
 * Whether each search target's app share is within the search budget: p95 over 50 different
 * searches asked one at a time, beside what the load test at 50 connections got as it is.
 */
function searchBudgetLines(load: Report["load"]) {
  return load
    .filter((result) => result.appP95BudgetMs != null && result.single)
    .map(
      (result) =>
        `  ${result.name.padEnd(17)} app p95 ${result.single!.appP95} ms alone, budget under ${result.appP95BudgetMs} ms: ${result.appP95BudgetMet ? "met" : "NOT MET"}; at ${result.connections} connections ${result.requests} answers, app p95 ${result.serverTiming?.render.p95 ?? "-"} ms, database p95 ${result.serverTiming?.db.p95 ?? "-"} ms`,
    );
}

/** One order benchmark in two lines: its rate and latency, then the stock check. */
function orderLines(title: string, o: NonNullable<Report["orders"]>) {
  return [
    `${title}: ${o.customers} customers, ${o.placed} placed of ${o.attempts} attempts in ${o.seconds} s = ${o.ordersPerSecond} orders/s; p50 ${o.latency.p50} ms, p95 ${o.latency.p95} ms, p99 ${o.latency.p99} ms; answers ${JSON.stringify(o.status)}${o.errors ? `, ${o.errors} errors` : ""}.`,
    `Stock: ${o.invariantHolds ? "never below zero, and equal to the start minus what was ordered, on every part" : "INVARIANT BROKEN"} (${o.parts.map((part) => `${part.startStock} - ${part.unitsOrderedInDb} = ${part.endStock}`).join("; ")}).`,
  ];
}

function formatReport(report: Report) {
  const { machine: m } = report;
  const lines = [
    `Machine: ${m.cpus} cores (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverage.join(" ")} before, ${m.loadAverageAfter.join(" ")} after; ${m.chromiumProcesses} chromium processes running at the start.`,
    `Catalogue: ${report.seed.parts} parts, ${report.seed.orders} orders, ${report.seed.reviews} reviews (parts seeded at ${report.seed.partsPerSecond}/s).`,
    `Load: ${report.options.connections} connections, ${report.options.duration} s per target after ${report.options.warmup} s of warm-up.`,
    "",
    LOAD_HEADER,
  ];
  for (const result of report.load) lines.push(loadLine(loadRow(result)));
  // Order placement, in the same columns: req/s counts every answer (placed or refused), the
  // refusals (a part sold out) under non-2xx; orders/s is in the lines below the table.
  if (report.orders) lines.push(loadLine(orderRow("POST order form", report.orders)));
  if (report.apiOrders) lines.push(loadLine(orderRow("POST /api/v1/orders", report.apiOrders)));
  lines.push(
    "",
    "Budgets, rendered fresh (app share of one request alone, median of 50):",
    ...budgetLines(report.load),
    "",
    `Search budget (the app's share of a search, p95 over different searches, under ${SEARCH_APP_P95_BUDGET_MS} ms):`,
    ...searchBudgetLines(report.load),
  );
  if (report.orders) lines.push("", ...orderLines("Orders (order form, signed in)", report.orders));
  if (report.apiOrders) {
    lines.push("", ...orderLines("Orders by API (POST /api/v1/orders, a key each)", report.apiOrders));
    const refusals = Object.entries(report.apiOrders.refusals);
    if (refusals.length) lines.push(`Refused: ${refusals.map(([title, count]) => `${count} × ${title}`).join("; ")}.`);
  }
  lines.push("", "Page weight:", formatPageWeights(report.pageWeight));
  if (report.lighthouse) {
    lines.push("", "Lighthouse (mobile):");
    for (const page of report.lighthouse) {
      const s = page.scores;
      lines.push(
        `  ${page.path.padEnd(12)} performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s["best-practices"]}, SEO ${s.seo}`,
      );
    }
  }
  return lines.join("\n");
}

await main();
