import { defineConfig, devices } from "@playwright/test";
import { PLAYWRIGHT_CHROMIUM_ARGS, toolChromiumPath } from "./shared/chromium";

/** Run through `npm test e2e`, which starts the database and the shop and sets SHOP_URL. */
const baseURL = process.env.SHOP_URL ?? "http://localhost:3000";

export default defineConfig({
  testDir: "./tests/e2e",
  outputDir: process.env.PLAYWRIGHT_OUTPUT_DIR ?? "test-results",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: {
    timeout: 7_000,
    // Visual regression (tests/e2e/screenshots.spec.ts): a little anti-aliasing noise passes.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: "disabled", caret: "hide" },
  },
  // One baseline per screen, whatever the machine: no platform or project in the path.
  snapshotPathTemplate: "{testDir}/__screenshots__/{testFilePath}/{arg}{ext}",
  // Baselines are written only on request (--update-snapshots) or, locally, when missing; on CI a
  // missing baseline fails the test instead of being created.
  updateSnapshots: process.env.CI ? "none" : "missing",
  reporter: [["list"]],
  use: {
    baseURL,
    // Recording a trace costs the browser side about a quarter of its CPU in every test, so a test is
    // traced only when it runs again after failing (on CI); a failure keeps a screenshot and the page's
    // outline (error-context.md). Locally: rerun the failing test with --trace on.
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: toolChromiumPath(process.env),
      args: PLAYWRIGHT_CHROMIUM_ARGS,
    },
  },
  projects: [
    // A test tagged @js-on or @js-off runs in that project only (its file says why).
    { name: "js-on", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true }, grepInvert: /@js-off\b/ },
    { name: "js-off", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false }, grepInvert: /@js-on\b/ },
  ],
});
