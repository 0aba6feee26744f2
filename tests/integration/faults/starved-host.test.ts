/**
 * Fault test: a starved host is not a frozen database. A process that is not run for longer than
 * the stall deadline (DB_STALL_MS, 0.8 s) sends its ping late and reads its answers late, and its
 * heartbeat must not call that a database that stopped answering: the ping's deadline runs from
 * its going out, and its answer is read before the deadline is judged (probeDb,
 * app/services/db.server.ts). A database that really stops answering (SIGSTOP of its pid) is still
 * found within the time tests/integration/faults/frozen-database.test.ts allows. Every process
 * signalled here is one this file started, by its pid; all traffic goes to 127.0.0.1.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectDb, disconnectDb, isDbUnavailableError, lastDbAnswerAt, probeDb } from "~/services/db.server";
import { hasTaskset } from "../../../scripts/bench/shop";
import { dbOutageGuard } from "../../../server/db-outage";
import { startLocalDb, stablePort, type LocalDb } from "../../../server/local-db";
import { killShop, sleep, spawnShop, waitHealthy, type ShopProcess } from "./fault-helpers";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-starved-"));
const STALL_MS = 800;
let db: LocalDb;
let shop: ShopProcess | undefined;
let usingTestDb = false;
const busy: ChildProcess[] = [];

beforeAll(async () => {
  db = await startLocalDb({ dataFile: path.join(work, "db.mv"), database: "shop-starved", port: await stablePort() });
}, 60_000);

afterAll(async () => {
  for (const child of busy) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (shop?.child.exitCode === null) process.kill(shop.child.pid!, "SIGCONT");
  await killShop(shop);
  if (db) {
    process.kill(db.pid, "SIGCONT");
    if (usingTestDb) {
      await disconnectDb();
      await connectDb(process.env.MONGODB_URI!);
    }
    await db.stop();
  }
  rmSync(work, { recursive: true, force: true });
});

function busyWait(ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}

/** Every thread of `pid` on the CPUs listed (taskset's list: "0", "0-1"). */
async function pin(pid: number, list: string) {
  const taskset = spawn("taskset", ["-a", "-p", "-c", list, String(pid)], { stdio: "ignore" });
  await new Promise((resolve) => taskset.once("exit", resolve));
}

async function timedGet(url: string) {
  const started = Date.now();
  const response = await fetch(url, { headers: { Accept: "text/html" }, signal: AbortSignal.timeout(60_000) });
  await response.text();
  return { path: new URL(url).pathname, status: response.status, ms: Date.now() - started };
}

describe("a process that is not run for longer than the stall deadline", () => {
  test("is not a frozen database; a frozen one is still found within 2 s", async () => {
    await disconnectDb();
    usingTestDb = true;
    await connectDb(db.uri, { stallMs: STALL_MS });
    const lines: string[] = [];
    let probes = 0;
    let stalls = 0;
    const outage = dbOutageGuard({
      isUnavailable: isDbUnavailableError,
      // Three times, the process is not run for 1.2 s just as a probe starts: what a stop or a
      // starved CPU does at an unlucky moment, put exactly there. Its ping goes out 1.2 s late.
      probe: () => {
        const answer = probeDb();
        if (probes++ % 5 === 2 && stalls < 3) {
          stalls++;
          busyWait(1200);
        }
        return answer;
      },
      lastAnswerAt: lastDbAnswerAt,
      stallMs: STALL_MS,
      logger: { warn: (line) => lines.push(line), info: (line) => lines.push(line) },
    });
    outage.start();
    try {
      await expect.poll(() => stalls, { timeout: 20_000, interval: 100 }).toBe(3);
      await sleep(2 * STALL_MS);
      expect(lines).toEqual([]);
      expect(outage.down).toBe(false);

      // The control: the database itself stops answering.
      process.kill(db.pid, "SIGSTOP");
      const frozenAt = Date.now();
      await expect.poll(() => outage.down, { timeout: 5000, interval: 10 }).toBe(true);
      const foundAfter = Date.now() - frozenAt;
      process.kill(db.pid, "SIGCONT");
      console.log(`starved host, in process: ${probes} probes, frozen database found after ${foundAfter} ms`);
      expect(foundAfter).toBeLessThan(2000);
      await expect.poll(() => outage.down, { timeout: 10_000, interval: 50 }).toBe(false);
    } finally {
      outage.stop();
      process.kill(db.pid, "SIGCONT");
    }
  }, 60_000);
});

describe("a shop starved of CPU and stopped now and then, with the database answering", () => {
  test("no 503 and no outage in the log; a frozen database still answers 503 within 2 s", async () => {
    const STARVE_MS = 12_000;
    shop = await spawnShop(db.uri, { LOG_LEVEL: "info", DB_STALL_MS: String(STALL_MS) });
    await waitHealthy(shop);
    const pages = ["/", "/parts", "/blogs", "/login"];
    for (const page of pages) expect((await timedGet(`${shop.url}${page}`)).status, page).toBe(200);

    // Four busy loops share the shop's CPU (it gets about a fifth of it); without taskset or a
    // second CPU they take every CPU. The database is left where the system puts it.
    const cpu = hasTaskset() && cpus().length > 1 ? "0" : undefined;
    if (cpu) await pin(shop.child.pid!, cpu);
    const loop = `const end = Date.now() + ${STARVE_MS}; while (Date.now() < end);`;
    const loops = Array.from({ length: cpu ? 4 : 4 * cpus().length }, () => {
      const child = cpu
        ? spawn("taskset", ["-c", cpu, "node", "-e", loop], { stdio: "ignore" })
        : spawn("node", ["-e", loop], { stdio: "ignore" });
      busy.push(child);
      return new Promise<void>((resolve) => child.once("exit", () => resolve()));
    });

    const starvedAt = Date.now();
    const answers: Awaited<ReturnType<typeof timedGet>>[] = [];
    const client = async (i: number) => {
      for (let n = 0; Date.now() - starvedAt < STARVE_MS; n++) {
        answers.push(await timedGet(`${shop!.url}${pages[(i + n) % pages.length]}`));
        await sleep(20);
      }
    };
    // Not run at all for 1.2 s (longer than the stall deadline), every 2.5 s.
    let stops = 0;
    const pauses = async () => {
      while (Date.now() - starvedAt < STARVE_MS - 2500) {
        await sleep(1300);
        process.kill(shop!.child.pid!, "SIGSTOP");
        await sleep(1200);
        process.kill(shop!.child.pid!, "SIGCONT");
        stops++;
      }
    };
    await Promise.all([...Array.from({ length: 8 }, (_, i) => client(i)), pauses()]);
    await Promise.all(loops);
    if (cpu) await pin(shop.child.pid!, `0-${cpus().length - 1}`);

    const statuses: Record<number, number> = {};
    for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    console.log(
      `starved host, whole shop: ${answers.length} pages (slowest ${Math.max(...answers.map((a) => a.ms))} ms), ` +
        `${stops} stops, statuses ${JSON.stringify(statuses)}`,
    );
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(shop.output()).not.toContain("database unreachable");
    expect(stops).toBeGreaterThanOrEqual(3);

    // The control, on a shop free to run anywhere again: the database itself stops answering, and
    // the shop says so within 2 s.
    process.kill(db.pid, "SIGSTOP");
    const frozenAt = Date.now();
    let frozen = await timedGet(`${shop.url}/parts`);
    while (frozen.status !== 503 && Date.now() - frozenAt < 10_000) frozen = await timedGet(`${shop.url}/parts`);
    const answeredAfter = Date.now() - frozenAt;
    process.kill(db.pid, "SIGCONT");
    console.log(`starved host, whole shop: frozen database answered 503 after ${answeredAfter} ms`);
    expect(frozen.status).toBe(503);
    expect(answeredAfter).toBeLessThan(2000);
    await expect
      .poll(async () => (await timedGet(`${shop!.url}/parts`)).status, { timeout: 10_000, interval: 100 })
      .toBe(200);
    expect(shop.child.exitCode).toBeNull();
  }, 120_000);
});
