/**
 * Starts what the test suites need and returns the environment they share: the local database
 * (throwaway data), stripe-mock and a local OAuth2 server, and a production build of the shop on a
 * free port with the demo data. Used by the harness (npm test).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startLocalDb } from "../../server/local-db";
import { buildShop, startShop } from "../../scripts/bench/shop";
import { startMailProvider } from "./mail";
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

    // Inside the project, so that the build resolves node_modules; one per run, so runs can overlap.
    const buildDir = path.resolve(".cache", `test-build-${path.basename(work)}`);
    stops.push(async () => rmSync(buildDir, { recursive: true, force: true }));
    // The shop runs at its default settings (sign-in throttling included), except for two intervals
    // the mail tests wait on: it looks for due mail jobs every 200 ms instead of every 2 s, and sweeps
    // for mail left unwritten or without a job every 5 s instead of every minute.
    const extraEnv: Record<string, string> = {
      SESSION_SECRET: randomBytes(32).toString("hex"),
      JOBS_POLL_MS: "200",
      MAIL_SWEEP_MS: "5000",
    };
    for (const start of [startStripeMock, startOAuthServer]) {
      const provider = await start();
      stops.push(provider.stop);
      Object.assign(extraEnv, provider.env);
    }
    // The shop sends to the suite's mail catcher; the tests read it at MAIL_CATCHER_URL.
    const mail = await startMailProvider();
    stops.push(mail.stop);
    extraEnv.SMTP_URL = mail.env.SMTP_URL;

    if (build) buildShop(buildDir);
    seed({ NODE_ENV: "production", MONGODB_URI: db.uri, DATA_DIR: path.join(work, "data"), ...extraEnv });
    // The shop's request log (one JSON line per request), for the tests at SHOP_LOG (tests/setup/shop-log.ts).
    const log = path.join(work, "shop.log");
    appendFileSync(log, "");
    const shop = await startShop({ work, db, buildDir, extraEnv, onLog: (chunk) => appendFileSync(log, chunk) });
    stops.push(shop.stop);
    return {
      env: { ...shop.env, SHOP_URL: shop.url, MAIL_CATCHER_URL: mail.env.MAIL_CATCHER_URL, SHOP_LOG: log },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function seed(env: Record<string, string>) {
  const result = spawnSync("npx", ["tsx", "scripts/seed.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error("seeding the test database failed");
}
