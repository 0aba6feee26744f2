import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { unwritableBecause } from "../shared/writable-directory";

/**
 * The local MongoDB-compatible database (mongo-java-server with its H2 file backend), used when no
 * MONGODB_URI is configured: in development, in the demo and in the tests. See README "Database".
 */
export type LocalDb = { uri: string; port: number; pid: number; stop: () => Promise<void> };

const root = process.cwd();
const home = path.join(root, ".data", "local-db");

/** A local database that could not be installed or started (the shop says so in one line). */
export class LocalDbError extends Error {}
export const isLocalDbError = (error: unknown) => error instanceof LocalDbError;

const mtime = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** Installs it, or compiles the launcher again when its source is newer than the compiled class. */
export function installLocalDb() {
  const source = path.join(root, "scripts", "local-db");
  const compiled = mtime(path.join(home, "classes", "LocalMongo.class"));
  const sources = readdirSync(source).filter((file) => file.endsWith(".java") || file === "pom.xml");
  if (sources.every((file) => compiled > mtime(path.join(source, file)))) return;
  const result = spawnSync("bash", [path.join(source, "install.sh")], {
    stdio: "inherit",
    env: { ...process.env, LOCAL_DB_HOME: home },
  });
  if (result.status !== 0)
    throw new LocalDbError("could not install the local database server (scripts/local-db/install.sh)");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("no port"));
      });
    });
  });
}

type LaunchOptions = {
  dataFile: string;
  database?: string;
  /** A fixed port (a restart on the address the shop already uses); a free one otherwise. */
  port?: number;
  /** When an acknowledged write reaches the file (docs/database.md); without it, LOCAL_DB_SYNC or `commit`. */
  sync?: "commit" | "fsync" | "none";
};

function launch(port: number, { dataFile, sync }: LaunchOptions) {
  return spawn(
    "java",
    [
      "-Xss4m",
      "-cp",
      `${path.join(home, "classes")}:${path.join(home, "lib", "*")}`,
      "LocalMongo",
      String(port),
      dataFile,
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: sync ? { ...process.env, LOCAL_DB_SYNC: sync } : process.env },
  );
}

function stopChild(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export async function startLocalDb({
  dataFile,
  database = "shop",
  port: wantedPort,
  sync,
}: LaunchOptions): Promise<LocalDb> {
  installLocalDb();
  const port = wantedPort ?? (await freePort());
  const child = launch(port, { dataFile, sync });
  await waitForReady(child);
  let stopped: Promise<void> | undefined;
  return {
    port,
    pid: child.pid ?? 0,
    uri: `mongodb://127.0.0.1:${port}/${database}`,
    stop() {
      stopped ??= stopChild(child);
      return stopped;
    },
  };
}

/**
 * Fails with one line when the data directory cannot be created or written (read-only, no
 * permission, no such parent): the shop then stops at once instead of failing on its first write.
 */
export function checkDataDirectory(directory: string) {
  const code = unwritableBecause(directory);
  if (code) throw new LocalDbError(`the data directory ${directory} cannot be written (${code})`);
}

/**
 * A port below Linux's ephemeral range: while the database is down, the driver's attempts to
 * connect to a closed port in that range can be given the port itself as their source (a TCP
 * self-connect), which then holds the port the database restarts on.
 */
export async function stablePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

type Logger = { warn: (msg: string) => void; info: (msg: string) => void };

/**
 * The shop's own local database, started again whenever it stops without being asked to (a crash,
 * a kill, a store that closed itself on an I/O error): on the same port and file, after 0.5 s, then
 * 1, 2, 4 … up to 10 s between attempts, one log line per attempt. The shop's connection finds it
 * again by itself (server/db-outage.ts).
 */
export async function startSupervisedLocalDb({
  logger,
  ...options
}: LaunchOptions & { logger: Logger }): Promise<LocalDb> {
  installLocalDb();
  const port = options.port ?? (await stablePort());
  let child = launch(port, options);
  await waitForReady(child);
  let stopping = false;
  let stopped: Promise<void> | undefined;

  const watch = (current: ChildProcess) => {
    let lastError = "";
    current.stderr?.on("data", (chunk: Buffer) => {
      lastError = lastLine(chunk.toString()) || lastError;
    });
    current.once("exit", (code, signal) => {
      if (stopping) return;
      void restart(`${signal ? `killed by ${signal}` : `exit ${code}`}${lastError ? `: ${lastError}` : ""}`);
    });
  };

  async function restart(why: string) {
    for (let attempt = 1; !stopping; attempt++) {
      const delay = Math.min(500 * 2 ** (attempt - 1), 10_000);
      logger.warn(`Local database stopped (${why}); starting it again in ${delay / 1000} s (attempt ${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stopping) return;
      const next = launch(port, options);
      try {
        await waitForReady(next);
      } catch (error) {
        why = error instanceof Error ? error.message : String(error);
        continue;
      }
      if (stopping) return void stopChild(next);
      child = next;
      watch(child);
      logger.info(`Local database running again (pid ${child.pid})`);
      return;
    }
  }

  watch(child);
  return {
    port,
    get pid() {
      return child.pid ?? 0;
    },
    uri: `mongodb://127.0.0.1:${port}/${options.database ?? "shop"}`,
    stop() {
      stopping = true;
      stopped ??= stopChild(child);
      return stopped;
    },
  };
}

function waitForReady(child: ChildProcess) {
  return new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new LocalDbError(`the local database did not start within 60 s: ${lastLine(output)}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("READY")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new LocalDbError(`the local database could not be started: ${error.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(new LocalDbError(`the local database ${how} before it was ready: ${lastLine(output)}`));
    });
  });
}

function lastLine(output: string) {
  return output.trim().split("\n").filter(Boolean).slice(-1)[0] ?? "no output";
}
