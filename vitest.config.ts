import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

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
  "tests/integration/bench-queries.test.ts",
  "tests/integration/bench-smoke.test.ts",
  "tests/integration/bench-timing.test.ts",
  "tests/integration/cart.test.ts",
  "tests/integration/catalogue-plans.test.ts",
  "tests/integration/catalogue.test.ts",
  "tests/integration/chromium-args.test.ts",
  "tests/integration/database.test.ts",
  "tests/integration/demo-data.test.ts",
  "tests/integration/exposure.test.ts",
  "tests/integration/faults/database.test.ts",
  "tests/integration/faults/local-db-crash.test.ts",
  "tests/integration/faults/mail.test.ts",
  "tests/integration/faults/shutdown.test.ts",
  "tests/integration/instances.test.ts",
  "tests/integration/invoices.test.ts",
  "tests/integration/manage-orders.test.ts",
  "tests/integration/migrations-batched.test.ts",
  "tests/integration/order-lines.test.ts",
  "tests/integration/order-to-cash.test.ts",
  "tests/integration/pricing.test.ts",
  "tests/integration/pricing-forms.test.ts",
  "tests/integration/ordering.test.ts",
  "tests/integration/payment-unconfigured.test.ts",
  "tests/integration/quick-order.test.ts",
  "tests/integration/scripts.test.ts",
  "tests/integration/setup-messages.test.ts",
  "tests/integration/sign-in-waiting-part.test.ts",
  "tests/integration/stock-crash.test.ts",
  "tests/integration/stock-holds.test.ts",
  "tests/integration/storefront.test.ts",
  "tests/integration/toast.test.ts",
  "tests/integration/trade-profile.test.ts",
  "tests/integration/webhooks.test.ts",
];

/**
 * The longest files start first, so none is left running alone at the end. Vitest orders by the
 * last run's timings when it has them; a fresh clone has none, and would start with the largest files.
 */
const LONGEST_FIRST = [
  "bench-smoke",
  "api-fuzz",
  "faults/database",
  "order-mail",
  "faults/mail",
  "database",
  "instances",
  "exposure",
  "stock-crash",
  "faults/shutdown",
].map((name) => `/${name}.test.ts`);

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((suffix) => file.moduleId.endsWith(suffix));
      return index === -1 ? LONGEST_FIRST.length : index;
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
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "own-db", include: OWN_DATABASE_FILES, env: { TEST_OWN_DATABASE: "1" } },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ALL_FILES,
          exclude: OWN_DATABASE_FILES,
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
