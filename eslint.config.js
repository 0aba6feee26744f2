import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      ".cache/",
      ".data/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench-results/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { react, "react-hooks": reactHooks },
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    settings: { react: { version: "detect" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      "react/prop-types": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Imports point down a layer, never up (README "Layout"). Each zone: files in `target` may not
    // import from `from`. Paths are resolved (the `~` alias too), so a relative import cannot slip by.
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver()] },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./server",
              from: "./app",
              message: "server/ is the shop's infrastructure: it never imports the app (shared code goes in shared/).",
            },
            {
              target: "./shared",
              from: ["./app", "./server"],
              message: "shared/ holds plain modules that everything may import: they import neither app/ nor server/.",
            },
            {
              // Side effects belong to the service that made a change (utils/order-events.server.ts).
              target: "./app/models",
              from: [
                "./app/utils/order-mail.server.ts",
                "./app/utils/order-events.server.ts",
                "./app/utils/webhooks.server.ts",
                "./app/utils/email.server.ts",
                "./app/utils/audit.server.ts",
                "./app/utils/jobs.server.ts",
              ],
              message:
                "Models never send mail, webhooks or audit entries: the service that made the change raises them.",
            },
            // Next, once the models no longer import helpers from utils/ (pure ones move beside the models or to shared/):
            // { target: "./app/models", from: ["./app/utils", "./app/routes", "./app/components"],
            //   message: "Models are the bottom floor: Mongoose and plain helpers only." },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.{js,cjs}"],
    languageOptions: { globals: globals.node },
  },
  {
    // Playwright fixtures: `use` is not React's hook, and `{}` is how a fixture takes no deps.
    files: ["tests/e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
  },
);
