import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import { addressKey, emailAndIpKey, inWords, THROTTLE_COLLECTION } from "./rate-limit.server";

/**
 * Throttling of the forms that send mail to an address someone types (forgot password, resend
 * verification), on rate-limiter-flexible like sign-in: per address of the sender, per email asked
 * for from that address, and a larger ceiling per email from everywhere, so nobody floods an inbox
 * or tries the form in bulk, and nobody can use up an email's allowance to keep its owner's reset
 * mail from coming (the owner's own address has its own count). Unlike sign-in, every request
 * counts: each one sends a message.
 */
const HOUR = 60 * 60;
const PER_EMAIL_AND_IP_PER_HOUR = 5;
const PER_EMAIL_PER_HOUR = 30;
const PER_IP_PER_HOUR = 30;

let limiters:
  | { byEmailAndIp: RateLimiterMongo; byEmail: RateLimiterMongo; byIp: RateLimiterMongo; ready: Promise<void> }
  | undefined;

function getLimiters() {
  if (limiters) return limiters;
  const common = { storeClient: mongoose.connection, tableName: THROTTLE_COLLECTION, disableIndexesCreation: true };
  const byEmail = new RateLimiterMongo({
    ...common,
    keyPrefix: "mail_email_hour",
    points: PER_EMAIL_PER_HOUR,
    duration: HOUR,
  });
  const byIp = new RateLimiterMongo({ ...common, keyPrefix: "mail_ip_hour", points: PER_IP_PER_HOUR, duration: HOUR });
  const byEmailAndIp = new RateLimiterMongo({
    ...common,
    keyPrefix: "mail_email_ip_hour",
    points: PER_EMAIL_AND_IP_PER_HOUR,
    duration: HOUR,
  });
  // Indexes first, as in rate-limit.server.ts (the local database fails writes during index builds).
  const ready = byEmail.createIndexes().catch((error: unknown) => {
    limiters = undefined;
    throw error;
  });
  limiters = { byEmailAndIp, byEmail, byIp, ready };
  return limiters;
}

/** Counts one request to mail `email`; returns the refusal (answer 429) when over a limit. */
export async function mailRequestAttempt({
  ip,
  email,
  action,
}: {
  ip: string;
  email: string;
  action: "password-reset" | "verify-email" | "change-email";
}) {
  const { byEmailAndIp, byEmail, byIp, ready } = getLimiters();
  await ready;
  const address = addressKey(ip);
  for (const [limiter, key] of [
    [byIp, address],
    [byEmailAndIp, emailAndIpKey(email, address)],
    [byEmail, emailAndIpKey(email, "any")],
  ] as const) {
    try {
      await limiter.consume(key, 1);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      console.warn(`Throttled ${action} email request from ${address}: try again in ${retryAfterSeconds} s`);
      return {
        retryAfterSeconds,
        message: `Too many requests for emails from your network or to this address. Please try again in ${inWords(retryAfterSeconds)}.`,
      };
    }
  }
  return null;
}
