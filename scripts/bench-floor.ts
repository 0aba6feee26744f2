/**
 * npm run bench:floor: what Express, compression, @remix-run/express and React cost per page on
 * this machine with none of the shop's code, next to the shop's own pages, measured the same way
 * as bench:fresh (Server-Timing up to the headers, one request alone, median of the requests).
 *
 *   npm run bench:floor                       builds the shop and the floor app, 3 rounds
 *   npm run bench:floor -- --build-dir build  an existing build of the shop
 *   npm run bench:floor -- --cpu-prof DIR     and V8 CPU profiles of both servers (summarised by package)
 *
 * The floor app (scripts/bench/floor) is the same Remix 2 and React 18, with the shop's patches,
 * the classic compiler and Express: a page of one paragraph, and the shop's /blogs content without
 * its layout, loaders and middleware. Both servers are pinned to the same CPU and asked in turn,
 * so a busy machine slows them alike.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../server/local-db";
import { startDemoShop } from "./bench/demo-shop";
import { measureAlone } from "./bench/fresh";
import { profileClock, profileShares } from "./bench/profile";
import { pinned, stopProcess } from "./bench/shop";
import { median } from "./bench/stats";

const { values: args } = parseArgs({
  options: {
    "build-dir": { type: "string" },
    requests: { type: "string", default: "50" },
    warmup: { type: "string", default: "200" },
    rounds: { type: "string", default: "3" },
    "server-cpu": { type: "string", default: "0" },
    "cpu-prof": { type: "string" },
  },
});
const requests = Math.max(1, Number(args.requests) || 50);
const warmup = Math.max(0, Number(args.warmup) || 0);
const rounds = Math.max(1, Number(args.rounds) || 3);
const cpus = args["server-cpu"] || undefined;
const profileDir = args["cpu-prof"] ? path.resolve(args["cpu-prof"]) : undefined;
const profileArgs = (name: string) =>
  profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];

const work = mkdtempSync(path.join(os.tmpdir(), "shop-floor-"));
// A copy inside the project, so it resolves the shop's node_modules, with the shop's versions.
const floorDir = path.resolve(".cache", `floor-app-${path.basename(work)}`);
cpSync(path.resolve("scripts/bench/floor"), floorDir, { recursive: true });
const floorBuild = path.join(floorDir, "build");
const shopPackage = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
const used = [
  "@remix-run/express",
  "@remix-run/node",
  "@remix-run/react",
  "compression",
  "express",
  "isbot",
  "react",
  "react-dom",
];
writeFileSync(
  path.join(floorDir, "package.json"),
  JSON.stringify({
    name: "bench-floor",
    private: true,
    type: "module",
    sideEffects: false,
    dependencies: Object.fromEntries(used.map((name) => [name, shopPackage.dependencies[name]])),
  }),
);
const built = spawnSync("npx", ["remix", "build"], {
  cwd: floorDir,
  env: { ...process.env, NODE_ENV: "production", FLOOR_BUILD_DIR: floorBuild, VITE_CJS_IGNORE_WARNING: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
if (built.status !== 0) throw new Error("building the floor app failed");

const port = await freePort();
const [command, commandArgs] = pinned(cpus, "node", [...profileArgs("floor"), path.join(floorDir, "server.mjs")]);
const floor = spawn(command, commandArgs, {
  cwd: path.resolve("."),
  env: { ...process.env, NODE_ENV: "production", FLOOR_BUILD_DIR: floorBuild, PORT: String(port) },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  floor.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
  floor.once("exit", (code) => reject(new Error(`the floor server exited with ${code}`)));
});
const floorUrl = `http://localhost:${port}`;
const shop = await startDemoShop({
  work,
  cpus,
  buildDir: args["build-dir"] ? path.resolve(args["build-dir"]) : undefined,
  nodeArgs: profileArgs("shop"),
});

const targets = [
  { name: "floor: one paragraph", url: `${floorUrl}/`, pid: floor.pid },
  { name: "floor: /blogs content", url: `${floorUrl}/blogs`, pid: floor.pid },
  { name: "shop: /blogs", url: `${shop.url}/blogs`, pid: shop.shop.pid },
  { name: "shop: /", url: `${shop.url}/`, pid: shop.shop.pid },
];
// Both servers are up: what the profiles count from (their start is not the pages' cost).
const measuredSince = profileClock();
const app: Record<string, number[]> = {};
const cpu: Record<string, number[]> = {};
try {
  for (let round = 1; round <= rounds; round++) {
    for (const target of targets) {
      const result = await measureAlone(target.url, { requests, warmup: round === 1 ? warmup : 10, pid: target.pid });
      (app[target.name] ??= []).push(result.appP50);
      (cpu[target.name] ??= []).push(result.cpuPerRequest ?? NaN);
      console.log(
        `round ${round}  ${target.name.padEnd(24)} app ${result.appP50} ms  CPU/req ${result.cpuPerRequest} ms`,
      );
    }
  }
  console.log(`\nmedian of ${rounds} rounds           app p50 ms   CPU/req ms`);
  for (const target of targets) {
    console.log(
      `${target.name.padEnd(32)} ${String(median(app[target.name])).padStart(10)} ${String(median(cpu[target.name])).padStart(12)}`,
    );
  }
} finally {
  await stopProcess(floor);
  await shop.stop();
  if (profileDir) {
    for (const name of ["floor", "shop"]) {
      console.log(`\n${name}: share of the busy time while serving the pages, by where the code lives`);
      const shares = profileShares(path.join(profileDir, name), measuredSince);
      for (const [where, share] of shares.filter(([, share]) => share >= 0.5)) {
        console.log(`  ${where.padEnd(36)} ${share.toFixed(1).padStart(5)}%`);
      }
      const rest = shares.filter(([, share]) => share < 0.5);
      const restShare = rest.reduce((sum, [, share]) => sum + share, 0);
      console.log(`  ${`${rest.length} others, under 0.5% each`.padEnd(36)} ${restShare.toFixed(1).padStart(5)}%`);
    }
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(floorDir, { recursive: true, force: true });
}
