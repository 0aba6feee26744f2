import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../server/local-db";
import { stopProcess } from "../../scripts/bench/shop";
import type { Provider } from "./providers";

/** The stripe-mock release the tests are written against (scripts/ensure-deps.sh installs it). */
export const STRIPE_MOCK_MODULE = "github.com/stripe/stripe-mock@v0.203.0";
const binDir = path.resolve(".data", "bin");

function which(command: string) {
  const result = spawnSync("sh", ["-c", `command -v "${command}"`], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** .data/bin/stripe-mock, or one on PATH; installs it with Go when neither exists. */
function findStripeMock() {
  const local = path.join(binDir, "stripe-mock");
  if (existsSync(local)) return local;
  const onPath = which("stripe-mock");
  if (onPath) return onPath;
  const go = which("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
  if (!go) {
    throw new Error(
      "stripe-mock is missing and Go is not installed: run `bash scripts/ensure-deps.sh`, or install Go and run " +
        `\`GOBIN=${binDir} go install ${STRIPE_MOCK_MODULE}\``,
    );
  }
  const result = spawnSync(go, ["install", STRIPE_MOCK_MODULE], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, GOBIN: binDir },
  });
  if (result.status !== 0 || !existsSync(local)) throw new Error(`installing ${STRIPE_MOCK_MODULE} failed`);
  return local;
}

function waitForListening(child: ChildProcess) {
  return new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Listening for HTTP at address")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-mock exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Starts stripe-mock (Stripe's own API stand-in) on free local ports and returns STRIPE_* variables
 * pointing the shop and the tests at it. It listens for plain HTTP, which the Stripe library reaches
 * through STRIPE_API_URL; its HTTPS listener gets a free port too, so parallel runs never collide.
 */
export async function startStripeMock(): Promise<Provider> {
  const binary = findStripeMock();
  const httpPort = await freePort();
  const httpsPort = await freePort();
  const child = spawn(binary, ["-http-addr", `127.0.0.1:${httpPort}`, "-https-addr", `127.0.0.1:${httpsPort}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await waitForListening(child);
  child.stderr?.resume();
  const key = randomBytes(12).toString("hex");
  return {
    env: {
      STRIPE_SECRET_KEY: `sk_test_${key}`,
      STRIPE_PUBLISHABLE_KEY: `pk_test_${key}`,
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString("hex")}`,
      STRIPE_API_URL: `http://127.0.0.1:${httpPort}`,
    },
    stop: () => stopProcess(child, 5_000),
  };
}
