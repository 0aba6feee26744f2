/**
 * (shared/: plain modules that the shop, its server and the tools may all import; they import none of them.)
 *
 * Debian's Chromium, as the shop (PDFs), the browser tests and Lighthouse launch it: the system
 * browser, never one downloaded by Playwright, with nothing that would reach the internet.
 * The shop reads `CHROME_PATH` through its env schema (server/env.ts), whose default this is.
 */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/** The browser of the tools outside the server (browser tests, Lighthouse), which have no env schema. */
export function toolChromiumPath(env: NodeJS.ProcessEnv) {
  return env.CHROME_PATH || DEFAULT_CHROMIUM_PATH;
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
