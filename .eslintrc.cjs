/** @type {import('eslint').Linter.Config} */
module.exports = {
  root: true,
  parserOptions: { ecmaVersion: "latest", sourceType: "module", ecmaFeatures: { jsx: true } },
  env: { browser: true, commonjs: true, es6: true, node: true },
  ignorePatterns: ["!**/.server", "!**/.client", "build/", "public/build/", ".cache/", ".data/", "node_modules/"],
  extends: ["eslint:recommended"],
  overrides: [
    {
      files: ["**/*.{ts,tsx}"],
      plugins: ["react", "react-hooks", "@typescript-eslint"],
      parser: "@typescript-eslint/parser",
      settings: { react: { version: "detect" } },
      extends: [
        "plugin:react/recommended",
        "plugin:react/jsx-runtime",
        "plugin:react-hooks/recommended",
        "plugin:@typescript-eslint/recommended",
      ],
      rules: {
        "react/prop-types": "off",
        "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      },
    },
    {
      // Playwright fixtures: `use` is not React's hook, and `{}` is how a fixture takes no deps.
      files: ["tests/e2e/**/*.ts"],
      rules: { "react-hooks/rules-of-hooks": "off", "no-empty-pattern": "off" },
    },
  ],
};
