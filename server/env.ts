import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { DEFAULT_CHROMIUM_PATH } from "../shared/chromium";
import { unwritableBecause } from "../shared/writable-directory";

/** Empty strings (as copied from .env.example) count as unset. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  MONGODB_URI: optional(z.string().regex(/^mongodb(\+srv)?:\/\/.+/, "must start with mongodb:// or mongodb+srv://")),
  SESSION_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  PUBLIC_URL: optional(z.string().url("must be a URL such as https://shop.example.com")),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** The address the server listens on (unset: every interface; the demo sets 127.0.0.1). */
  HOST: optional(z.string().min(1)),
  STRIPE_SECRET_KEY: optional(z.string().startsWith("sk_", "must start with sk_")),
  STRIPE_PUBLISHABLE_KEY: optional(z.string().startsWith("pk_", "must start with pk_")),
  STRIPE_WEBHOOK_SECRET: optional(z.string().startsWith("whsec_", "must start with whsec_")),
  /** Points the Stripe library at another API host (stripe-mock in tests). */
  STRIPE_API_URL: optional(z.string().url()),
  GOOGLE_CLIENT_ID: optional(z.string().min(1)),
  GOOGLE_CLIENT_SECRET: optional(z.string().min(1)),
  /** Point Google sign-in at another OAuth2 server (a local one in tests). */
  GOOGLE_AUTHORIZATION_URL: optional(z.string().url()),
  GOOGLE_TOKEN_URL: optional(z.string().url()),
  GOOGLE_USERINFO_URL: optional(z.string().url()),
  /**
   * Sign-in throttling (app/services/rate-limit.server.ts; README "Configuration"). Failures are
   * counted, never successes: failed sign-ins in a row for one email from one address before that
   * pair waits LOGIN_BLOCK_MINUTES; failed sign-ins from one address in a day, all emails together;
   * sign-ups from one address in an hour.
   */
  LOGIN_FAILS_PER_EMAIL_AND_IP: z.coerce.number().int().min(1).max(1000).default(10),
  LOGIN_BLOCK_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  LOGIN_FAILS_PER_IP_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(100),
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(50),
  /**
   * Text searches (/parts?q=, GET /api/v1/parts?q=; app/services/search-guard.server.ts): how many a
   * minute one client address, or one API key, may run (an office behind one address searches
   * together: generous); and how long the same search's answer is kept and served again, in seconds
   * (0: not kept). An answer served again is not counted.
   */
  SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  SEARCH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** The API (app/services/api.server.ts): calls per key per minute, and how long an Idempotency-Key's answer is kept. */
  API_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(300),
  API_IDEMPOTENCY_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
  /**
   * Sessions (ASVS 3.3.2): a session ends after this many minutes without a request, and at the
   * latest this many hours after sign-in; admins' sooner (app/services/session-cookie.server.ts sessionLimits).
   */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 60)
    .default(30),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(12),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 60)
    .default(15),
  ADMIN_SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(8),
  /** How long audit entries are kept, in days (a TTL index deletes them after). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /**
   * Mail (app/services/mail-worker.server.ts): the SMTP server to send through, e.g.
   * smtp://user:pass@smtp.example.com:587 or smtps://…:465. Required in production with MONGODB_URI;
   * unset elsewhere, the shop starts a local mail catcher and shows what it caught at /dev/mail.
   */
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\/.+/, "must start with smtp:// or smtps://")),
  /** The sender of the shop's mail. */
  MAIL_FROM: z.string().min(3).default("PartsWorks <no-reply@partsworks.test>"),
  /** How often agenda looks for due jobs (mail), in milliseconds; the test suite shortens it. */
  JOBS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * Stock (docs/behaviour.md, "Stock"). An order still taking its stock this many seconds after it
   * began was left by a crash: the stock sweep, every STOCK_SWEEP_SECONDS, completes it or gives its
   * stock back (so within a minute at the defaults).
   */
  STOCK_RESERVE_DEADLINE_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  STOCK_SWEEP_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  /** How long an order awaiting card payment holds its stock, and the reminder this many hours before the end. */
  ORDER_HOLD_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(72),
  /** How many days after a parcel ships its units may be returned. */
  RETURN_WINDOW_DAYS: z.coerce.number().int().min(1).max(730).default(30),
  ORDER_HOLD_REMINDER_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  /**
   * Caps per customer on orders awaiting card payment: how many, and their total in whole dollars;
   * lower while the customer's email is not verified. An admin can set a customer's own.
   */
  UNPAID_ORDERS_CAP: z.coerce.number().int().min(1).max(10_000).default(5),
  UNPAID_VALUE_CAP: z.coerce.number().int().min(1).max(100_000_000).default(50_000),
  UNVERIFIED_UNPAID_ORDERS_CAP: z.coerce.number().int().min(1).max(10_000).default(2),
  UNVERIFIED_UNPAID_VALUE_CAP: z.coerce.number().int().min(1).max(100_000_000).default(5_000),
  /** Where local data lives (the local database, the development session secret). */
  DATA_DIR: z.string().default(".data"),
  /** Where uploaded profile pictures are kept (a volume all instances share). Unset: DATA_DIR/avatars. */
  AVATAR_DIR: optional(z.string().min(1)),
  /** The Chromium that prints invoice and packing-slip PDFs (app/services/pdf.server.ts). */
  CHROME_PATH: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().startsWith("/", "must be an absolute path such as /usr/bin/chromium").default(DEFAULT_CHROMIUM_PATH),
  ),
  /** The Remix build the server runs (`npm run build` writes it; tests build into their own). */
  BUILD_DIR: z.string().min(1).default("build"),
  /**
   * The reverse proxies in front of the shop, in Express's `trust proxy` forms: `loopback`,
   * addresses and CIDR ranges, comma-separated. Only a request whose socket peer is one of them
   * has its client address taken from X-Forwarded-For (and its request id from X-Request-Id).
   * Unset or 0 trusts none; a count (older setups) still works, with a warning at start.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default("")
    .transform((value, ctx) => {
      if (value === "" || value === "0" || value === "false") return false as const;
      if (/^\d+$/.test(value)) {
        const hops = Number(value);
        if (hops > 10) ctx.addIssue({ code: "custom", message: "a count of proxies is at most 10" });
        return hops;
      }
      const entries = value.split(",").map((entry) => entry.trim());
      const wrong = entries.filter((entry) => !isProxyEntry(entry));
      if (wrong.length)
        ctx.addIssue({
          code: "custom",
          message: `not an address, a CIDR range or loopback/linklocal/uniquelocal: ${wrong.join(", ")}`,
        });
      return entries;
    }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Largest request body accepted, in bytes (larger ones get 413). */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * Stopping (server/shutdown.ts): the whole shutdown, from the signal to the exit, takes at most
   * SHUTDOWN_TIMEOUT_MS; SHUTDOWN_DELAY_MS is how long /healthz answers 503 while the server still
   * accepts and answers new connections (for a load balancer to take it out of rotation first).
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /**
   * The database (app/services/db.server.ts): how long a query waits for an unreachable database before
   * the page answers 503; how long the database may answer nothing at all, a heartbeat ping
   * included, before it counts as frozen (every page then answers 503 at once); the ceiling of one
   * operation and of a request's wait for a free connection (well above the slowest legitimate
   * query: a slow database under load is not an outage; 0: none); and how long the shop waits for
   * the database at start before giving up.
   */
  DB_TIMEOUT_MS: z.coerce.number().int().min(200).max(60_000).default(1000),
  DB_STALL_MS: z.coerce.number().int().min(200).max(60_000).default(800),
  DB_OPERATION_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  DB_STARTUP_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Jobs and mail (app/services/jobs.server.ts, mail-worker.server.ts): how often the job runner looks
   * for due jobs; how long one sending attempt may hold a message (agenda's lock and the outbox
   * claim: past it another process sends it); how often the sweep looks for mail left behind; how
   * many attempts a message gets before it is marked failed for an admin to send again.
   */
  MAIL_LOCK_MS: z.coerce.number().int().min(2000).max(3_600_000).default(60_000),
  MAIL_SWEEP_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Outbound webhooks (app/services/webhooks.server.ts): how many attempts a delivery gets (2 s, 4 s …
   * up to 10 minutes apart: 14 is about an hour) before it is marked failed; and whether
   * an endpoint may be plain http://127.0.0.1 (a receiver on this machine, for tests). Off by
   * default: endpoints are HTTPS on a public address.
   */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(14),
  WEBHOOKS_ALLOW_LOCAL_HTTP: z
    .enum(["0", "1", "false", "true", ""])
    .default("0")
    .transform((value) => value === "1" || value === "true"),
  /**
   * Lets Prometheus scrape /metrics from elsewhere with `Authorization: Bearer <METRICS_TOKEN>`
   * (server/metrics.ts); unset, /metrics answers only to this machine without a proxy.
   */
  METRICS_TOKEN: optional(z.string().min(32, "must be at least 32 characters")),
  /**
   * Traces (server/tracing.ts, docs/monitoring.md): the OTLP collector spans go to, e.g.
   * http://localhost:4318; unset, tracing is off and the SDK is not even loaded. The service's
   * name on them. server.ts reads both before this check, as it starts tracing before the build.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(
    z.string().refine(isHttpUrl, "must be an http:// or https:// address, such as http://localhost:4318"),
  ),
  OTEL_SERVICE_NAME: z.string().min(1).default("partsworks-shop"),
  /** `npm run bench` only: a folder of saved pages served at /__static (the static ceiling). */
  BENCH_STATIC_DIR: optional(z.string().min(1)),
});

function isHttpUrl(value: string) {
  return URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyEntry(entry: string) {
  if (PROXY_NAMES.has(entry)) return true;
  try {
    if (entry.includes("/")) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}

/** Every setting's name (tests check that no customer page shows one). */
export const ENV_NAMES = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string; PUBLIC_URL: string };

/** What a count of proxies means, for the warning at start (server.ts). */
export const TRUST_PROXY_COUNT_WARNING =
  "TRUST_PROXY is a count of proxies: any client that reaches the shop directly can choose its own address " +
  "with X-Forwarded-For. Set the proxies' addresses instead, e.g. TRUST_PROXY=loopback or TRUST_PROXY=10.0.0.0/8.";

/** A setting the shop cannot start with: its message is the one line server.ts prints before exiting. */
export class EnvError extends Error {
  override name = "EnvError";
}

/** Every wrong setting in one line: "Cannot start: invalid settings: PORT: …; LOG_LEVEL: …". */
const invalidSettings = (problems: string[]) => new EnvError(`Cannot start: invalid settings: ${problems.join("; ")}`);

function readEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw invalidSettings(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message.replace(/\s+/g, " ")}`),
    );
  }
  const env = parsed.data;
  // Production on a real database (MONGODB_URI set) needs its own secret and mail server; without
  // MONGODB_URI it is a local demo, with a generated secret and its own mail catcher.
  if (env.NODE_ENV === "production" && env.MONGODB_URI) {
    const missing = [
      env.SESSION_SECRET ? null : "SESSION_SECRET: required in production (at least 32 random characters)",
      env.SMTP_URL ? null : "SMTP_URL: required in production (the SMTP server mail goes through, smtp:// or smtps://)",
    ].filter((line) => line !== null);
    if (missing.length) throw invalidSettings(missing);
  }
  return {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? localSessionSecret(env.DATA_DIR),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
  };
}

/** Generated once and kept under .data/ so that sessions survive restarts in development. */
function localSessionSecret(dataDir: string) {
  const file = path.resolve(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("hex");
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, secret, { mode: 0o600 });
  } catch (error) {
    // A read-only or missing data directory: one line at start, not a stack.
    const code = unwritableBecause(path.dirname(file)) ?? (error as NodeJS.ErrnoException).code ?? "error";
    throw new EnvError(`Cannot start: the data directory ${path.resolve(dataDir)} cannot be written (${code})`);
  }
  return secret;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= readEnv(process.env);
  return cached;
}

export function isStripeConfigured(env = getEnv()) {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);
}

export function isGoogleConfigured(env = getEnv()) {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}

/** The only values that reach the browser. */
export function getPublicEnv() {
  const env = getEnv();
  return {
    // Named for what it is, not after the setting: no page a customer reads names a setting.
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null,
    // Whether checkout offers card payment (and makes it the default) or bank transfer only.
    cardPayments: Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY),
  };
}
export type PublicEnv = ReturnType<typeof getPublicEnv>;
