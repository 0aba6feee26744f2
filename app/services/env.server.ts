// The shop's screens and services read the environment validated by the server (server/env.ts).
import { getEnv } from "../../server/env";

export {
  getEnv,
  getPublicEnv,
  isGoogleConfigured,
  isStripeConfigured,
  type Env,
  type PublicEnv,
} from "../../server/env";

/** Cookies are Secure when production serves HTTPS (PUBLIC_URL says so). */
export function cookiesAreSecure() {
  const env = getEnv();
  return env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:");
}

/**
 * A site-wide cookie's name: `__Host-<base>` over HTTPS, so the browser keeps it only when it is
 * Secure, for Path=/ and without a Domain: no sibling subdomain or plain-HTTP page can set or
 * overwrite it (session fixation). `plain` is the name over HTTP (development, tests).
 */
export function siteCookieName(base: string, plain: string) {
  return cookiesAreSecure() ? `__Host-${base}` : plain;
}
