import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";

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
  if (compiled > mtime(path.join(source, "LocalMongo.java")) && compiled > mtime(path.join(source, "pom.xml"))) return;
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

export async function startLocalDb({
  dataFile,
  database = "shop",
  port: wantedPort,
  sync,
}: {
  dataFile: string;
  database?: string;
  /** A fixed port (a restart on the address the shop already uses); a free one otherwise. */
  port?: number;
  /** When an acknowledged write reaches the file (docs/database.md); without it, LOCAL_DB_SYNC or `commit`. */
  sync?: "commit" | "fsync" | "none";
}): Promise<LocalDb> {
  installLocalDb();
  const port = wantedPort ?? (await freePort());
  const child = spawn(
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
  await waitForReady(child);
  let stopped: Promise<void> | undefined;
  return {
    port,
    pid: child.pid ?? 0,
    uri: `mongodb://127.0.0.1:${port}/${database}`,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
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
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new LocalDbError(`the local database exited (${code}) before it was ready: ${lastLine(output)}`));
    });
  });
}

function lastLine(output: string) {
  return output.trim().split("\n").filter(Boolean).slice(-1)[0] ?? "no output";
}
