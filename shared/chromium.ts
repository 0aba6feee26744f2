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

/** Playwright's own `--disable-features` list (playwright-core's chromiumSwitches), checked by tests/integration/chromium-args.test.ts. */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * The omnibox popups of new headless Chromium: two WebUI renderers in every window, that is in every
 * browser context, costing each about half a second of CPU and used by nothing we do.
 */
export const OMNIBOX_WEBUI_FEATURES = [
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
  "PreloadTopChromeWebUI",
];

/**
 * The switches for a Chromium launched by Playwright (PDFs, browser tests). Chromium keeps only the
 * last `--disable-features` it is given, so this one repeats Playwright's list before adding to it.
 */
export const PLAYWRIGHT_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES].join(",")}`,
];
