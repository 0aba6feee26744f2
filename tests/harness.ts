/**
 * The test harness behind `npm test`. It starts everything the suites need on free local ports:
 * a throwaway local database, a production build of the shop, and the local stand-ins of the
 * third-party providers; then runs Vitest (unit and integration) and Playwright (end to end, with
 * JavaScript on and off), and prints one summary line: `N passed, N failed, N skipped`.
 *
 *   npm test                 everything
 *   npm test unit [files]    Vitest only (arguments go to vitest)
 *   npm test e2e [args]      Playwright only (arguments go to playwright)
 *
 * Vitest runs as three processes side by side, one per project of vitest.config.ts: the pure tests
 * (no database; also `npm run test:fast`), the files with a
 * database of their own, several at a time, and the files on the shared database, one at a time.
 * In a whole run Playwright follows the shared files (it uses the same shop and database) while the
 * own-db files may still be running; with TEST_SIDE_BY_SIDE=1 it runs beside both from the start,
 * on a second shop with a database and a mail catcher of its own.
 * At the end it prints the browser suite's slowest tests and files (tests/setup/durations-reporter.ts),
 * each runner's time, the CPU the run used against what the machine had, and the summary line.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { machineBusySeconds, processCpuSeconds, startServices, type Services } from "./setup/services";

const [mode = "all", ...passThrough] = process.argv.slice(2).filter((arg) => arg !== "--");
if (!["all", "unit", "e2e"].includes(mode)) {
  console.error(`Unknown mode "${mode}": use all, unit or e2e`);
  process.exit(2);
}

// Every local database the run starts (the suite's, the own-db files', the bench smoke's) lives for
// minutes at most: C1-compiled code and the serial collector cost it half the CPU of the JVM's defaults.
process.env.JAVA_TOOL_OPTIONS ??= "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

const work = mkdtempSync(path.join(tmpdir(), "shop-test-"));
let services: Services | undefined;

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** Like run, with the output passed on whole lines at a time, so two runs side by side stay readable. */
function runLines(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      let rest = "";
      from.on("data", (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop() ?? "";
        if (lines.length) to.write(lines.join("\n") + "\n");
      });
      from.on("end", () => rest && to.write(rest + "\n"));
    }
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const VITEST_PROJECTS = ["pure", "own-db", "shared"] as const;
type VitestProject = (typeof VITEST_PROJECTS)[number];

/** One Vitest project (or one run of all, when the arguments pick a project). */
async function runVitestProject(project: VitestProject | undefined, env: NodeJS.ProcessEnv): Promise<Counts> {
  const out = path.join(work, `vitest-${project ?? "all"}.json`);
  const args = ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`];
  if (project) args.push(`--project=${project}`, "--passWithNoTests");
  const code = await (project ? runLines : run)("npx", [...args, ...passThrough], env);
  const counts = vitestCounts(out);
  printSlowestFiles(out, project ?? "Vitest");
  // An error outside any test (Vitest's "Unhandled Errors") fails the run without failing a test.
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const pickedProject = passThrough.some((arg) => arg.startsWith("--project"));

/** Both Vitest projects at once (or one run, when the arguments pick a project), summed. */
async function runVitest(env: NodeJS.ProcessEnv): Promise<Counts> {
  const counts = await Promise.all(
    (pickedProject ? [undefined] : VITEST_PROJECTS).map((project) => runVitestProject(project, env)),
  );
  return counts.reduce(sum);
}

const sum = (a: Counts, b: Counts): Counts => ({
  passed: a.passed + b.passed,
  failed: a.failed + b.failed,
  skipped: a.skipped + b.skipped,
  flaky: a.flaky + b.flaky,
});

type Counts = { passed: number; failed: number; skipped: number; flaky: number };

function vitestCounts(file: string): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, flaky: 0 };
  const report = JSON.parse(readFileSync(file, "utf8"));
  // A file that failed without a failing test (it did not load, or a hook threw) counts once.
  const brokenFiles = (report.testResults ?? []).filter(
    (result: { status: string; assertionResults?: { status: string }[] }) =>
      result.status === "failed" && !(result.assertionResults ?? []).some((test) => test.status === "failed"),
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    flaky: 0,
  };
}

/** The five files of a Vitest run that took longest, so the next file to split or speed up is in view. */
function printSlowestFiles(file: string, label: string) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8"));
  const files = ((report.testResults ?? []) as { name: string; startTime: number; endTime: number }[])
    .map((result) => ({ name: path.relative(process.cwd(), result.name), ms: result.endTime - result.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  if (!files.length) return;
  const lines = files.map(({ name, ms }) => `  ${`${(ms / 1000).toFixed(1)} s`.padStart(7)}  ${name}`);
  console.log(`Slowest ${label} files:\n${lines.join("\n")}`);
}

function playwrightCounts(file: string): Counts {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, flaky: 0 };
  const { stats, errors } = JSON.parse(readFileSync(file, "utf8"));
  return {
    passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0),
    failed: (stats?.unexpected ?? 0) + (errors?.length ?? 0),
    skipped: stats?.skipped ?? 0,
    flaky: stats?.flaky ?? 0,
  };
}

/**
 * TEST_SIDE_BY_SIDE=1: in a whole run, the browser suite starts at once beside both Vitest projects,
 * on a shop of its own, instead of after the shared files. Off by default until measured on a quiet
 * machine: on a machine already overloaded, three runners at once pushed browser tests past their timeouts.
 */
const sideBySide = mode === "all" && !pickedProject && process.env.TEST_SIDE_BY_SIDE === "1";

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

async function main() {
  const started = Date.now();
  const busyAtStart = machineBusySeconds();
  const loadAtStart = load();
  services = await startServices(work, { shops: sideBySide ? ["shared", "browser"] : ["shared"] });
  const setupSeconds = Math.round((Date.now() - started) / 1000);
  const env = { ...process.env, ...services.env.shared };
  const browserEnv = { ...process.env, ...(services.env.browser ?? services.env.shared) };
  const totals: Counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
  const add = (label: string, counts: Counts) => {
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    totals.flaky += counts.flaky;
    console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  };

  const results: [string, Counts][] = [];
  const timed = async (label: string, part: () => Promise<Counts>) => {
    const start = Date.now();
    const counts = await part();
    results.push([`${label} (${Math.round((Date.now() - start) / 1000)} s)`, counts]);
  };
  const playwright = (lines: boolean) =>
    timed("Playwright", async () => {
      const out = path.join(work, "playwright.json");
      const reporters = "list,json,./tests/setup/durations-reporter.ts";
      await (lines ? runLines : run)("npx", ["playwright", "test", `--reporter=${reporters}`, ...passThrough], {
        ...browserEnv,
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        // Each run keeps its traces apart, so overlapping runs never delete each other's.
        PLAYWRIGHT_OUTPUT_DIR: path.join("test-results", path.basename(work)),
      });
      return playwrightCounts(out);
    });
  if (mode === "unit") await timed("Vitest", () => runVitest(env));
  if (mode === "e2e") await playwright(false);
  if (mode === "all" && pickedProject) {
    await timed("Vitest", () => runVitest(env));
    await playwright(false);
  } else if (mode === "all" && !sideBySide) {
    // The own-db files never touch the suite's shop, so they run beside everything else; the browser
    // suite starts once the shared files (which use the shop and its database) are done.
    await Promise.all([
      timed("Vitest own-db", () => runVitestProject("own-db", env)),
      (async () => {
        await timed("Vitest shared", () => runVitestProject("shared", env));
        await playwright(true);
      })(),
    ]);
  } else if (sideBySide) {
    // Three at once: the own-db files on databases of their own, the shared files on the first shop,
    // the browser suite on the second.
    await Promise.all([
      timed("Vitest own-db", () => runVitestProject("own-db", env)),
      timed("Vitest shared", () => runVitestProject("shared", env)),
      playwright(true),
    ]);
  }

  console.log("");
  for (const [label, counts] of results) add(label, counts);
  const seconds = Math.round((Date.now() - started) / 1000);
  const available = seconds * cpus().length;
  // Whether the cores were the limit: CPU used by everything the run started, against what it had.
  const serviceCpu = services.cpuSeconds();
  const runnersCpu = processCpuSeconds(process.pid, { children: true }) - processCpuSeconds(process.pid);
  const usedCpu = Math.round(runnersCpu + serviceCpu.database + serviceCpu.shops);
  console.log(
    `CPU: ${usedCpu} s of ${available} s (${cpus().length} cores); build, seeding, test runners and browsers ${Math.round(runnersCpu)} s, ` +
      `shops ${Math.round(serviceCpu.shops)} s, database ${Math.round(serviceCpu.database)} s; load average ${loadAtStart} at the start, ${load()} at the end`,
  );
  // The machine's own count, which also sees the processes the figures above miss (Chromium's renderers).
  const busy = machineBusySeconds() - busyAtStart;
  console.log(
    `Machine: ${Math.round(busy)} s of CPU busy out of ${available} s (${Math.round((100 * busy) / available)} %), counting everything that ran on it`,
  );
  if (totals.flaky) console.log(`(${totals.flaky} passed only on retry)`);
  console.log(`Finished in ${seconds} s (build, database and shop: ${setupSeconds} s)`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return totals.failed === 0 && totals.passed > 0 ? 0 : 1;
}

async function cleanup() {
  await services?.stop();
  rmSync(work, { recursive: true, force: true });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error);
  console.log("0 passed, 1 failed, 0 skipped");
} finally {
  await cleanup();
}
process.exit(code);
