import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import { audit } from "./audit-trail.server";
import { getEnv } from "./env.server";
import { appLogger } from "../../server/request-context";

/**
 * Sign-in throttling with rate-limiter-flexible on the shop's MongoDB, after the login protection
 * that the library documents: failures are counted, never successes.
 *
 * - failed sign-ins in a row for one email from one address: the last allowed failure makes that
 *   email wait at that address; a successful sign-in starts the count again;
 * - failed sign-ins from one address in a day, all emails together (a password spray);
 * - sign-ups from one address in an hour.
 *
 * Each attempt takes its point before the password is checked and gives it back when the password
 * was right, so that parallel guesses cannot all slip past the check before any failure is counted.
 */

export type ThrottleSettings = {
  /** Failed sign-ins in a row for one email from one address before the pair must wait. */
  failsPerEmailAndIp: number;
  /** How long that email then waits at that address, in seconds. */
  blockSeconds: number;
  /** Failed sign-ins from one address in 24 hours, all emails together. */
  failsPerIpPerDay: number;
  /** Sign-up attempts from one address in an hour. */
  signupsPerIpPerHour: number;
};

/** Which limit refused an attempt. */
export type ThrottleLimit = "email-and-ip" | "ip-per-day" | "signups-per-ip";

export type Refusal = { limit: ThrottleLimit; retryAfterSeconds: number; message: string };

/** What a refused attempt was: passed to `throttled`, the one place where every refusal goes. */
export type ThrottleEvent = {
  action: "login" | "signup";
  limit: ThrottleLimit;
  /** The address as counted (an IPv6 address stands for its /64 network). */
  ip: string;
  /** The email the attempt named (sign-in only). */
  email?: string;
  retryAfterSeconds: number;
};

/**
 * Every refused sign-in or sign-up passes here, once per refused attempt (audit logging hooks in
 * here). The email is left out of the server log.
 */
export function throttled(event: ThrottleEvent) {
  appLogger().warn(
    `Throttled ${event.action} (${event.limit}) from ${event.ip}: try again in ${event.retryAfterSeconds} s`,
  );
  void audit({
    action: event.action === "login" ? "signin.throttled" : "signup.throttled",
    ip: event.ip,
    actor: event.email ? { email: event.email } : null,
    after: { limit: event.limit, retryAfterSeconds: event.retryAfterSeconds },
  });
}

export function settingsFromEnv(): ThrottleSettings {
  const env = getEnv();
  return {
    failsPerEmailAndIp: env.LOGIN_FAILS_PER_EMAIL_AND_IP,
    blockSeconds: env.LOGIN_BLOCK_MINUTES * 60,
    failsPerIpPerDay: env.LOGIN_FAILS_PER_IP_PER_DAY,
    signupsPerIpPerHour: env.SIGNUPS_PER_IP_PER_HOUR,
  };
}

/** All limits keep their counters in this one collection (TTL index on `expire`, unique `key`). */
export const THROTTLE_COLLECTION = "signin_throttle";

const DAY = 24 * 60 * 60;
/** How long failures in a row are remembered (the library's example: 90 days). */
const CONSECUTIVE_FAILS_KEPT = 90 * DAY;

/** A sign-in attempt that passed the throttle: report how it ended. */
export type LoginAttempt = {
  refused: null;
  /** The password was right: the failures in a row for this email at this address start again. */
  succeeded(): Promise<void>;
  /** The password was wrong: returns the refusal when this failure was the last one allowed. */
  failed(): Promise<Refusal | null>;
};

export class SignInThrottle {
  private readonly failsByEmailAndIp: RateLimiterMongo;
  private readonly failsByIp: RateLimiterMongo;
  private readonly signupsByIp: RateLimiterMongo;
  private ready: Promise<void> | undefined;

  constructor(
    readonly settings: ThrottleSettings,
    storeClient: mongoose.Connection = mongoose.connection,
  ) {
    // The indexes are created once, awaited, before the first count (see `whenReady`).
    const common = { storeClient, tableName: THROTTLE_COLLECTION, disableIndexesCreation: true };
    this.failsByEmailAndIp = new RateLimiterMongo({
      ...common,
      keyPrefix: "login_fails_email_ip",
      points: settings.failsPerEmailAndIp,
      duration: CONSECUTIVE_FAILS_KEPT,
      blockDuration: settings.blockSeconds,
    });
    this.failsByIp = new RateLimiterMongo({
      ...common,
      keyPrefix: "login_fails_ip_day",
      points: settings.failsPerIpPerDay,
      duration: DAY,
    });
    this.signupsByIp = new RateLimiterMongo({
      ...common,
      keyPrefix: "signups_ip_hour",
      points: settings.signupsPerIpPerHour,
      duration: 60 * 60,
    });
  }

  /**
   * The library creates its indexes in the background when a limiter is made. On a collection that
   * does not exist yet, mongo-java-server (the local database) fails a write that arrives while an
   * index is being created ("Unknown error: null"), so the first count waits for the indexes.
   */
  private whenReady() {
    this.ready ??= this.failsByEmailAndIp.createIndexes().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /**
   * Call before checking a password. Returns a refusal (answer 429, check nothing), or the attempt,
   * whose end must be reported with `succeeded()` or `failed()`.
   */
  async beginLogin({ ip, email }: { ip: string; email: string }): Promise<LoginAttempt | { refused: Refusal }> {
    await this.whenReady();
    const address = addressKey(ip);
    const pair = emailAndIpKey(email, address);
    const report = (result: Refusal) => {
      const { limit, retryAfterSeconds } = result;
      throttled({ action: "login", limit, ip: address, email: email.trim().toLowerCase(), retryAfterSeconds });
      return result;
    };

    const forPair = await take(this.failsByEmailAndIp, pair);
    if (forPair.refused) {
      // A guess sent alongside the one that starts the wait can read the counter before the wait is
      // written (its expiry is still the 90 days of the count): the wait is never longer than this.
      const msBeforeNext = Math.min(forPair.res.msBeforeNext, this.settings.blockSeconds * 1000);
      return { refused: report(refusal("email-and-ip", { msBeforeNext })) };
    }
    const forAddress = await take(this.failsByIp, address);
    if (forAddress.refused) {
      // The password is not checked, so this is no failure of this email.
      await this.failsByEmailAndIp.reward(pair, 1);
      return { refused: report(refusal("ip-per-day", forAddress.res)) };
    }

    return {
      refused: null,
      succeeded: async () => {
        await Promise.all([this.failsByEmailAndIp.delete(pair), this.failsByIp.reward(address, 1)]);
      },
      failed: async () => {
        if (forPair.res.remainingPoints === 0) {
          // The last failure allowed: the wait starts now rather than at the next attempt.
          await this.failsByEmailAndIp.block(pair, this.settings.blockSeconds);
          return report(refusal("email-and-ip", { msBeforeNext: this.settings.blockSeconds * 1000 }));
        }
        if (forAddress.res.remainingPoints === 0) return report(refusal("ip-per-day", forAddress.res));
        return null;
      },
    };
  }

  /** Counts a sign-up attempt from this address; returns the refusal once the hour's are used up. */
  async signupAttempt({ ip }: { ip: string }): Promise<Refusal | null> {
    await this.whenReady();
    const address = addressKey(ip);
    const { refused, res } = await take(this.signupsByIp, address);
    if (!refused) return null;
    const result = refusal("signups-per-ip", res);
    throttled({ action: "signup", limit: result.limit, ip: address, retryAfterSeconds: result.retryAfterSeconds });
    return result;
  }
}

/** One point from `limiter`; a refusal is the library rejecting with its RateLimiterRes. */
async function take(limiter: RateLimiterMongo, key: string) {
  try {
    return { refused: false as const, res: await limiter.consume(key, 1) };
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return { refused: true as const, res: rejected };
    throw rejected;
  }
}

function refusal(limit: ThrottleLimit, { msBeforeNext }: { msBeforeNext: number }): Refusal {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const when = inWords(retryAfterSeconds);
  const message = {
    "email-and-ip": `Too many failed sign-ins for this email from your network. Please try again in ${when}.`,
    "ip-per-day": `Too many failed sign-ins from your network today. Please try again in ${when}.`,
    "signups-per-ip": `Too many sign-ups from your network. Please try again in ${when}.`,
  }[limit];
  return { limit, retryAfterSeconds, message };
}

/** "15 minutes", "1 minute", "3 hours": rounded up, so that trying then always works. */
export function inWords(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/**
 * The address that limits count by: an IPv4 address (IPv4-mapped IPv6 included) as is, an IPv6
 * address as its /64 network, which one home or office usually gets whole.
 */
export function addressKey(ip: string) {
  if (!ipaddr.isValid(ip)) return ip || "unknown";
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const network = new ipaddr.IPv6([...(address as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${network.toString()}/64`;
}

/** Emails are not stored: the pair is kept as a hash. */
export function emailAndIpKey(email: string, address: string) {
  return createHash("sha256").update(`${email.trim().toLowerCase()}\n${address}`).digest("base64url");
}

let defaultThrottle: SignInThrottle | undefined;

/** The shop's throttle, with the settings of the environment (read once). */
export function signInThrottle() {
  defaultThrottle ??= new SignInThrottle(settingsFromEnv());
  return defaultThrottle;
}

/** The client's address as Express saw it (server.ts puts it in the load context; TRUST_PROXY). */
export function clientIp(context: { clientIp?: string } | undefined) {
  return context?.clientIp || "unknown";
}
