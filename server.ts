import { randomBytes } from "node:crypto";
import { existsSync, watch } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { connectDb, disconnectDb, isDbHealthy, syncIndexes } from "./app/utils/db.server";
import { ensureDemoData } from "./app/utils/demo-data.server";
import { migrateDb } from "./app/utils/migrate.server";
import { EnvError, getEnv, isGoogleConfigured } from "./server/env";
import { startLocalDb, type LocalDb } from "./server/local-db";
import { PageCache } from "./server/page-cache";
import { createPageHandler } from "./server/remix-express";
import { requestMemo } from "./server/request-memo";
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

const isDev = env.NODE_ENV === "development";
const buildDir = path.resolve(process.env.BUILD_DIR || "build");
const buildPath = path.join(buildDir, "index.js");

// --- Database ---------------------------------------------------------------------------------
let localDb: LocalDb | undefined;
let mongoUri = env.MONGODB_URI;
if (!mongoUri) {
  const dataFile = path.resolve(env.DATA_DIR, "db", "shop.mv");
  localDb = await startLocalDb({ dataFile });
  mongoUri = localDb.uri;
  console.log(`Local database (mongo-java-server) on ${mongoUri}, data in ${dataFile}`);
}
await connectDb(mongoUri);
await syncIndexes();
await migrateDb(); // versioned data migrations (scripts/migrations, migrate-mongo)
if (localDb) {
  // The local database is for development and demos: make sure it has the demo data.
  const logins = await ensureDemoData();
  console.log("Demo logins:");
  for (const login of logins) console.log(`  ${login.role.padEnd(8)} ${login.email} / ${login.password}`);
}

// --- Remix build ------------------------------------------------------------------------------
async function importBuild(): Promise<ServerBuild> {
  const url = pathToFileURL(buildPath).href;
  return import(isDev ? `${url}?t=${Date.now()}` : url);
}
function remixHandler(build: ServerBuild) {
  return createRequestHandler(build, env.NODE_ENV);
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
app.use(serverTiming);
app.use(requestMemo);
app.set("trust proxy", process.env.TRUST_PROXY === "1" ? 1 : false);
app.use(compression());

/**
 * The pay screen (app/routes/dashboard.payment.$id.tsx) is the only page that talks to Stripe: its
 * Payment Element needs Stripe.js, its frames (card fields, 3-D Secure) and API, and its no-JS form
 * goes on to Stripe Checkout. Client-side navigations to it become full page loads, so it always
 * gets this policy.
 */
const PAY_SCREEN = /^\/dashboard\/payment\/[^/]+\/?$/;
const STRIPE_CSP = {
  script: " https://js.stripe.com https://*.js.stripe.com",
  frame: " https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
  connect: " https://api.stripe.com",
  formAction: " https://checkout.stripe.com",
};
const NO_STRIPE_CSP = { script: "", frame: "", connect: "", formAction: "" };

/**
 * The Google button (login and sign-up, reachable by client-side navigation from any page) posts
 * to /auth/google, which redirects to Google's sign-in page; form-action covers that redirect.
 */
const GOOGLE_FORM_ACTION = isGoogleConfigured(env)
  ? ` ${new URL(env.GOOGLE_AUTHORIZATION_URL ?? "https://accounts.google.com/o/oauth2/v2/auth").origin}`
  : "";

/** Security headers. The CSP admits Stripe's script and frames on the pay screen only, and nothing else. */
app.use((req: Request, res: Response, next: NextFunction) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  const devSources = isDev ? " ws://localhost:* http://localhost:*" : "";
  const stripe = PAY_SCREEN.test(req.path) ? STRIPE_CSP : NO_STRIPE_CSP;
  res.setHeader(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'${stripe.script}${isDev ? " 'unsafe-inline'" : ""}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: https:",
      "font-src 'self'",
      `connect-src 'self'${stripe.connect}${devSources}`,
      `frame-src${stripe.frame} https://www.openstreetmap.org`,
      "frame-ancestors 'none'",
      `form-action 'self'${stripe.formAction}${GOOGLE_FORM_ACTION}`,
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; "),
  );
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (env.PUBLIC_URL.startsWith("https:")) {
    res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  next();
});

/**
 * Refuses state-changing requests from other origins (CSRF). Stripe's webhook is signed instead.
 * Browsers send Origin on every cross-site POST; a request without Origin or Sec-Fetch-Site
 * (a non-browser client) is let through to the route's own checks.
 */
app.use((req: Request, res: Response, next: NextFunction) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  if (req.path === "/webhooks/stripe") return next();
  const origin = req.get("origin");
  const site = req.get("sec-fetch-site");
  const host = req.get("host");
  const sameOrigin = origin
    ? origin !== "null" && (origin === new URL(env.PUBLIC_URL).origin || originHost(origin) === host)
    : site === undefined || site === "same-origin" || site === "none";
  if (!sameOrigin) {
    res.status(403).type("text/plain").send("Cross-origin requests are not allowed.");
    return;
  }
  next();
});

/** The host of an Origin header, or null when it is not a URL. */
function originHost(origin: string) {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

app.get("/healthz", async (_req, res) => {
  const healthy = await isDbHealthy();
  res.setHeader("Cache-Control", "no-store");
  res.status(healthy ? 200 : 503).json({ status: healthy ? "ok" : "database unavailable" });
});

// Fingerprinted build assets never change; everything else in public/ is cached briefly.
app.use(
  "/build",
  express.static(path.join(buildDir, "client", "build"), { immutable: true, maxAge: "1y", index: false }),
);
// Every file in public/ has an extension; pages never do, so they skip the file-system lookup.
const publicFiles = express.static("public", { maxAge: "1h", index: false });
app.use((req: Request, res: Response, next: NextFunction) =>
  path.extname(req.path) ? publicFiles(req, res, next) : next(),
);

// `npm run bench` only: saved copies of rendered pages, served by this same server as the ceiling
// that server-side rendering is measured against.
if (process.env.BENCH_STATIC_DIR) {
  app.use("/__static", express.static(path.resolve(process.env.BENCH_STATIC_DIR), { index: false }));
}

const pageCache = new PageCache({ maxSeconds: isDev ? 0 : env.PAGE_CACHE_SECONDS });
app.all("*", createPageHandler({ getHandler: () => handleRemix, cache: pageCache }));

const server = app.listen(env.PORT, () => {
  console.log(`Shop ready on http://localhost:${env.PORT}`);
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
  console.log(`${signal}: finishing requests and closing`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close(async () => {
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
  console.error("Unhandled rejection:", reason);
});
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
