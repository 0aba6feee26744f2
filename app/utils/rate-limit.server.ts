import { createHash } from "node:crypto";
import { incrementCounter } from "~/models/rate-limit.server";
import { getEnv } from "./env.server";

export const AUTH_WINDOW_MS = 15 * 60 * 1000;

export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window rate limit kept in the database: counts one hit on every key and refuses when any
 * key has more than `limit` hits in the current window. Keys are hashed, so emails are not stored.
 */
export async function hitRateLimit(
  keys: string[],
  { limit, windowMs, now = Date.now() }: { limit: number; windowMs: number; now?: number },
): Promise<RateLimitResult> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const expiresAt = new Date(windowStart + windowMs);
  const counts = await Promise.all(
    keys.map((key) => incrementCounter(`${hashKey(key)}:${windowStart}`, expiresAt)),
  );
  if (counts.every((count) => count <= limit)) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000)) };
}

function hashKey(key: string) {
  return createHash("sha256").update(key).digest("base64url");
}

/** Sign-in and sign-up attempts allowed per IP and per email in 15 minutes (AUTH_RATE_LIMIT). */
export function authRateLimit() {
  // Read at call time, so a process can change it without restarting.
  const fromEnv = Number(process.env.AUTH_RATE_LIMIT);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : getEnv().AUTH_RATE_LIMIT;
}

export const TOO_MANY_ATTEMPTS =
  "Too many attempts from this address or for this email. Please wait 15 minutes and try again.";

/** Counts a sign-in or sign-up attempt against the client's IP and the email it names. */
export function hitAuthRateLimit(action: "login" | "signup", { ip, email }: { ip: string; email: string }) {
  return hitRateLimit([`${action}:ip:${ip}`, `${action}:email:${email.toLowerCase()}`], {
    limit: authRateLimit(),
    windowMs: AUTH_WINDOW_MS,
  });
}

/** The client's address as Express saw it (server.ts puts it in the load context). */
export function clientIp(context: { clientIp?: string } | undefined) {
  return context?.clientIp || "unknown";
}
