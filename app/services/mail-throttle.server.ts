import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import { addressKey, emailAndIpKey, inWords, THROTTLE_COLLECTION } from "./rate-limit.server";
import { appLogger } from "../../server/request-context";

/**
 * Throttling of the forms that send mail to an address someone types (forgot password, resend
 * verification, change of email, company invitations), on rate-limiter-flexible like sign-in: per address of the
 * sender and per email asked for from that address, so nobody tries the form in bulk. A ceiling
 * per email from everywhere refuses the signed-in forms only: on forgot password it would let
 * anyone with a few addresses refuse the owner's own request. Reset mail is capped where it is
 * sent instead (resetMailAllowed): per address mailed, counting mails, not requests answered.
 */
const HOUR = 60 * 60;
const DAY = 24 * HOUR;
const PER_EMAIL_AND_IP_PER_HOUR = 5;
const PER_EMAIL_PER_HOUR = 30;
const PER_IP_PER_HOUR = 30;
/** Reset links mailed to one address, whoever asks: a flood sends a few, and each works for an hour. */
export const RESET_MAILS_PER_HOUR = 3;
export const RESET_MAILS_PER_DAY = 10;
/**
 * Invitations one account sends (each a mail from the shop's domain to an address it types): a
 * team is set up in an afternoon; nobody relays through the form.
 */
export const INVITATIONS_PER_ACCOUNT_PER_HOUR = 10;
export const INVITATIONS_PER_ACCOUNT_PER_DAY = 30;

type Limiters = {
  byEmailAndIp: RateLimiterMongo;
  byEmail: RateLimiterMongo;
  byIp: RateLimiterMongo;
  resetMailsHour: RateLimiterMongo;
  resetMailsDay: RateLimiterMongo;
  invitesHour: RateLimiterMongo;
  invitesDay: RateLimiterMongo;
  ready: Promise<void>;
};
let limiters: Limiters | undefined;

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
  const resetMailsHour = new RateLimiterMongo({
    ...common,
    keyPrefix: "reset_mail_hour",
    points: RESET_MAILS_PER_HOUR,
    duration: HOUR,
  });
  const resetMailsDay = new RateLimiterMongo({
    ...common,
    keyPrefix: "reset_mail_day",
    points: RESET_MAILS_PER_DAY,
    duration: DAY,
  });
  const invitesHour = new RateLimiterMongo({
    ...common,
    keyPrefix: "invites_account_hour",
    points: INVITATIONS_PER_ACCOUNT_PER_HOUR,
    duration: HOUR,
  });
  const invitesDay = new RateLimiterMongo({
    ...common,
    keyPrefix: "invites_account_day",
    points: INVITATIONS_PER_ACCOUNT_PER_DAY,
    duration: DAY,
  });
  limiters = { byEmailAndIp, byEmail, byIp, resetMailsHour, resetMailsDay, invitesHour, invitesDay, ready };
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
  const checks: [RateLimiterMongo, string][] = [
    [byIp, address],
    [byEmailAndIp, emailAndIpKey(email, address)],
  ];
  if (action !== "password-reset") checks.push([byEmail, emailAndIpKey(email, "any")]);
  for (const [limiter, key] of checks) {
    try {
      await limiter.consume(key, 1);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      appLogger().warn(`Throttled ${action} email request from ${address}: try again in ${retryAfterSeconds} s`);
      return {
        retryAfterSeconds,
        message: `Too many requests for emails from your network or to this address. Please try again in ${inWords(retryAfterSeconds)}.`,
      };
    }
  }
  return null;
}

/**
 * Whether another reset link may be mailed to `email` now (one is counted when it may): at most
 * RESET_MAILS_PER_HOUR an hour and RESET_MAILS_PER_DAY a day. Over the cap the request was still
 * answered like any other; the links mailed within the hour still work, so the owner has one.
 */
export async function resetMailAllowed(email: string) {
  const { resetMailsHour, resetMailsDay, ready } = getLimiters();
  await ready;
  const key = emailAndIpKey(email, "reset-mail");
  const day = await resetMailsDay.get(key);
  if (day && day.consumedPoints >= RESET_MAILS_PER_DAY) return false;
  try {
    await resetMailsHour.consume(key, 1);
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return false;
    throw rejected;
  }
  try {
    await resetMailsDay.consume(key, 1);
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return false;
    throw rejected;
  }
  return true;
}

/**
 * Counts one invitation sent by this account; the refusal (answer 429) once it has sent its share
 * this hour or today. The day is checked before the hour takes a point, so a refusal costs nothing.
 */
export async function invitationAllowed(userId: string) {
  const { invitesHour, invitesDay, ready } = getLimiters();
  await ready;
  const refusal = (rejected: RateLimiterRes, period: string, limit: number) => {
    const retryAfterSeconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
    appLogger().warn(`Throttled invitations of account ${userId}: try again in ${retryAfterSeconds} s`);
    return {
      retryAfterSeconds,
      message: `You have sent ${limit} invitations ${period}, the most one account may send. Please try again in ${inWords(retryAfterSeconds)}.`,
    };
  };
  const day = await invitesDay.get(userId);
  if (day && day.consumedPoints >= INVITATIONS_PER_ACCOUNT_PER_DAY) {
    return refusal(day, "today", INVITATIONS_PER_ACCOUNT_PER_DAY);
  }
  try {
    await invitesHour.consume(userId, 1);
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return refusal(rejected, "this hour", INVITATIONS_PER_ACCOUNT_PER_HOUR);
    throw rejected;
  }
  try {
    await invitesDay.consume(userId, 1);
  } catch (rejected) {
    if (rejected instanceof RateLimiterRes) return refusal(rejected, "today", INVITATIONS_PER_ACCOUNT_PER_DAY);
    throw rejected;
  }
  return null;
}
