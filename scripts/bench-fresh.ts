/**
 * npm run bench:fresh: the server's own time per request, one request alone, on the demo data.
 *
 *   npm run bench:fresh                                   build, then 3 rounds of 50 requests a page
 *   npm run bench:fresh -- --build-dir build --rounds 1   an existing build, one round
 *   npm run bench:fresh -- --cpu-prof .cache/prof --requests 1000   and a V8 CPU profile of the server
 *
 * Options: --build-dir DIR, --requests N (50), --warmup N (200 requests a page first, as a server
 * that has been running a while has compiled its hot code), --rounds R (3), --parts N (synthetic parts added to
 * the demo data; 0), --server-cpu (0; "" leaves the server unpinned), --cpu-prof DIR, --json FILE,
 * --pages (comma-separated names or paths, e.g. "/blogs,/parts": only those pages).
 *
 * Prints, per page, the median of the app's own time (Server-Timing total minus db) over each
 * round, the median of the rounds, and whether the page's budget (docs/performance.md) is met.
 * Exits non-zero when a budget is not met.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startDemoShop } from "./bench/demo-shop";
import { median } from "./bench/stats";
import {
  FRESH_HEADER,
  firstPartPath,
  freshLine,
  freshTargets,
  measureFresh,
  signIn,
  type FreshResult,
} from "./bench/fresh";

const { values: args } = parseArgs({
  options: {
    "build-dir": { type: "string" },
    requests: { type: "string", default: "50" },
    warmup: { type: "string", default: "200" },
    rounds: { type: "string", default: "3" },
    parts: { type: "string", default: "0" },
    "server-cpu": { type: "string", default: "0" },
    "cpu-prof": { type: "string" },
    json: { type: "string" },
    pages: { type: "string" },
  },
});

const requests = Math.max(1, Number(args.requests) || 50);
const rounds = Math.max(1, Number(args.rounds) || 3);
const warmup = Math.max(0, Number(args.warmup) || 0);

const work = mkdtempSync(path.join(os.tmpdir(), "shop-fresh-"));
const demo = await startDemoShop({
  work,
  parts: Number(args.parts) || 0,
  cpus: args["server-cpu"] || undefined,
  buildDir: args["build-dir"] ? path.resolve(args["build-dir"]) : undefined,
  nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`] : [],
});
try {
  const cookie = await signIn(demo.url, "customer@partsworks.test", "customer-demo-123");
  const only = args.pages?.split(",").map((name) => name.trim());
  const targets = freshTargets(await firstPartPath(demo.url), cookie).filter(
    (target) => !only || only.some((name) => target.name === name || target.path === name),
  );
  const all: FreshResult[][] = [];
  for (let i = 0; i < rounds; i++) {
    const results = await measureFresh(demo.url, targets, { requests, warmup, pid: demo.shop.pid });
    all.push(results);
    console.log(`round ${i + 1}: ${results.map((result) => `${result.name} ${result.appP50}`).join(", ")}`);
  }
  const summary = targets.map((target, index) => {
    const runs = all.map((results) => results[index]);
    const appP50 = median(runs.map((run) => run.appP50));
    const budgetMs = target.budgetMs ?? null;
    return {
      ...runs[0],
      appP50,
      appP95: median(runs.map((run) => run.appP95)),
      dbP50: median(runs.map((run) => run.dbP50)),
      totalP50: median(runs.map((run) => run.totalP50)),
      cpuPerRequest: runs.every((run) => run.cpuPerRequest !== null)
        ? median(runs.map((run) => run.cpuPerRequest as number))
        : null,
      rounds: runs.map((run) => run.appP50),
      met: budgetMs === null ? null : appP50 <= budgetMs,
    };
  });
  console.log(
    `\nLoad average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}; ${requests} requests a page, median of ${rounds} rounds.`,
  );
  console.log(FRESH_HEADER);
  for (const result of summary) console.log(freshLine(result));
  if (args.json)
    writeFileSync(
      args.json,
      `${JSON.stringify({ date: new Date().toISOString(), loadAverage: os.loadavg(), results: summary }, null, 2)}\n`,
    );
  if (summary.some((result) => result.met === false)) process.exitCode = 1;
} finally {
  await demo.stop();
  rmSync(work, { recursive: true, force: true });
}
