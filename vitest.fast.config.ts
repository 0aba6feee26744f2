import path from "node:path";
import { defineConfig } from "vitest/config";

/** Tests of pure rules, parsing and formatting: no database, no shop, no browser. */
export const PURE_FILES = [
  "app/domain/**/*.test.ts",
  "app/format/**/*.test.ts",
  "app/forms/**/*.test.ts",
  "app/services/workflow.test.ts",
  "tests/integration/readme.test.ts",
  // The lint's floors and probes, the one-bundle check and the outage guard: no database either.
  "tests/integration/order-layers.test.ts",
  "tests/integration/one-bundle.test.ts",
  "tests/integration/db-outage.test.ts",
  "tests/integration/module-size.test.ts",
];

/** `npm run test:fast`: the pure tests alone, the loop to run on every save (the full suite runs them too). */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // ESLint loads its configuration and parsers once per file: its first probe takes a few seconds.
  test: { include: PURE_FILES, environment: "node", pool: "threads", testTimeout: 30_000 },
});
