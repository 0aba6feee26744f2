/**
 * Starts what the test suites need and returns the environment they share: the local database
 * (throwaway data), stripe-mock and a local OAuth2 server, and a production build of the shop on a
 * free port with the demo data. Used by the harness (npm test).
 *
 * `shops` names one shop or more, all from the one build and the one database server, each with a
 * database, a mail catcher and a request log of its own, so the suites using them never see each
 * other's data, mail or requests (the whole run gives the shared Vitest files one and the browser
 * suite another, and runs them side by side).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startLocalDb, type LocalDb } from "../../server/local-db";
import { startShop } from "../../scripts/bench/shop";
import { startMailProvider } from "./mail";
import { startOAuthServer, startStripeMock } from "./providers";
import { tsxCommand } from "./tsx-command";

export type Services = {
  /** The environment of each shop, by the name it was asked for. */
  env: Record<string, Record<string, string>>;
  /** Seconds of CPU the database server and the shops have used so far. */
  cpuSeconds: () => { database: number; shops: number };
  stop: () => Promise<void>;
};

export async function startServices(work: string, { shops = ["shop"] }: { shops?: string[] } = {}): Promise<Services> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch((error) => console.error(error));
  };
  const pids: { db?: number; shops: (number | undefined)[] } = { shops: [] };
  try {
    // Inside the project, so that the build resolves node_modules; one per run, so runs can overlap.
    const buildDir = path.resolve(".cache", `test-build-${path.basename(work)}`);
    stops.push(async () => rmSync(buildDir, { recursive: true, force: true }));
    // The build (most of the start) runs while the database, the providers and the seeding start.
    const built = buildShop(buildDir);
    built.catch(() => {});

    // The suite's database is never killed, so it leaves storing to H2's own commit about once a second:
    // its answers are the same, on about a third less CPU. Durability is tested on servers of their own.
    const db = await startLocalDb({ dataFile: path.join(work, "db", "test.mv"), database: "shop-test", sync: "none" });
    stops.push(db.stop);
    pids.db = db.pid;

    // The shop runs at its default settings (sign-in throttling and the search limit included), except
    // for two intervals the mail tests wait on: it looks for due mail jobs every 200 ms instead of every
    // 2 s, and sweeps for mail left unwritten or without a job every 5 s instead of every minute.
    const commonEnv: Record<string, string> = { JOBS_POLL_MS: "200", MAIL_SWEEP_MS: "5000" };
    for (const start of [startStripeMock, startOAuthServer]) {
      const provider = await start();
      stops.push(provider.stop);
      Object.assign(commonEnv, provider.env);
    }

    const env: Services["env"] = {};
    await Promise.all(
      shops.map(async (name, index) => {
        const suffix = index === 0 ? "" : `-${name}`;
        const shopDb: LocalDb = { ...db, uri: db.uri.replace(/\/shop-test$/, `/shop-test${suffix}`) };
        // Each shop sends to a catcher of its own (a test may take its mail server down); the tests read it at MAIL_CATCHER_URL.
        const mail = await startMailProvider();
        stops.push(mail.stop);
        const extraEnv: Record<string, string> = {
          ...commonEnv,
          SESSION_SECRET: randomBytes(32).toString("hex"),
          SMTP_URL: mail.env.SMTP_URL,
          DATA_DIR: path.join(work, `data${suffix}`),
        };
        await seed({ NODE_ENV: "production", MONGODB_URI: shopDb.uri, ...extraEnv });
        await built;
        // The shop's request log (one JSON line per request), for the tests at SHOP_LOG (tests/setup/shop-log.ts).
        const log = path.join(work, `shop${suffix}.log`);
        const shop = await startShop({ work, db: shopDb, buildDir, extraEnv, logFile: log });
        stops.push(shop.stop);
        pids.shops.push(shop.pid);
        env[name] = {
          ...shop.env,
          SHOP_URL: shop.url,
          MAIL_CATCHER_URL: mail.env.MAIL_CATCHER_URL,
          SHOP_LOG: log,
          // Tests that call the catalogue in their own process change parts in the database directly and
          // search again at once: they keep no answers. The shop itself keeps them, as it does for users.
          SEARCH_CACHE_SECONDS: "0",
        };
      }),
    );
    const cpuSeconds = () => ({
      database: processCpuSeconds(pids.db),
      shops: pids.shops.reduce<number>((sum, pid) => sum + processCpuSeconds(pid), 0),
    });
    return { env, cpuSeconds, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** User and system CPU seconds of a running process (0 where /proc cannot tell). */
export function processCpuSeconds(pid: number | undefined, { children = false } = {}) {
  if (!pid) return 0;
  try {
    // The fields after the command's closing parenthesis; utime, stime, cutime, cstime are 14–17 of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    const ticks = fields.slice(11, children ? 15 : 13).reduce((sum, field) => sum + Number(field), 0);
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * Busy CPU seconds of the whole machine since boot (every core: user, nice, system, interrupts, steal).
 * The difference over a run counts what the runners' own figures miss, such as Chromium's renderers.
 */
export function machineBusySeconds() {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .map(Number);
    return (user + nice + system + irq + softirq + steal) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

function spawnAsync(command: string, args: string[], env: NodeJS.ProcessEnv, what: string) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], env });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${code})`))));
  });
}

function buildShop(buildDir: string) {
  return spawnAsync("npm", ["run", "build"], { ...process.env, BUILD_DIR: buildDir }, "npm run build");
}

function seed(env: Record<string, string>) {
  return spawnAsync(...tsxCommand("scripts/seed.ts"), { ...process.env, ...env }, "seeding the test database");
}
