import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_CHROMIUM_PATH } from "../app/utils/chromium";

/** Empty strings (as copied from .env.example) count as unset. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  MONGODB_URI: optional(z.string().regex(/^mongodb(\+srv)?:\/\/.+/, "must start with mongodb:// or mongodb+srv://")),
  SESSION_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  PUBLIC_URL: optional(z.string().url("must be a URL such as https://shop.example.com")),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
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
   * Sign-in throttling (app/utils/rate-limit.server.ts; README "Configuration"). Failures are
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
  /** How long audit entries are kept, in days (a TTL index deletes them after). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /**
   * Mail (app/utils/mail-worker.server.ts): the SMTP server to send through, e.g.
   * smtp://user:pass@smtp.example.com:587 or smtps://…:465. Required in production with MONGODB_URI;
   * unset elsewhere, the shop starts a local mail catcher and shows what it caught at /dev/mail.
   */
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\/.+/, "must start with smtp:// or smtps://")),
  /** The sender of the shop's mail. */
  MAIL_FROM: z.string().min(3).default("PartsWorks <no-reply@partsworks.test>"),
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
  /** The Chromium that prints invoice and packing-slip PDFs (app/utils/pdf.server.ts). */
  CHROME_PATH: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().startsWith("/", "must be an absolute path such as /usr/bin/chromium").default(DEFAULT_CHROMIUM_PATH),
  ),
  /** The Remix build the server runs (`npm run build` writes it; tests build into their own). */
  BUILD_DIR: z.string().min(1).default("build"),
  /**
   * How many reverse proxies stand in front of the shop: with 1 or more, the client address comes
   * from X-Forwarded-For and the request id from X-Request-Id. 0 (the default) trusts neither.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Largest request body accepted, in bytes (larger ones get 413). */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /** `npm run bench` only: a folder of saved pages served at /__static (the static ceiling). */
  BENCH_STATIC_DIR: optional(z.string().min(1)),
});

/** Every setting's name (tests check that no customer page shows one). */
export const ENV_NAMES = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string; PUBLIC_URL: string };

export class EnvError extends Error {}

function readEnv(source: NodeJS.ProcessEnv): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new EnvError(`Invalid environment variables:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  // Production on a real database (MONGODB_URI set) needs its own secret and mail server; without
  // MONGODB_URI it is a local demo, with a generated secret and its own mail catcher.
  if (env.NODE_ENV === "production" && env.MONGODB_URI) {
    const missing = [
      env.SESSION_SECRET ? null : "  SESSION_SECRET: required in production (at least 32 random characters)",
      env.SMTP_URL
        ? null
        : "  SMTP_URL: required in production (the SMTP server mail goes through, smtp:// or smtps://)",
    ].filter((line) => line !== null);
    if (missing.length) throw new EnvError(`Invalid environment variables:\n${missing.join("\n")}`);
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
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
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
  };
}
export type PublicEnv = ReturnType<typeof getPublicEnv>;
