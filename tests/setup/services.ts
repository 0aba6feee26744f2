/**
 * Starts what the test suites need and returns the environment they share: the local database
 * (throwaway data), and a production build of the shop on a free port with the demo data.
 * Used by the harness (npm test) and the benchmark.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { freePort, startLocalDb } from "../../app/utils/local-db.server";
import { startOAuthServer, startStripeMock } from "./providers";

export type Services = { env: Record<string, string>; stop: () => Promise<void> };

export async function startServices(work: string, { build = true } = {}): Promise<Services> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error) => console.error(error));
  };
  try {
    const db = await startLocalDb({ dataFile: path.join(work, "db", "test.mv"), database: "shop-test" });
    stops.push(db.stop);

    const port = await freePort();
    // Inside the project, so that the build resolves node_modules; one per run, so runs can overlap.
    const buildDir = path.resolve(".cache", `test-build-${path.basename(work)}`);
    stops.push(async () => rmSync(buildDir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      NODE_ENV: "production",
      MONGODB_URI: db.uri,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      SHOP_URL: `http://localhost:${port}`,
      DATA_DIR: path.join(work, "data"),
      BUILD_DIR: buildDir,
      AUTH_RATE_LIMIT: "1000",
    };

    for (const start of [startStripeMock, startOAuthServer]) {
      const provider = await start();
      stops.push(provider.stop);
      Object.assign(env, provider.env);
    }

    if (build) {
      const result = spawnSync("npm", ["run", "build"], {
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, BUILD_DIR: buildDir },
      });
      if (result.status !== 0) throw new Error("npm run build failed");
    }

    await seed(env);
    const app = spawn("node", [path.join(buildDir, "server.js")], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stops.push(() => stopProcess(app));
    app.stdout?.on("data", () => {});
    app.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[shop] ${chunk}`));
    await waitForHealth(`${env.SHOP_URL}/healthz`, app);
    return { env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function seed(env: Record<string, string>) {
  const result = spawnSync("npx", ["tsx", "scripts/seed.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error("seeding the test database failed");
}

async function waitForHealth(url: string, app: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the shop exited with ${app.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the shop did not become healthy at ${url}`);
}

function stopProcess(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
