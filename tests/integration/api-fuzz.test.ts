/**
 * schemathesis (PyPI, installed into .cache/ by scripts/api-fuzz.sh) fuzzes a shop from its own
 * /api/v1/openapi.json, once with a customer's key and once with a staff key: no 5xx, and every
 * answer (status, content type, headers, body) as the document says. Its summary is printed.
 * The shop is this test's own, on the file's database, with a rate limit the fuzzer stays under
 * (at the default most of its calls would be 429s, leaving the logic behind them untested).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { LocalDb } from "../../server/local-db";
import { startShop } from "../../scripts/bench/shop";
import { createApiKey } from "~/models/api-key.server";
import type { ApiScope } from "~/domain/api-scopes";
import { createPart, createUser } from "../setup/factories";

let shop: Awaited<ReturnType<typeof startShop>>;
const work = mkdtempSync(path.join(tmpdir(), "api-fuzz-"));

beforeAll(async () => {
  const db = { uri: process.env.MONGODB_URI!, port: 0, pid: 0, stop: async () => {} } satisfies LocalDb;
  shop = await startShop({
    work,
    db,
    buildDir: process.env.BUILD_DIR!,
    extraEnv: { API_CALLS_PER_MINUTE: "100000" },
  });
}, 120_000);

afterAll(async () => {
  await shop?.stop();
  rmSync(work, { recursive: true, force: true });
});

function fuzz(token: string, only: string[]) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("bash", ["scripts/api-fuzz.sh", ...only], {
      env: { ...process.env, API_FUZZ_URL: shop.url, API_FUZZ_KEY: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function keyFor(role: "customer" | "admin", scopes: ApiScope[]) {
  const user = await createUser({ role });
  return (await createApiKey({ ownerId: user.id, name: "Fuzzer", scopes })).token;
}

describe("schemathesis against the served OpenAPI document", () => {
  test.each([
    // Each key on the operations its scopes open (the other side's answer 403, as api.test.ts proves).
    ["a customer's key", "customer", ["read", "order"], ["--exclude-path-regex", "^/staff/"]],
    ["a staff key", "admin", ["stock", "orders", "payments"], ["--include-path-regex", "^/staff/"]],
  ] as const)(
    "with %s: no 5xx and no answer that breaks the document",
    async (_label, role, scopes, only) => {
      await createPart({ minOrderQuantity: 1 });
      const { code, output } = await fuzz(await keyFor(role, [...scopes]), [...only]);
      // The run's failures and summary, in the test output.
      console.log(output);
      expect(output).not.toMatch(/Server error/i);
      expect(code).toBe(0);
    },
    600_000,
  );
});
