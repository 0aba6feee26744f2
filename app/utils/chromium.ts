/**
 * Debian's Chromium, as the shop (PDFs), the browser tests and Lighthouse launch it: the system
 * browser, never one downloaded by Playwright, with nothing that would reach the internet.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
