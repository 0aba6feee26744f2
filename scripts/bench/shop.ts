/**
 * The shop as the benchmarks and the test harness see it: a production build, started on a
 * throwaway local database (never .data/db), on a free port, optionally pinned to one CPU with
 * taskset. Production on a database named by MONGODB_URI needs SMTP_URL: the caller's (the test
 * harness gives its catcher), or a local mail catcher started with the shop.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePort, startLocalDb, type LocalDb } from "../../server/local-db";
import { startMailCatcher, type MailCatcher } from "../../server/mail-catcher";

export type Shop = {
  url: string;
  port: number;
  env: Record<string, string>;
  buildDir: string;
  db: LocalDb;
  /** The server's process id (taskset execs node, so it is node's). */
  pid: number | undefined;
  /** Moves the database server onto these CPUs (taskset syntax, e.g. "0"). */
  pinDb: (cpus: string) => void;
  alive: () => boolean;
  stop: () => Promise<void>;
};

export function hasTaskset() {
  return spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0;
}

/** `command args` pinned to `cpus` when taskset is there and cpus is set. */
export function pinned(cpus: string | undefined, command: string, args: string[]): [string, string[]] {
  return cpus && hasTaskset() ? ["taskset", ["-c", cpus, command, ...args]] : [command, args];
}

export function buildShop(buildDir: string) {
  const result = spawnSync("npm", ["run", "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, BUILD_DIR: buildDir },
  });
  if (result.status !== 0) throw new Error("npm run build failed");
}

export async function startDb(work: string) {
  mkdirSync(path.join(work, "db"), { recursive: true });
  return startLocalDb({ dataFile: path.join(work, "db", "bench.mv"), database: "shop-bench" });
}

/**
 * Starts the production server of `buildDir` on `db`. `staticDir` turns on the /__static route
 * (the static ceiling); `cpus` pins the server.
 */
export async function startShop({
  work,
  db,
  buildDir,
  staticDir,
  cpus,
  extraEnv = {},
  nodeArgs = [],
  onLog,
  logFile,
}: {
  work: string;
  db: LocalDb;
  buildDir: string;
  staticDir?: string;
  cpus?: string;
  extraEnv?: Record<string, string>;
  /** Extra arguments for node, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** Receives the server's standard output (its JSON request log). */
  onLog?: (chunk: string) => void;
  /** Appends the server's standard output to this file directly (no pipe through this process). */
  logFile?: string;
}): Promise<Shop> {
  if (!existsSync(path.join(buildDir, "server.js"))) throw new Error(`no build in ${buildDir}`);
  const port = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: "production",
    MONGODB_URI: db.uri,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: path.join(work, "data"),
    BUILD_DIR: buildDir,
    ...(staticDir ? { BENCH_STATIC_DIR: staticDir } : {}),
    ...extraEnv,
  };
  let catcher: MailCatcher | undefined;
  if (!env.SMTP_URL && !process.env.SMTP_URL) {
    catcher = await startMailCatcher();
    env.SMTP_URL = catcher.smtpUrl;
  }
  const [command, args] = pinned(cpus, "node", [...nodeArgs, path.join(buildDir, "server.js")]);
  const logFd = logFile ? openSync(logFile, "a") : undefined;
  const app = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", logFd ?? "pipe", "pipe"] });
  if (logFd !== undefined) closeSync(logFd);
  let output = "";
  app.stdout?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    onLog?.(chunk.toString());
  });
  const lastOutput = () => (logFile ? readFileSync(logFile, "utf8").slice(-4000) : output);
  let errors = "";
  let stopping = false;
  app.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
    process.stderr.write(`[shop] ${chunk}`);
  });
  app.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`[shop] exited unexpectedly (${signal ?? code})\n`);
  });
  const url = `http://localhost:${port}`;
  try {
    // A shop that never becomes healthy says why: its last output and errors.
    await waitForHealth(`${url}/healthz`, app, () => `${lastOutput()}\n${errors}`);
  } catch (error) {
    await stopProcess(app);
    await catcher?.stop();
    throw error;
  }
  return {
    url,
    port,
    env,
    buildDir,
    db,
    pid: app.pid,
    pinDb(cpus: string) {
      if (hasTaskset() && db.pid) spawnSync("taskset", ["-a", "-p", "-c", cpus, String(db.pid)], { stdio: "ignore" });
    },
    alive: () => app.exitCode === null && app.signalCode === null,
    stop: async () => {
      stopping = true;
      await stopProcess(app);
      await catcher?.stop();
    },
  };
}

async function waitForHealth(url: string, app: ChildProcess, errors: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the shop exited with ${app.exitCode}:\n${errors()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the shop did not become healthy at ${url}:\n${errors()}`);
}

/** SIGTERM, and SIGKILL if the process is still there after `graceMs`. */
export function stopProcess(child: ChildProcess, graceMs = 10_000) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
