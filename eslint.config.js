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
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver()],
      // The rules that read the imported modules (no-cycle) parse them as TypeScript.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/extensions": [".ts", ".tsx", ".js"],
    },
    rules: {
      // No module reaches itself through its imports: a circle has no floor to read it from.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
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
              // app/ reaches server/ only through the request context (and the settings it validated).
              target: "./app",
              from: "./server",
              except: ["./request-context.ts", "./env.ts"],
              message:
                "app/ reaches server/ only through server/request-context.ts (per-request state) and services/env.server.ts.",
            },
            {
              target: "./app/models",
              from: [
                "./app/services",
                "./app/routes",
                "./app/components",
                "./app/emails",
                "./app/browser",
                "./app/hooks",
              ],
              message:
                "Models are the bottom floor: Mongoose, other models and app/domain only. Side effects (mail, webhooks, audit) belong to the service that made the change.",
            },
            {
              target: "./app/models",
              from: "./server",
              except: ["./request-context.ts"],
              message: "Models read the shop's settings from models/settings.server.ts, never from server/env.ts.",
            },
            {
              // The order module (app/orders/): its model/ folder is the model floor, its services sit above.
              target: "./app/orders/model",
              from: [
                "./app/services",
                "./app/routes",
                "./app/components",
                "./app/emails",
                "./app/browser",
                "./app/hooks",
              ],
              message:
                "app/orders/model is the order's model floor: Mongoose, other models, app/domain and itself only. Side effects belong to the order services (app/orders/*.server.ts).",
            },
            {
              target: "./app/orders/model",
              from: "./app/orders",
              except: ["./model"],
              message:
                "app/orders/model is the order's model floor: it never imports the order services above it (app/orders/*.server.ts).",
            },
            {
              target: "./app/orders/model",
              from: "./server",
              except: ["./request-context.ts"],
              message: "Models read the shop's settings from models/settings.server.ts, never from server/env.ts.",
            },
            {
              target: "./app/models",
              from: "./app/orders",
              except: ["./model"],
              message:
                "Models may read the order's model floor (app/orders/model), never the order services that raise side effects.",
            },
            {
              target: "./app/orders",
              from: "./app/routes",
              message: "The order services are called by routes, never the other way round.",
            },
            {
              // The audit log is written by the service that makes a change (app/services/*.server.ts,
              // app/orders/*.server.ts), so every way to a change (screen, API, job) audits it alike.
              target: "./app/routes",
              from: "./app/services/audit-trail.server.ts",
              message:
                "Routes never write the audit log: call the service that makes the change (e.g. services/parts.server.ts, services/users.server.ts, orders/service.server.ts); it raises the audit entry.",
            },
            {
              // What the browser runs (components, mail templates, formatting, client-safe forms and
              // helpers): never a model, the order module or a *.server file, not even for a type.
              target: [
                "./app/components/**",
                "./app/emails/!(*.test).{ts,tsx}",
                "./app/format/**",
                "./app/browser/**",
                "./app/forms/**",
                "./app/hooks/**",
                "./app/routes/*/forms.ts",
                "./app/content/!(*.server).{ts,tsx}",
              ],
              from: ["./app/models/**", "./app/orders/**", "./app/**/*.server.{ts,tsx}", "./server/**"],
              message:
                "Components, mail templates and client-safe modules never import a model, the order module or a *.server file: take the data from a loader, and shared shapes from app/domain.",
            },
            {
              // Services (app/services, the order module, models) are called by routes and render
              // components only where they make a document (the PDF renderer says so where it does).
              target: ["./app/services/**", "./app/orders/**", "./app/models/**"],
              from: ["./app/routes/**"],
              message:
                "Services never import a route or a component: routes call services, and components take their data from loaders.",
            },
            {
              target: ["./app/services/**", "./app/models/**"],
              from: ["./app/components/**"],
              message:
                "Services never import a route or a component: routes call services, and components take their data from loaders.",
            },
            {
              // The document renderers (orders/documents.server.tsx, rma-document.server.tsx, quote-document.server.tsx) render the printed papers: those components.
              target: "./app/orders",
              from: "./app/components",
              except: ["./order-document.tsx", "./rma-document.tsx", "./quote-document.tsx"],
              message:
                "Services never import a route or a component: routes call services, and components take their data from loaders.",
            },
            {
              target: "./app/services",
              from: "./app/orders",
              message:
                "The order module sits above the services: it calls them (payments, mail, webhooks), never the other way round. Give the service what it needs as plain data, or let the module call it.",
            },
            {
              target: ["./app/services", "./app/orders", "./app/models", "./app/domain"],
              from: "./app/demo",
              message:
                "The demo data sits above the shop: it writes through the services and the order module, which never import it.",
            },
            // Allow-lists: each floor names what it may import from app/, so a new folder or a file at
            // app/'s root (root.tsx, runtime.server.ts, the entries) is outside every floor below it.
            {
              target: "./app/domain",
              from: "./app",
              except: ["./domain", "./content", "./format"],
              message: "app/domain imports only itself, app/content's data and app/format.",
            },
            {
              target: "./app/models",
              from: "./app",
              except: ["./models", "./domain", "./format", "./content", "./orders/model"],
              message:
                "Models import only other models, the order's model floor, app/domain, app/format and app/content.",
            },
            {
              target: "./app/orders/model",
              from: "./app",
              except: ["./orders/model", "./models", "./domain", "./format", "./content"],
              message:
                "The order's model floor imports only itself, other models, app/domain, app/format and app/content.",
            },
            {
              target: "./app/services",
              from: "./app",
              except: ["./services", "./models", "./domain", "./format", "./content", "./forms", "./emails"],
              message:
                "Services import only services, models, app/domain, app/format, app/content, form schemas and mail templates.",
            },
            {
              target: "./app/orders",
              from: "./app",
              except: [
                "./orders",
                "./services",
                "./models",
                "./domain",
                "./format",
                "./content",
                "./forms",
                "./emails",
                "./components/order-document.tsx",
                "./components/rma-document.tsx",
                "./components/quote-document.tsx",
              ],
              message:
                "The order module imports only itself, services, models, app/domain, app/format, app/content, form schemas, mail templates and the order document it renders.",
            },
            {
              target: "./app/domain",
              from: [
                "./app/models",
                "./app/services",
                "./app/forms",
                "./app/hooks",
                "./app/orders",
                "./app/routes",
                "./app/components",
                "./app/emails",
                "./app/browser",
                "./app/content/content.server.ts",
                "./server",
              ],
              message:
                "app/domain is plain code (no Mongoose, no I/O): it imports only itself, zod and app/content's data.",
            },
          ],
        },
      ],
    },
  },
  {
    // Money, quantities and dates read one way: app/format is the one place that formats them.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/format/**", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["toLocaleString", "toLocaleDateString", "toLocaleTimeString"].map((property) => ({
          property,
          message: "Format with app/format (formatQuantity, formatCents, formatDate, …): one form everywhere.",
        })),
        ...["DateTimeFormat", "NumberFormat"].map((property) => ({
          object: "Intl",
          property,
          message: "Format with app/format (formatQuantity, formatCents, formatDate, …): one form everywhere.",
        })),
      ],
    },
  },
  {
    // app/domain holds plain code that models and services share: no database, no Node I/O.
    files: ["app/domain/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { paths: ["mongoose"], patterns: ["node:*"] }] },
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
