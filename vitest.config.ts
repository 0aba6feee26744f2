import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { PURE_FILES } from "./vitest.fast.config";

/**
 * Test files that run in parallel, each on a database of its own (tests/setup/vitest.setup.ts).
 * A file belongs here when the shop the harness runs never needs to see its data: it calls
 * loaders and actions in process, or starts its own shops and databases. A file not listed
 * runs on the shared database that shop uses, one file at a time, as every file once did.
 */
export const OWN_DATABASE_FILES = [
  "app/**/*.test.{ts,tsx}",
  "tests/integration/admin-home.test.ts",
  "tests/integration/admin.test.ts",
  "tests/integration/api-fuzz.test.ts",
  "tests/integration/backorders.test.ts",
  "tests/integration/backup-restore.test.ts",
  "tests/integration/search-limits.test.ts",
  "tests/integration/bounded-forms.test.ts",
  "tests/integration/email-layout.test.ts",
  "tests/integration/metrics.test.ts",
  "tests/integration/returns.test.ts",
  "tests/integration/checkout-queries.test.ts",
  "tests/integration/checkout-workflow.test.ts",
  "tests/integration/credit-notes.test.ts",
  "tests/integration/order-workflows.test.ts",
  "tests/integration/ledger.test.ts",
  "tests/integration/bench-queries.test.ts",
  "tests/integration/bench-smoke.test.ts",
  "tests/integration/bench-timing.test.ts",
  "tests/integration/cart.test.ts",
  "tests/integration/catalogue-plans.test.ts",
  "tests/integration/catalogue.test.ts",
  "tests/integration/chromium-args.test.ts",
  "tests/integration/companies.test.ts",
  "tests/integration/company-admin.test.ts",
  "tests/integration/company-members.test.ts",
  "tests/integration/database.test.ts",
  "tests/integration/demo-data.test.ts",
  "tests/integration/document-pages.test.ts",
  "tests/integration/e-invoices.test.ts",
  "tests/integration/exchange-rates.test.ts",
  "tests/integration/exposure.test.ts",
  "tests/integration/faults/database.test.ts",
  "tests/integration/faults/frozen-database.test.ts",
  "tests/integration/faults/invoice-number-kills.test.ts",
  "tests/integration/faults/ledger-kills.test.ts",
  "tests/integration/faults/local-db-crash.test.ts",
  "tests/integration/faults/local-db-heals.test.ts",
  "tests/integration/faults/probe-client.test.ts",
  "tests/integration/faults/mail.test.ts",
  "tests/integration/faults/one-line-logs.test.ts",
  "tests/integration/faults/shutdown.test.ts",
  "tests/integration/faults/starved-host.test.ts",
  "tests/integration/faults/webhooks.test.ts",
  "tests/integration/instances.test.ts",
  "tests/integration/invoice-dates.test.ts",
  "tests/integration/invoices.test.ts",
  "tests/integration/manage-orders.test.ts",
  "tests/integration/migrations-batched.test.ts",
  "tests/integration/order-lines.test.ts",
  "tests/integration/order-to-cash.test.ts",
  "tests/integration/order-person-search.test.ts",
  "tests/integration/ordering.test.ts",
  "tests/integration/payment-unconfigured.test.ts",
  "tests/integration/pricing-forms.test.ts",
  "tests/integration/pricing.test.ts",
  "tests/integration/quick-order.test.ts",
  "tests/integration/scripts.test.ts",
  "tests/integration/search-relevance.test.ts",
  "tests/integration/search-scale.test.ts",
  "tests/integration/setup-messages.test.ts",
  "tests/integration/sign-in-waiting-part.test.ts",
  "tests/integration/stock-crash.test.ts",
  "tests/integration/stock-holds.test.ts",
  "tests/integration/storefront.test.ts",
  "tests/integration/toast.test.ts",
  "tests/integration/trade-profile.test.ts",
  "tests/integration/tracing.test.ts",
  "tests/integration/webhooks.test.ts",
  "tests/integration/xrechnung.test.ts",
];

/**
 * The order that keeps both cores busy. Files that mostly compute start first, beside the shared
 * files (which mostly wait on the shop); files that mostly wait (shops and databases stopped, killed
 * and started again) go last, beside the browser suite, which keeps the cores busy by itself. Each
 * group runs longest first. Without this Vitest orders by the last run's timings, or by file size.
 */
// The new fault and backup tests start many shops: early, while the shared files run, not beside the timed fault tests.
const FIRST = [
  "bench-smoke",
  "api-fuzz",
  "order-mail",
  "faults/invoice-number-kills",
  "faults/ledger-kills",
  "backup-restore",
  "faults/one-line-logs",
  "faults/starved-host",
];
const LAST = [
  "stock-crash",
  "exposure",
  "faults/database",
  "faults/local-db-heals",
  "faults/frozen-database",
  "faults/mail",
  "faults/webhooks",
  "database",
  "instances",
  "faults/shutdown",
  "faults/local-db-crash",
  "faults/probe-client",
];

class BusyCoresFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const position = (names: string[], file: TestSpecification) =>
      names.findIndex((name) => file.moduleId.endsWith(`/${name}.test.ts`));
    const rank = (file: TestSpecification) => {
      const first = position(FIRST, file);
      const last = position(LAST, file);
      return first !== -1 ? first : last !== -1 ? FIRST.length + 1 + last : FIRST.length;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const ALL_FILES = ["app/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}"];

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // Each project names its own files (a list set here would be added to each project's).
    setupFiles: ["./tests/setup/vitest.setup.ts"],
    environment: "node",
    pool: "forks",
    // own-db files two at a time (two cores), beside the shared files one at a time (mostly waiting on the shop).
    // A fork is kept for many files (node_modules load once per fork); the setup file resets the shop's modules per file.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    sequence: { sequencer: BusyCoresFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        // Pure rules and parsing: no database, no setup file (also `npm run test:fast`).
        resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
        test: { name: "pure", include: PURE_FILES, environment: "node", pool: "threads", testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "own-db",
          include: OWN_DATABASE_FILES,
          exclude: PURE_FILES,
          env: { TEST_OWN_DATABASE: "1" },
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ALL_FILES,
          exclude: [...OWN_DATABASE_FILES, ...PURE_FILES],
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
