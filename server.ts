import { existsSync, watch } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import expressStaticGzip from "express-static-gzip";
import { connectDb, disconnectDb, isDbHealthy, syncIndexes } from "./app/utils/db.server";
import { backfillCatalogueKeys } from "./app/models/part-catalogue.server";
import { ensureDemoData } from "./app/utils/demo-data.server";
import { startMailWorker } from "./app/utils/mail-worker.server";
import { startStockJobs } from "./app/utils/stock-jobs.server";
import { migrateDb } from "./app/utils/migrate.server";
import { EnvError, getEnv, isGoogleConfigured, isStripeConfigured } from "./server/env";
import { startLocalDb, type LocalDb } from "./server/local-db";
import { mailInbox, startMailCatcher, type MailCatcher } from "./server/mail-catcher";
import { createLogger, requestLogger } from "./server/logger";
import { requestContext } from "./server/request-context";
import { bodyLimit, sameOriginWrites } from "./server/request-guards";
import { cspNonce, securityHeaders } from "./server/security-headers";
import { serverTiming } from "./server/timing";

if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(env.LOG_LEVEL);
const isDev = env.NODE_ENV === "development";
const buildDir = path.resolve(env.BUILD_DIR);
const buildPath = path.join(buildDir, "index.js");

// --- Database ---------------------------------------------------------------------------------
let localDb: LocalDb | undefined;
let mongoUri = env.MONGODB_URI;
if (!mongoUri) {
  const dataFile = path.resolve(env.DATA_DIR, "db", "shop.mv");
  localDb = await startLocalDb({ dataFile });
  mongoUri = localDb.uri;
  logger.info(`Local database (mongo-java-server) on ${mongoUri}, data in ${dataFile}`);
}
await connectDb(mongoUri);
await syncIndexes();
await migrateDb(); // versioned data migrations (scripts/migrations, migrate-mongo)
// Parts without their search keys (stored before a change of them) get them; nothing when none is.
const backfilled = await backfillCatalogueKeys();
if (backfilled.updated) logger.info(`Search keys written for ${backfilled.updated} parts`);
for (const number of backfilled.conflicts)
  logger.warn(`Part ${number} clashes with another's number as a key: renumber it`);
if (localDb) {
  // The local database is for development and demos: make sure it has the demo data.
  const logins = await ensureDemoData();
  console.log("Demo logins:");
  for (const login of logins) console.log(`  ${login.role.padEnd(8)} ${login.email} / ${login.password}`);
}

// --- Mail ---------------------------------------------------------------------------------------
// Without SMTP_URL the shop catches its own mail, as it runs its own database without MONGODB_URI.
// Production on a real database never gets here without SMTP_URL (server/env.ts refuses to start),
// so the caught mail (reset links included) is shown only in development or a local demo.
let mailCatcher: MailCatcher | undefined;
let smtpUrl = env.SMTP_URL;
if (!smtpUrl) {
  mailCatcher = await startMailCatcher();
  smtpUrl = mailCatcher.smtpUrl;
  logger.info(`SMTP_URL is unset: mail is caught locally, read it at ${env.PUBLIC_URL}/dev/mail`);
}
const mailWorker = await startMailWorker({ smtpUrl, from: env.MAIL_FROM, logger });
// Orders left half placed by a crash, holds running out, and the stock check (stock-jobs.server.ts).
await startStockJobs(mailWorker.agenda, logger);

// --- Remix build ------------------------------------------------------------------------------
async function importBuild(): Promise<ServerBuild> {
  const url = pathToFileURL(buildPath).href;
  return import(isDev ? `${url}?t=${Date.now()}` : url);
}
function remixHandler(build: ServerBuild) {
  return createRequestHandler({
    build,
    mode: env.NODE_ENV,
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce as string,
      clientIp: req.ip ?? "",
      requestId: String(req.id),
      logger: req.log,
    }),
  });
}
const firstBuild = await importBuild();
let handleRemix = remixHandler(firstBuild);
if (isDev) {
  // `remix dev --manual` rebuilds; load the new build and tell the dev server it is live.
  broadcastDevReady(firstBuild);
  let timer: NodeJS.Timeout | undefined;
  watch(buildDir, () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const next = await importBuild();
      handleRemix = remixHandler(next);
      broadcastDevReady(next);
    }, 100);
  });
}

// --- HTTP -------------------------------------------------------------------------------------
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY > 0 ? env.TRUST_PROXY : false);
app.use(serverTiming);
app.use(requestLogger(logger, { trustProxy: env.TRUST_PROXY > 0 }));
app.use(requestContext);
app.use(compression());
app.use(cspNonce);
app.use(
  securityHeaders({
    https: env.PUBLIC_URL.startsWith("https:"),
    dev: isDev,
    googleAuthorizationOrigin: isGoogleConfigured(env)
      ? new URL(env.GOOGLE_AUTHORIZATION_URL ?? "https://accounts.google.com/o/oauth2/v2/auth").origin
      : null,
  }),
);
app.use(sameOriginWrites({ publicOrigin: new URL(env.PUBLIC_URL).origin }));
app.use(bodyLimit({ limitBytes: env.BODY_LIMIT_BYTES }));

app.get("/healthz", async (_req, res) => {
  const healthy = await isDbHealthy();
  res.setHeader("Cache-Control", "no-store");
  // Which integrations have keys (booleans only, never a value).
  const integrations = { stripe: isStripeConfigured(env), google: isGoogleConfigured(env) };
  res.status(healthy ? 200 : 503).json({ status: healthy ? "ok" : "database unavailable", integrations });
});

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
const publicFiles = express.static("public", { maxAge: "1h", index: false });
app.use((req: Request, res: Response, next: NextFunction) =>
  path.extname(req.path) ? publicFiles(req, res, next) : next(),
);

// `npm run bench` only: saved copies of rendered pages, served by this same server as the ceiling
// that server-side rendering is measured against.
if (env.BENCH_STATIC_DIR) {
  app.use("/__static", express.static(path.resolve(env.BENCH_STATIC_DIR), { index: false }));
}

if (mailCatcher) app.use(mailInbox(mailCatcher));

app.all("*", (req, res, next) => handleRemix(req, res, next));

// Errors outside Remix (a static file that cannot be read, a middleware that threw): logged with
// their stack here, a plain page with the request id for the visitor.
app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
  req.log.error({ err: error }, "request failed");
  if (res.headersSent) return res.end();
  res.status(500).type("text/plain").send(`Something went wrong on our side. Reference: ${req.id}`);
});

const server = app.listen(env.PORT, () => {
  logger.info(`Shop ready on http://localhost:${env.PORT}`);
});
// Idle keep-alive connections outlive those of clients and load balancers (60 s is common), so a
// client never sends a request on a socket the server is closing at that moment (ECONNRESET).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// --- Graceful shutdown --------------------------------------------------------------------------
let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info(`${signal}: finishing requests and closing`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
    await mailWorker.stop().catch(() => {});
    await mailCatcher?.stop();
    await disconnectDb().catch(() => {});
    await localDb?.stop();
    process.exit(0);
  });
  server.closeIdleConnections();
}
// A promise that rejects with nobody awaiting it (seen: the driver's server-selection timeout
// while the database was overloaded by the benchmark) is logged; it must not take down every
// request in flight with it.
process.on("unhandledRejection", (reason) => {
  logger.error({ err: reason }, "unhandled rejection");
});
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
