/**
 * Local stand-ins of the third-party providers, started by the harness next to the shop.
 * Each returns the environment that points the shop (and the tests) at it, and a stop function.
 */
export type Provider = { env: Record<string, string>; stop: () => Promise<void> };

/** Stripe: stripe-mock (see tests/setup/stripe-mock.ts). */
export { startStripeMock } from "./stripe-mock";
/** Google: a local OAuth2 server (see tests/setup/oauth-server.ts). */
export { startOAuthServer } from "./oauth-server";
