import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * The local MongoDB-compatible database (mongo-java-server with its H2 file backend), used when no
 * MONGODB_URI is configured: in development, in the demo and in the tests. See README "Database".
 */
export type LocalDb = { uri: string; port: number; pid: number; stop: () => Promise<void> };

const root = process.cwd();
const home = path.join(root, ".data", "local-db");

export function installLocalDb() {
  if (existsSync(path.join(home, "classes", "LocalMongo.class"))) return;
  const result = spawnSync("bash", [path.join(root, "scripts", "local-db", "install.sh")], {
    stdio: "inherit",
    env: { ...process.env, LOCAL_DB_HOME: home },
  });
  if (result.status !== 0) throw new Error("Could not install the local database server");
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
}: {
  dataFile: string;
  database?: string;
}): Promise<LocalDb> {
  installLocalDb();
  const port = await freePort();
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
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  await waitForReady(child);
  let stopped: Promise<void> | undefined;
  return {
    port,
    pid: child.pid ?? 0,
    uri: `mongodb://127.0.0.1:${port}/${database}`,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
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
      reject(new Error(`The local database did not start within 60 s:\n${output}`));
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
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The local database exited (${code}) before it was ready:\n${output}`));
    });
  });
}
