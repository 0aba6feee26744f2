import { createHash, timingSafeEqual } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import { statfs } from "node:fs/promises";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { isFromThisMachine } from "./local-request";
import { normalisedPath } from "./request-guards";
import { labelOf, type RouteMatch } from "./route-label";

/**
 * Prometheus metrics at /metrics (docs/monitoring.md): requests by Remix route and status, database
 * operations, the process (event-loop lag, memory), and the shop's queues, holds, backorders, PDFs,
 * stock check and disks. Labels are bounded: a route id or a fixed name, never a URL with an id.
 *
 * What needs the database is read when Prometheus scrapes, at most once per `cacheMs` and one read
 * at a time, and the scrape waits for it at most `timeoutMs`: a scrape never adds load to a
 * struggling database and never hangs while it is away (it shows the last values read, and
 * `shop_metrics_db_read_success` 0).
 */

type Backlog = { waiting: number; oldestAt: number | null; failed: number };

/** The database readings (app/orders/metrics.server.ts, handed over by the build). */
export type ShopGauges = {
  queues: Record<string, Backlog>;
  holds: { active: number; endingSoon: number; overdue: number };
  backorders: { orders: number; oldestAt: number | null };
  stockCheck: { at: number; parts: number; problems: number } | null;
};

export type MetricsOptions = {
  /** The Remix route id a path matches (the current build's: remixRouteMatcher). */
  routeOf: (pathname: string) => RouteMatch | undefined;
  readShopGauges: () => Promise<ShopGauges>;
  pdfQueue: () => { printing: number; waiting: number };
  /** What the server knows of the database without asking it (server/db-outage.ts). */
  dbState: () => { up: boolean; writable: boolean };
  /** Folders whose disk's free space is reported, by a fixed name (`data`, `avatars`). */
  volumes: Record<string, string>;
  cacheMs?: number;
  timeoutMs?: number;
};

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function shopMetrics({
  routeOf,
  readShopGauges,
  pdfQueue,
  dbState,
  volumes,
  cacheMs = 5000,
  timeoutMs = 1000,
}: MetricsOptions) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  // --- Requests ---------------------------------------------------------------------------------
  const requests = new Counter({
    name: "shop_http_requests_total",
    help: "HTTP requests answered, by method, Remix route id (or a fixed name) and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const durations = new Histogram({
    name: "shop_http_request_duration_seconds",
    help: "Time from a request's arrival to the last byte of its answer, by method, route and status",
    labelNames: ["method", "route", "status"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // Paths with ids repeat a few routes: each path's label is worked out once.
  const labels = new LRUCache<string, string>({ max: 5000 });
  const routeLabel = (url: string) => {
    const pathname = normalisedPath(url);
    let label = labels.get(pathname);
    if (label === undefined) {
      label = labelOf(pathname, routeOf);
      labels.set(pathname, label);
    }
    return label;
  };

  /** Express middleware: counts and times every answer, also those given before Remix (413, 503, static files). */
  function requestMetrics(req: Request, res: Response, next: NextFunction) {
    const start = performance.now();
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      // Closed before its answer went out: 499, as nginx logs a client that went away.
      const status = res.writableFinished || res.headersSent ? String(res.statusCode) : "499";
      const method = METHODS.has(req.method) ? req.method : "other";
      const answer = { method, route: routeLabel(req.originalUrl), status };
      requests.inc(answer);
      durations.observe(answer, (performance.now() - start) / 1000);
    };
    res.once("finish", count);
    res.once("close", count);
    next();
  }

  // --- Database operations ----------------------------------------------------------------------
  const dbDurations = new Histogram({
    name: "shop_db_operation_duration_seconds",
    help: "Database operations made through Mongoose, by operation and collection",
    labelNames: ["operation", "collection"],
    buckets: DB_BUCKETS,
    registers: [registry],
  });
  const dbErrors = new Counter({
    name: "shop_db_operation_errors_total",
    help: "Database operations made through Mongoose that failed, by operation and collection",
    labelNames: ["operation", "collection"],
    registers: [registry],
  });
  watchMongoose(
    (labels, seconds) => dbDurations.observe(labels, seconds),
    (labels) => dbErrors.inc(labels),
  );

  // --- What the server knows at once ------------------------------------------------------------
  const dbUp = gauge(registry, "shop_db_up", "1 while the database answers, 0 while the shop answers 503 for it");
  const dbWritable = gauge(registry, "shop_db_writable", "0 while the database refuses writes for a full disk");
  const pdfPrinting = gauge(registry, "shop_pdf_printing", "PDFs this process is printing now");
  const pdfWaiting = gauge(registry, "shop_pdf_waiting", "PDFs waiting in this process's line to be printed");
  const diskFree = gauge(registry, "shop_disk_free_bytes", "Free space of the disk holding a folder of the shop", [
    "volume",
  ]);
  const diskSize = gauge(registry, "shop_disk_size_bytes", "Size of the disk holding a folder of the shop", ["volume"]);

  // --- Read from the database at scrape time ----------------------------------------------------
  // Shown once they have been read (never a 0 that was not).
  const readings = new Registry();
  const queueDepth = gauge(readings, "shop_queue_depth", "Entries waiting in a queue (mail, webhooks, jobs)", [
    "queue",
  ]);
  const queueAge = gauge(
    readings,
    "shop_queue_oldest_age_seconds",
    "How long the oldest waiting entry of a queue has waited (0 when none waits)",
    ["queue"],
  );
  const queueFailed = gauge(readings, "shop_queue_failed", "Entries that ran out of attempts (mail, webhooks)", [
    "queue",
  ]);
  const holds = gauge(
    readings,
    "shop_holds",
    "Unpaid orders holding stock: active, ending within the hour, and overdue (ended, not expired yet)",
    ["state"],
  );
  const backorders = gauge(readings, "shop_backorders_waiting_orders", "Open orders with units waiting on backorder");
  const backorderAge = gauge(
    readings,
    "shop_backorders_oldest_age_seconds",
    "How long ago the oldest order still waiting on backorder was placed (0 when none waits)",
  );
  const stockProblems = gauge(readings, "shop_stock_check_problems", "Differences the last stock check found");
  const stockParts = gauge(readings, "shop_stock_check_parts", "Parts the last stock check compared");
  const stockAt = gauge(
    readings,
    "shop_stock_check_timestamp_seconds",
    "When the last stock check ran (Unix time; 0: none yet)",
  );
  const readSuccess = gauge(
    registry,
    "shop_metrics_db_read_success",
    "1 when the last read of the database gauges succeeded in time",
  );
  const readAt = gauge(
    registry,
    "shop_metrics_db_read_timestamp_seconds",
    "When the database gauges were last read successfully (Unix time)",
  );

  let latest: ShopGauges | undefined;
  let attemptedAt = 0;
  let reading: Promise<void> | undefined;

  /** A fresh reading when the last is older than cacheMs; waits for it at most timeoutMs. */
  async function refresh() {
    if (Date.now() - attemptedAt < cacheMs) return;
    if (!dbState().up) {
      readSuccess.set(0);
      return;
    }
    if (!reading) {
      attemptedAt = Date.now();
      reading = readShopGauges()
        .then(
          (value) => {
            latest = value;
            readSuccess.set(1);
            readAt.set(Date.now() / 1000);
          },
          () => readSuccess.set(0),
        )
        .finally(() => {
          reading = undefined;
        });
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), timeoutMs);
    });
    if (await Promise.race([reading.then(() => false), late])) readSuccess.set(0);
    clearTimeout(timer);
  }

  function setGauges(now: number) {
    const age = (at: number | null) => (at === null ? 0 : Math.max(0, (now - at) / 1000));
    const db = dbState();
    dbUp.set(db.up ? 1 : 0);
    dbWritable.set(db.writable ? 1 : 0);
    const pdf = pdfQueue();
    pdfPrinting.set(pdf.printing);
    pdfWaiting.set(pdf.waiting);
    if (!latest) return;
    for (const [queue, backlog] of Object.entries(latest.queues)) {
      queueDepth.set({ queue }, backlog.waiting);
      queueAge.set({ queue }, age(backlog.oldestAt));
      queueFailed.set({ queue }, backlog.failed);
    }
    holds.set({ state: "active" }, latest.holds.active);
    holds.set({ state: "ending_soon" }, latest.holds.endingSoon);
    holds.set({ state: "overdue" }, latest.holds.overdue);
    backorders.set(latest.backorders.orders);
    backorderAge.set(age(latest.backorders.oldestAt));
    stockProblems.set(latest.stockCheck?.problems ?? 0);
    stockParts.set(latest.stockCheck?.parts ?? 0);
    stockAt.set(latest.stockCheck ? latest.stockCheck.at / 1000 : 0);
  }

  async function readDisks() {
    await Promise.all(
      Object.entries(volumes).map(async ([volume, folder]) => {
        const stats = await statfs(path.resolve(folder)).catch(() => null);
        if (!stats) return;
        diskFree.set({ volume }, stats.bavail * stats.bsize);
        diskSize.set({ volume }, stats.blocks * stats.bsize);
      }),
    );
  }

  /**
   * GET /metrics: to a request straight from this machine (server/local-request.ts), or with
   * `Authorization: Bearer <token>` when a token is set; anyone else gets the shop's 404.
   */
  function metricsRoute({ proxyConfigured, token }: { proxyConfigured: boolean; token: string | undefined }) {
    return async function metrics(req: Request, res: Response, next: NextFunction) {
      if (!isFromThisMachine(req, { proxyConfigured }) && !hasToken(req.get("authorization"), token)) return next();
      try {
        await Promise.all([refresh(), readDisks()]);
        setGauges(Date.now());
        const text = await (latest ? Registry.merge([registry, readings]) : registry).metrics();
        res.setHeader("Cache-Control", "no-store");
        res.type(registry.contentType).send(text);
      } catch (error) {
        next(error);
      }
    };
  }

  return { registry, requestMetrics, metricsRoute };
}

function gauge(registry: Registry, name: string, help: string, labelNames: string[] = []) {
  return new Gauge({ name, help, labelNames, registers: [registry] });
}

/** A Bearer token equal to `token`, compared in constant time. */
function hasToken(header: string | undefined, token: string | undefined) {
  if (!token || !header) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

// --- Mongoose ---------------------------------------------------------------------------------------

/**
 * Mongoose 9 publishes its operations on diagnostics_channel tracing channels (server/timing.ts
 * reads the same ones): `start` as one begins, `error` if it fails, `asyncEnd` when it is over.
 */
const CHANNELS = [
  "mongoose:query",
  "mongoose:aggregate",
  "mongoose:model:save",
  "mongoose:model:insertMany",
  "mongoose:model:bulkWrite",
];
const STARTED = Symbol("metrics-start");
const FAILED = Symbol("metrics-failed");
type Traced = { operation?: unknown; collection?: unknown; [STARTED]?: number; [FAILED]?: boolean };
type DbLabels = { operation: string; collection: string };

/** A name as it is when it is one (bounded: collections and operations are the app's own). */
const plainName = (value: unknown) => (typeof value === "string" && /^[\w.$-]{1,64}$/.test(value) ? value : "other");

function watchMongoose(observe: (labels: DbLabels, seconds: number) => void, failed: (labels: DbLabels) => void) {
  for (const name of CHANNELS) {
    diagnostics.tracingChannel<unknown, Traced>(name).subscribe({
      start(context) {
        context[STARTED] = performance.now();
      },
      end() {},
      asyncStart() {},
      error(context) {
        context[FAILED] = true;
      },
      asyncEnd(context) {
        const started = context[STARTED];
        if (started === undefined) return;
        context[STARTED] = undefined;
        const labels = {
          operation: plainName(context.operation),
          collection: context.collection === undefined ? "-" : plainName(context.collection),
        };
        observe(labels, (performance.now() - started) / 1000);
        if (context[FAILED]) failed(labels);
      },
    });
  }
}
