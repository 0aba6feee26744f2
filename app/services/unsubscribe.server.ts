import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "./env.server";
import { shopUrl } from "./email.server";

// A signed token instead of a stored one: the link must keep working without signing in, for as
// long as old emails exist, and it only ever turns mail off. An HMAC of the user id does that.
const PURPOSE = "unsubscribe:order-updates:";

function signature(userId: string) {
  return createHmac("sha256", getEnv().SESSION_SECRET)
    .update(PURPOSE + userId)
    .digest("base64url");
}

export function unsubscribeToken(userId: string) {
  return `${userId}.${signature(userId)}`;
}

/** The link in every non-essential email. */
export function unsubscribeUrl(userId: string) {
  return shopUrl(`/unsubscribe?token=${unsubscribeToken(userId)}`);
}

/** The user id the token was made for, or null when it is not one of ours. */
export function readUnsubscribeToken(token: string) {
  const match = /^([a-f0-9]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, userId, given] = match;
  const expected = Buffer.from(signature(userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? userId : null;
}
