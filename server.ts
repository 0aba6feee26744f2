import { existsSync, watch } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import type { ShopRuntime } from "./app/runtime.server";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import expressStaticGzip from "express-static-gzip";
import { dbOutageGuard, RETRY_AFTER_SECONDS } from "./server/db-outage";
import { withPageUrls } from "./server/single-fetch";
import { connectWithRetry, oneLine, StartupError } from "./server/db-start";
import { checkDataDirectory, isLocalDbError, startSupervisedLocalDb, type LocalDb } from "./server/local-db";
import { mailInbox, startMailCatcher, type MailCatcher } from "./server/mail-catcher";
import { isFromThisMachine, isLocalUrl } from "./server/local-request";
import { createLogger, requestLogger } from "./server/logger";
import { shopMetrics } from "./server/metrics";
import { labelOf, remixRouteMatcher } from "./server/route-label";
import {
  apiRouteMatcher,
  bodyLimit,
  knownMethods,
  normalisedPath,
  sameOriginWrites,
  unreadBodies,
} from "./server/request-guards";
import { cspNonce, privateAnswers, securityHeaders } from "./server/security-headers";
import { gracefulShutdown } from "./server/shutdown";
import { startTracing } from "./server/tracing";

if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");

// --- Traces -------------------------------------------------------------------------------------
// Only with OTEL_EXPORTER_OTLP_ENDPOINT (docs/monitoring.md, "Traces"), started before the build is
// imported: it instruments the database driver the build loads. Off, neither the SDK nor an
// instrumentation is loaded. The settings are taken as they are here, as BUILD_DIR is (server/env.ts checks them too).
const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  ? await startTracing({ serviceName: process.env.OTEL_SERVICE_NAME || "partsworks-shop" })
  : undefined;

// --- Remix build -------------------------------------------------------------------------------
// The app comes from the build alone: its server entry hands over what this file needs of it
// (app/runtime.server.ts), so no module of app/ is loaded twice. Where the build is must be known
// before the settings are read, so BUILD_DIR is taken as it is here (server/env.ts checks it too).
const buildDir = path.resolve(process.env.BUILD_DIR || "build");
const buildPath = path.join(buildDir, "index.js");
async function importBuild(fresh = false): Promise<ServerBuild> {
  const url = pathToFileURL(buildPath).href;
  return import(fresh ? `${url}?t=${Date.now()}` : url);
}
const runtimeOf = (build: ServerBuild) => (build.entry.module as unknown as { shopRuntime: ShopRuntime }).shopRuntime;
/**
 * A setting the shop cannot start with (server/env.ts): its one line, exit 1. The build's modules
 * read the settings as they load, so this may come from the import itself, where the build's own
 * EnvError class is not known yet: it goes by its name.
 */
function refuseSettings(error: unknown): never {
  if (!(error instanceof Error) || error.name !== "EnvError") throw error;
  console.error(error.message);
  process.exit(1);
}
const firstBuild = await importBuild().catch(refuseSettings);
/** The app of the build being served (in development, the latest rebuild's). */
let runtime = runtimeOf(firstBuild);
const { db } = runtime;

let env: ReturnType<ShopRuntime["env"]["getEnv"]>;
try {
  env = runtime.env.getEnv();
} catch (error) {
  refuseSettings(error);
}

const logger = createLogger(env.LOG_LEVEL, tracing?.traceIds);
// The app's own lines (a sweep that failed, a step left to a sweep) go through this logger too.
runtime.useLogger(logger);
const isDev = env.NODE_ENV === "development";

// --- Database ---------------------------------------------------------------------------------
// A database that is not there yet is waited for (server/db-start.ts); whatever stops the start
// (an unreachable database, a malformed address, a local database that cannot start, a data
// directory that cannot be written, a full disk) is one line.
let localDb: LocalDb | undefined;
try {
  let mongoUri = env.MONGODB_URI;
  if (!mongoUri) {
    const dataDir = path.resolve(env.DATA_DIR, "db");
    checkDataDirectory(dataDir);
    const dataFile = path.join(dataDir, "shop.mv");
    // Started again by itself should it stop (server/local-db.ts).
    localDb = await startSupervisedLocalDb({ dataFile, logger });
    mongoUri = localDb.uri;
    logger.info(`Local database (mongo-java-server, pid ${localDb.pid}) on ${mongoUri}, data in ${dataFile}`);
  }
  const uri = mongoUri;
  await connectWithRetry({
    uri,
    connect: () => db.connectDb(uri, { timeoutMs: env.DB_TIMEOUT_MS }),
    waitMs: env.DB_STARTUP_WAIT_MS,
    logger,
  });
  await db.syncIndexes();
  // Versioned data migrations (scripts/migrations, migrate-mongo), each with its duration in the log.
  await runtime.migrateDb(undefined, { log: (line) => logger.info(line) });
  // Parts without their search keys (stored before a change of them) get them; nothing when none is.
  const backfilled = await runtime.backfillCatalogueKeys();
  if (backfilled.updated) logger.info(`Search keys written for ${backfilled.updated} parts`);
  for (const number of backfilled.conflicts)
    logger.warn(`Part ${number} clashes with another's number as a key: renumber it`);
  // Index builds and migrations may take longer than an operation's ceiling; from here on every
  // operation has one, and a heartbeat tells a frozen database from a busy one
  // (DB_OPERATION_TIMEOUT_MS and DB_STALL_MS, app/services/db.server.ts).
  await db.disconnectDb();
  await db.connectDb(uri, {
    timeoutMs: env.DB_TIMEOUT_MS,
    operationTimeoutMs: env.DB_OPERATION_TIMEOUT_MS,
    stallMs: env.DB_STALL_MS,
  });
  await db.warmPool(6, env.DB_STARTUP_WAIT_MS);
  if (localDb) {
    // The local database is for development and demos: make sure it has the demo data.
    const logins = await runtime.ensureDemoData();
    console.log("Demo logins (well-known passwords, for trying the shop on this machine only):");
    for (const login of logins)
      console.log(
        `  ${login.role.padEnd(8)} ${login.email} / ${login.password}${login.note ? ` (${login.note})` : ""}`,
      );
  }
} catch (error) {
  if (
    !(error instanceof StartupError) &&
    !db.isDbUnavailableError(error) &&
    !db.isDbFullError(error) &&
    !isLocalDbError(error)
  )
    throw error;
  console.error(`Cannot start: ${db.isDbFullError(error) ? diskFull(error, Boolean(localDb)) : oneLine(error)}`);
  await localDb?.stop();
  process.exit(1);
}

/**
 * A full disk at start, in one line. The embedded database refuses writes below a margin of free
 * space (scripts/local-db/LocalMongo.java): the line says how much, and the setting that sets it.
 */
function diskFull(error: unknown, embedded: boolean) {
  const said = oneLine(error);
  if (!embedded || !/less than \d+ MB free/.test(said)) return `the database's disk is full (${said})`;
  return (
    `the database's disk is full: ${said.replace(/^disk full: /, "")}, the margin the embedded database keeps ` +
    "(LOCAL_DB_MIN_FREE_MB, 64 by default)"
  );
}

// --- Mail ---------------------------------------------------------------------------------------
// Without SMTP_URL the shop catches its own mail, as it runs its own database without MONGODB_URI.
// Production on a real database never gets here without SMTP_URL (server/env.ts refuses to start).
// The caught mail holds reset links: its pages are there only in a demo on this machine (the local
// database, a PUBLIC_URL only this machine opens, no proxy configured), and answer only to requests
// straight from this machine (server/local-request.ts).
let mailCatcher: MailCatcher | undefined;
let smtpUrl = env.SMTP_URL;
const proxyConfigured = env.TRUST_PROXY !== false;
const showCaughtMail = Boolean(localDb) && isLocalUrl(env.PUBLIC_URL) && !proxyConfigured;
if (!smtpUrl) {
  mailCatcher = await startMailCatcher();
  smtpUrl = mailCatcher.smtpUrl;
  logger.info(
    showCaughtMail
      ? `SMTP_URL is unset: mail is caught locally, read it at ${env.PUBLIC_URL}/dev/mail from this machine`
      : "SMTP_URL is unset: mail is caught locally and not shown (only a demo on its local database, " +
          "with a local PUBLIC_URL and no TRUST_PROXY, shows it); set SMTP_URL to send it",
  );
}
const mailWorker = await runtime.startMailWorker({
  smtpUrl,
  from: env.MAIL_FROM,
  logger,
  lockMs: env.MAIL_LOCK_MS,
  sweepMs: env.MAIL_SWEEP_MS,
  maxAttempts: env.MAIL_MAX_ATTEMPTS,
});
// Orders left half placed by a crash, holds running out, and the stock check (orders/stock-jobs.server.ts).
await runtime.startStockJobs(mailWorker.agenda, logger);

// While the database is away, loaders and actions answer 503 at once (server/db-outage.ts).
const outage = dbOutageGuard({
  isUnavailable: db.isDbUnavailableError,
  isBusy: db.isDbBusyError,
  isFull: db.isDbFullError,
  probe: db.probeDb,
  writeProbe: async () => (await db.checkDbHealth()).ok,
  lastAnswerAt: db.lastDbAnswerAt,
  stallMs: env.DB_STALL_MS,
  logger,
});
outage.start();
function remixHandler(build: ServerBuild) {
  const served = outage.wrapBuild(withPageUrls(build));
  return createRequestHandler({
    // With tracing on, each loader and action in a span of its own (server/tracing.ts).
    build: tracing ? tracing.withRouteSpans(served) : served,
    mode: env.NODE_ENV,
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "",
      requestId: String(req.id),
      logger: req.log,
      databaseStorage: outage.storage,
    }),
  });
}
let handleRemix = remixHandler(firstBuild);
// Which paths are API routes (the same-origin check exempts those with a key, and no others).
let isApiRoute = apiRouteMatcher(firstBuild.routes);
// Which Remix route a path reaches: the label of its request metrics (server/route-label.ts).
let routeOf = remixRouteMatcher(firstBuild.routes);
// A request's span is named after that route too (`GET routes/parts.$id`).
tracing?.labelRequests((url) => labelOf(normalisedPath(url), routeOf));
if (isDev) {
  // `remix dev --manual` rebuilds; load the new build and tell the dev server it is live.
  broadcastDevReady(firstBuild);
  let timer: NodeJS.Timeout | undefined;
  watch(buildDir, () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const next = await importBuild(true);
      // The rebuilt app gets the shop's settings as the first did when it connected.
      runtimeOf(next).db.provideModelSettingsFromEnv();
      runtimeOf(next).useLogger(logger);
      runtime = runtimeOf(next);
      handleRemix = remixHandler(next);
      isApiRoute = apiRouteMatcher(next.routes);
      routeOf = remixRouteMatcher(next.routes);
      broadcastDevReady(next);
    }, 100);
  });
}

// --- HTTP -------------------------------------------------------------------------------------
const app = express();
const server = createServer(app);
// Deploys lose nothing (server/shutdown.ts): on SIGTERM the answers in flight are given, with
// `Connection: close`, before the job runner, the mail and the database stop.
const shutdown = gracefulShutdown({
  server,
  timeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  delayMs: env.SHUTDOWN_DELAY_MS,
  logger,
  cleanup: [
    { name: "the mail sender", run: (msLeft) => mailWorker.stop(Math.max(0, msLeft - 2000)) },
    { name: "the mail catcher", run: async () => mailCatcher?.stop() },
    {
      name: "the database connection",
      run: () => {
        outage.stop();
        return db.disconnectDb();
      },
    },
    { name: "the local database", run: async () => localDb?.stop() },
    { name: "the traces still to send", run: async (msLeft) => tracing?.shutdown(Math.max(0, msLeft - 1000)) },
  ],
});
app.use(shutdown.closeConnections);
// Prometheus metrics (docs/monitoring.md): every answer counted and timed, by route and status.
const metrics = shopMetrics({
  routeOf: (pathname) => routeOf(pathname),
  readShopGauges: () => runtime.metrics.readShopGauges(),
  pdfQueue: () => runtime.metrics.pdfQueue(),
  dbState: () => ({ up: !outage.down, writable: outage.storage !== "disk full" }),
  volumes: { data: env.DATA_DIR, avatars: env.AVATAR_DIR ?? path.join(env.DATA_DIR, "avatars") },
});
app.use(metrics.requestMetrics);
app.disable("x-powered-by");
// Express compiles TRUST_PROXY (addresses, ranges, or a count) into "trust proxy fn".
app.set("trust proxy", env.TRUST_PROXY || false);
if (typeof env.TRUST_PROXY === "number") logger.warn(runtime.env.TRUST_PROXY_COUNT_WARNING);
// Through the current build's middleware, so the app finds its request's context and timing.
app.use((req, res, next) => runtime.serverTiming(req, res, next));
app.use(requestLogger(logger, (res) => runtime.requestContextOf(res)?.userId));
app.use((req, res, next) => runtime.requestContext(req, res, next));
app.use(compression());
app.use(cspNonce);
app.use(
  securityHeaders({
    https: env.PUBLIC_URL.startsWith("https:"),
    dev: isDev,
    googleAuthorizationOrigin: runtime.env.isGoogleConfigured(env)
      ? new URL(env.GOOGLE_AUTHORIZATION_URL ?? "https://accounts.google.com/o/oauth2/v2/auth").origin
      : null,
  }),
);
app.use(knownMethods());
app.use(sameOriginWrites({ publicOrigin: new URL(env.PUBLIC_URL).origin, isApiRoute: (path) => isApiRoute(path) }));
app.use(bodyLimit({ limitBytes: env.BODY_LIMIT_BYTES }));
// A body the answer did not wait for is read and dropped, or its connection closed (server/request-guards.ts).
app.use(unreadBodies({ limitBytes: env.BODY_LIMIT_BYTES }));

// Readiness: this instance can serve, its database read and written (a health document, within
// 2 s). Liveness (/livez) only says the process answers: a database outage must not restart it.
// Anyone (a load balancer) learns ok or not from the status; what is wrong, and which integrations
// have keys, only a request straight from this machine (server/local-request.ts).
app.get("/healthz", async (req, res) => {
  res.setHeader("Cache-Control", "no-store");
  const detailed = isFromThisMachine(req, { proxyConfigured });
  const answer = (status: 200 | 503, words: string) => {
    if (!detailed) return res.status(status).json({ status: status === 200 ? "ok" : "unavailable" });
    // Which integrations have keys (booleans only, never a value).
    const integrations = { stripe: runtime.env.isStripeConfigured(env), google: runtime.env.isGoogleConfigured(env) };
    return res.status(status).json({ status: words, integrations });
  };
  // Shutting down: no longer ready, so a load balancer sends nothing new while requests finish.
  if (shutdown.draining) return answer(503, "shutting down");
  // Known to be away: answered at once, as pages are.
  if (outage.down) return answer(503, "database unavailable");
  // Answered 503 the moment the heartbeat finds the database frozen, whatever the check waits on.
  const health = await outage
    .whileUp(db.checkDbHealth({ deadlineMs: 2000 }))
    .catch(() => ({ ok: false, problem: "unavailable" }) as const);
  outage.noteHealth(health.ok ? null : health.problem);
  if (health.ok) return answer(200, "ok");
  answer(503, `database ${health.problem}`);
});
app.get("/livez", (_req, res) => {
  res.setHeader("Cache-Control", "no-store");
  res.status(200).json({ status: "alive" });
});
// Only to this machine without a proxy, or with METRICS_TOKEN as a Bearer token; anyone else gets the 404.
app.get("/metrics", metrics.metricsRoute({ proxyConfigured, token: env.METRICS_TOKEN }));

// Fingerprinted build assets never change: compressed once at build time (npm run build:compress),
// served as brotli or gzip as the browser accepts, cached for a year. Everything else in public/ is
// cached briefly.
app.use(
  "/build",
  expressStaticGzip(path.join(buildDir, "client", "build"), {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    index: false,
    serveStatic: { immutable: true, maxAge: "1y", index: false },
  }),
);
// Every file in public/ has an extension; pages never do, so they skip the file-system lookup.
// So do single fetch's data requests (`/parts.data`, `/_root.data`): Remix answers those.
const publicFiles = express.static("public", { maxAge: "1h", index: false });
app.use((req: Request, res: Response, next: NextFunction) => {
  const extension = path.extname(req.path);
  return extension && extension !== ".data" ? publicFiles(req, res, next) : next();
});

// `npm run bench` only: saved copies of rendered pages, served by this same server as the ceiling
// that server-side rendering is measured against.
if (env.BENCH_STATIC_DIR) {
  app.use("/__static", express.static(path.resolve(env.BENCH_STATIC_DIR), { index: false }));
}

if (mailCatcher && showCaughtMail) app.use(mailInbox(mailCatcher, { proxyConfigured }));

app.all("*", privateAnswers, (req, res, next) => handleRemix(req, res, next));

// Errors outside Remix (a static file that cannot be read, a middleware that threw): logged with
// their stack here, a plain page with the request id for the visitor.
app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
  if (outage.noteError(error) && !res.headersSent) {
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    return res.status(503).type("text/plain").send(`We'll be right back. Reference: ${req.id}`);
  }
  req.log.error({ err: error }, "request failed");
  if (res.headersSent) return res.end();
  res.status(500).type("text/plain").send(`Something went wrong on our side. Reference: ${req.id}`);
});

// HOST unset: every interface (a container, a host behind a proxy); the demo passes 127.0.0.1.
const ready = () => logger.info(`Shop ready on http://${env.HOST ?? "localhost"}:${env.PORT}`);
if (env.HOST) server.listen(env.PORT, env.HOST, ready);
else server.listen(env.PORT, ready);
// Idle keep-alive connections outlive those of clients and load balancers (60 s is common), so a
// client never sends a request on a socket the server is closing at that moment (ECONNRESET).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// A promise that rejects with nobody awaiting it (seen: the driver's server-selection timeout
// while the database was overloaded by the benchmark) is logged; it must not take down every
// request in flight with it.
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason }, "unhandled rejection");
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => void shutdown.begin(signal).then((code) => process.exit(code)));
}
