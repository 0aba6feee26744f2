/**
 * npm run bench:soak: the production topology of docs/topology.md on this machine, under steady load.
 *
 *   npm run bench:soak                                     60 s × 20 connections, one then two instances
 *   npm run bench:soak -- --duration 120 --connections 20  the soak
 *   npm run bench:soak -- --build-dir build --instances 2  an existing build, two instances only
 *
 * Options: --duration S (60, per phase), --connections C (20), --warmup S (5, per phase, not
 * measured), --instances N,N (1,2: one run per count), --build-dir DIR (run an existing build
 * instead of building), --server-cpu (0: the instances and nginx; "" unpinned), --load-cpu (1:
 * autocannon; "" unpinned), --db-cpu (the local database; unpinned by default, as in npm run bench),
 * --json FILE.
 *
 * A production build on a throwaway local database with the demo data; for each instance count,
 * that many instances (one secret, HOST=127.0.0.1, TRUST_PROXY=127.0.0.1) behind Debian's nginx on
 * 127.0.0.1 over TLS (scripts/bench/nginx.ts), then two phases through nginx: anonymous pages (`/`
 * and `/parts` in turn) and the demo customer's pages (a part page, which needs a sign-in, the cart
 * and My Orders in turn). Prints, per phase, requests/s, p50/p99 latency, errors and answers other
 * than 200, how many requests each instance answered (warm-up included), the load average before
 * and after, and the resident memory of each instance, the database and nginx: at the start, after
 * each phase's warm-up, halfway through it and at its end.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { connectDb, disconnectDb, syncIndexes } from "../../app/services/db.server";
import { ensureDemoData } from "../../app/demo/data.server";
import { freePort } from "../../server/local-db";
import type { LoadOptions, LoadResult } from "./load";
import { startUpstreamNginx } from "./nginx";
import { buildShop, hasTaskset, pinned, startDb, startShop, type Shop } from "./shop";
import { round } from "./stats";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "20" },
    warmup: { type: "string", default: "5" },
    instances: { type: "string", default: "1,2" },
    "build-dir": { type: "string" },
    "server-cpu": { type: "string", default: "0" },
    "load-cpu": { type: "string", default: "1" },
    "db-cpu": { type: "string" },
    json: { type: "string" },
  },
});
const duration = Math.max(1, Number(args.duration) || 60);
const connections = Math.max(1, Number(args.connections) || 20);
const warmup = Math.max(0, Number(args.warmup) || 0);
const counts = args.instances.split(",").map((n) => Math.max(1, Number(n) || 1));
const serverCpu = args["server-cpu"] || undefined;
const loadCpu = args["load-cpu"] || undefined;
const dbCpu = args["db-cpu"] || undefined;
const here = path.dirname(new URL(import.meta.url).pathname);
const log = (line: string) => console.log(line);

/** Resident memory of a process in MB, from /proc (Linux); null when it is gone. */
function rssMb(pid: number | undefined) {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

const loadAverage = () => round(os.loadavg()[0], 2);

/** One HTTPS request to nginx's self-signed certificate, answer read whole. */
function httpsRequest(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = request(url, { method, headers, rejectUnauthorized: false, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end(body);
    },
  );
}

/** Signs the demo customer in through nginx's login form; returns the Cookie header. */
async function signIn(url: string, origin: string) {
  const response = await httpsRequest(`${url}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin },
    body: new URLSearchParams({
      email: "customer@partsworks.test",
      password: "customer-demo-123",
      redirectTo: "/dashboard",
    }).toString(),
  });
  const setCookie = [response.headers["set-cookie"] ?? []].flat();
  const session = setCookie
    .map((line) => line.split(";")[0])
    .find((line) => /^(__Host-)?session=|^__session=/.test(line));
  if (response.status !== 302 || !session) throw new Error(`signing in through nginx failed (${response.status})`);
  return session;
}

/** One load run of scripts/bench/load.ts in a process of its own, pinned to the load CPU. */
function loadPinned(options: LoadOptions) {
  const [command, commandArgs] = pinned(loadCpu, process.execPath, [
    "--import",
    "tsx",
    path.join(here, "load.ts"),
    JSON.stringify(options),
  ]);
  return new Promise<LoadResult>((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      const line = output.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(line) as LoadResult);
      } catch {
        reject(new Error(`the load run exited with ${code}: ${output.slice(-500)}`));
      }
    });
  });
}

type Watched = { name: string; pid: number | undefined };
/** RSS of each watched process in MB, in the order watched. */
type Snapshot = (number | null)[];

/** RSS of the watched processes now, and the most each has reached (sampled every 2 s). */
function memoryWatch(processes: Watched[]) {
  const now = (): Snapshot => processes.map(({ pid }) => rssMb(pid));
  const start = now();
  const max = start.map((mb) => mb ?? 0);
  const sample = () => now().forEach((mb, i) => (max[i] = Math.max(max[i], mb ?? 0)));
  const timer = setInterval(sample, 2_000);
  return {
    processes,
    start,
    now,
    stop() {
      clearInterval(timer);
      sample();
      return max;
    },
  };
}

/** Lines with a response time in each instance's request log: the requests it answered. */
const answered = (logFile: string) => readFileSync(logFile, "utf8").split('"responseTime"').length - 1;

type Phase = {
  name: string;
  paths: string[];
  result: LoadResult;
  perInstance: number[];
  loadAverage: { before: number; after: number };
  /** RSS when the warm-up ends, halfway through the measured time, and at its end. */
  memory: { afterWarmup: Snapshot; halfway: Snapshot; end: Snapshot };
};

async function runPhase(
  name: string,
  url: string,
  paths: string[],
  logFiles: string[],
  watch: ReturnType<typeof memoryWatch>,
  headers?: Record<string, string>,
): Promise<Phase> {
  const before = loadAverage();
  const counted = logFiles.map(answered);
  log(`  ${name}: ${warmup} s warm-up, ${duration} s × ${connections} connections (load average ${before})…`);
  const snapshots: Snapshot[] = [];
  const timers = [warmup, warmup + duration / 2].map((s) => setTimeout(() => snapshots.push(watch.now()), s * 1000));
  const result = await loadPinned({ url, connections, duration, warmup, headers, paths, timeout: 30 });
  timers.forEach(clearTimeout);
  const end = watch.now();
  const perInstance = logFiles.map((file, i) => answered(file) - counted[i]);
  return {
    name,
    paths,
    result,
    perInstance,
    loadAverage: { before, after: loadAverage() },
    memory: { afterWarmup: snapshots[0] ?? end, halfway: snapshots[1] ?? end, end },
  };
}

async function soak(count: number, work: string, buildDir: string, db: Awaited<ReturnType<typeof startDb>>) {
  const dir = path.join(work, `instances-${count}`);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const origin = `https://localhost:${port}`;
  const extraEnv = {
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL: origin,
    HOST: "127.0.0.1",
    TRUST_PROXY: "127.0.0.1",
  };
  const shops: Shop[] = [];
  const logFiles: string[] = [];
  let nginx: Awaited<ReturnType<typeof startUpstreamNginx>> | undefined;
  try {
    // One after the other, as a rolling start would: two first starts race to create collections.
    for (let i = 0; i < count; i++) {
      const logFile = path.join(dir, `shop-${i + 1}.log`);
      logFiles.push(logFile);
      shops.push(await startShop({ work: dir, db, buildDir, cpus: serverCpu, extraEnv, logFile }));
    }
    nginx = await startUpstreamNginx({
      dir: path.join(dir, "nginx"),
      port,
      upstreams: shops.map((shop) => `127.0.0.1:${shop.port}`),
      cpus: serverCpu,
    });
    const cookie = await signIn(nginx.url, origin);
    const parts = await httpsRequest(`${nginx.url}/parts`);
    const partPath = /href="(\/parts\/[0-9a-f]{24})"/.exec(parts.body)?.[1];
    if (!partPath) throw new Error(`no part link on /parts through nginx (${parts.status})`);

    const watch = memoryWatch([
      ...shops.map((shop, i) => ({ name: `instance ${i + 1}`, pid: shop.pid })),
      { name: "database", pid: db.pid },
      { name: "nginx (master)", pid: nginx.pid },
    ]);
    log(`${count} instance${count > 1 ? "s" : ""} behind nginx at ${nginx.url}`);
    const phases = [
      await runPhase("anonymous", nginx.url, ["/", "/parts"], logFiles, watch),
      await runPhase("signed in", nginx.url, [partPath, "/dashboard/cart", "/dashboard/orders"], logFiles, watch, {
        Cookie: cookie,
      }),
    ];
    const max = watch.stop();
    const memory = watch.processes.map(({ name }, i) => ({
      name,
      startMb: watch.start[i],
      phases: phases.map((phase) => ({
        afterWarmupMb: phase.memory.afterWarmup[i],
        halfwayMb: phase.memory.halfway[i],
        endMb: phase.memory.end[i],
      })),
      maxMb: max[i],
    }));
    const nginxErrors = nginx.errors().trim();
    return { instances: count, phases, memory, nginxErrors: nginxErrors ? nginxErrors.slice(-2000) : null };
  } finally {
    await nginx?.stop();
    for (const shop of shops) await shop.stop();
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? "unknown",
    memoryGiB: round(os.totalmem() / 1024 ** 3),
    node: process.version,
    taskset: hasTaskset(),
    serverCpu: serverCpu ?? "unpinned",
    loadCpu: loadCpu ?? "unpinned",
    dbCpu: dbCpu ?? "unpinned",
  };
}

function report(runs: Awaited<ReturnType<typeof soak>>[]) {
  const lines = [
    "",
    "instances  phase        req/s   p50 ms   p99 ms   errors  timeouts  not 200        per instance   load avg",
  ];
  for (const run of runs) {
    for (const phase of run.phases) {
      const { result } = phase;
      const other = Object.entries(result.status)
        .filter(([status]) => status !== "200")
        .map(([status, n]) => `${status}×${n}`)
        .join(" ");
      lines.push(
        [
          String(run.instances).padStart(9),
          phase.name.padEnd(10),
          String(result.rps).padStart(7),
          String(result.latency.p50).padStart(8),
          String(result.latency.p99).padStart(8),
          String(result.errors).padStart(8),
          String(result.timeouts).padStart(9),
          (other || "0").padStart(9),
          phase.perInstance.join(" / ").padStart(18),
          `   ${phase.loadAverage.before} → ${phase.loadAverage.after}`,
        ].join("  "),
      );
    }
  }
  lines.push(
    "",
    "RSS, MB (after the warm-up → halfway → end of each phase)",
    "                   start   anonymous                  signed in                    max",
  );
  const mb = (value: number | null) => String(value ?? "-");
  for (const run of runs) {
    lines.push(`${run.instances} instance${run.instances > 1 ? "s" : ""}:`);
    for (const m of run.memory) {
      const phases = m.phases.map((p) => `${mb(p.afterWarmupMb)} → ${mb(p.halfwayMb)} → ${mb(p.endMb)}`.padEnd(27));
      lines.push(`  ${m.name.padEnd(15)}${mb(m.startMb).padStart(6)}   ${phases.join("")}${mb(m.maxMb).padStart(6)}`);
    }
    if (run.nginxErrors) lines.push(`  nginx said: ${run.nginxErrors}`);
  }
  return lines.join("\n");
}

const work = mkdtempSync(path.join(os.tmpdir(), "shop-soak-"));
const ownBuild = !args["build-dir"];
const buildDir = args["build-dir"]
  ? path.resolve(args["build-dir"])
  : path.resolve(".cache", `bench-build-${path.basename(work)}`);
const started = new Date();
let failed = false;
let db: Awaited<ReturnType<typeof startDb>> | undefined;
try {
  if (!hasTaskset()) log("taskset (util-linux) is missing: the shop and the load generator will share CPUs.");
  if (ownBuild) {
    log("Building the shop…");
    buildShop(buildDir);
  }
  db = await startDb(work);
  await connectDb(db.uri);
  try {
    await syncIndexes();
    await ensureDemoData();
  } finally {
    await disconnectDb();
  }
  if (dbCpu && hasTaskset() && db.pid)
    spawnSync("taskset", ["-a", "-p", "-c", dbCpu, String(db.pid)], { stdio: "ignore" });
  const runs = [];
  for (const count of counts) runs.push(await soak(count, work, buildDir, db));
  const out = { date: started.toISOString(), machine: machine(), duration, connections, warmup, runs };
  log(report(runs));
  if (args.json) writeFileSync(args.json, `${JSON.stringify(out, null, 2)}\n`);
  failed = runs.some((run) => run.phases.some((phase) => phase.result.errors > 0 || phase.result.timeouts > 0));
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await db?.stop();
  rmSync(work, { recursive: true, force: true });
  if (ownBuild) rmSync(buildDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
