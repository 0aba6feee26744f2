/**
 * "Rendered fresh": the server's own time for one request alone, page by page.
 *
 * Each page is asked for `requests` times one after the other (no queueing), after a warm-up, and
 * the median of its `Server-Timing` split is taken: `app` is total minus database, up to the
 * moment the headers go out. The budgets (docs/performance.md) are about these medians, with the
 * demo data, on the production build.
 */
import { readFileSync } from "node:fs";
import { parseServerTiming, round, summary } from "./stats";

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux); null elsewhere.
 * On a shared machine a request's wall-clock time includes waiting for a core, its CPU time does not.
 */
export function cpuTimeMs(pid: number | undefined) {
  if (!pid) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

export type FreshTarget = {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** The most the app's own time may take, in ms (median of the requests alone). */
  budgetMs?: number;
};

export type FreshResult = {
  name: string;
  path: string;
  requests: number;
  /** Medians, in ms. */
  latencyP50: number;
  dbP50: number;
  appP50: number;
  totalP50: number;
  appP95: number;
  htmlBytes: number;
  /** The server's CPU time per request (all of it: rendering, compression, logging, GC), in ms. */
  cpuPerRequest: number | null;
  budgetMs: number | null;
  met: boolean | null;
};

/**
 * `requests` GETs of `url` one after the other (of each of several urls in turn); medians of
 * latency and of the Server-Timing split.
 */
export async function measureAlone(
  urls: string | string[],
  {
    headers = {},
    requests = 50,
    warmup = 10,
    pid,
  }: { headers?: Record<string, string>; requests?: number; warmup?: number; pid?: number } = {},
) {
  const latencies: number[] = [];
  const db: number[] = [];
  const app: number[] = [];
  const total: number[] = [];
  let htmlBytes = 0;
  let cpuStart: number | null = null;
  const list = typeof urls === "string" ? [urls] : urls;
  for (let i = 0; i < warmup + requests; i++) {
    if (i === warmup) cpuStart = cpuTimeMs(pid);
    const url = list[i % list.length];
    const sent = performance.now();
    const response = await fetch(url, { headers, redirect: "manual" });
    const body = await response.arrayBuffer();
    if (response.status !== 200) {
      const location = response.headers.get("location");
      throw new Error(`GET ${url} answered ${response.status}${location ? ` (to ${location})` : ""}`);
    }
    if (i < warmup) continue;
    latencies.push(performance.now() - sent);
    const timing = parseServerTiming(response.headers.get("server-timing"));
    db.push(timing.db ?? 0);
    app.push(timing.render ?? 0);
    total.push(timing.total ?? 0);
    htmlBytes = body.byteLength;
  }
  const cpuEnd = cpuTimeMs(pid);
  return {
    requests,
    latencyP50: summary(latencies).p50,
    dbP50: summary(db).p50,
    appP50: summary(app).p50,
    appP95: summary(app).p95,
    totalP50: summary(total).p50,
    htmlBytes,
    cpuPerRequest: cpuStart !== null && cpuEnd !== null ? round((cpuEnd - cpuStart) / requests, 2) : null,
  };
}

export async function measureFresh(
  baseUrl: string,
  targets: FreshTarget[],
  options: { requests?: number; warmup?: number; pid?: number } = {},
) {
  const results: FreshResult[] = [];
  for (const target of targets) {
    const measured = await measureAlone(`${baseUrl}${target.path}`, { headers: target.headers, ...options });
    const budgetMs = target.budgetMs ?? null;
    results.push({
      name: target.name,
      path: target.path,
      ...measured,
      budgetMs,
      met: budgetMs === null ? null : measured.appP50 <= budgetMs,
    });
  }
  return results;
}

export const FRESH_HEADER =
  "rendered fresh, one request alone        app p50 ms   app p95   db p50   total p50   CPU/req   HTML KB   budget";

export function freshLine(
  result: Pick<
    FreshResult,
    "name" | "appP50" | "appP95" | "dbP50" | "totalP50" | "cpuPerRequest" | "htmlBytes" | "budgetMs" | "met"
  >,
) {
  const budget = result.budgetMs === null ? "-" : `≤ ${result.budgetMs} ms: ${result.met ? "met" : "NOT MET"}`;
  return [
    result.name.padEnd(40),
    String(result.appP50).padStart(10),
    String(result.appP95).padStart(9),
    String(result.dbP50).padStart(8),
    String(result.totalP50).padStart(11),
    String(result.cpuPerRequest ?? "-").padStart(9),
    String(round(result.htmlBytes / 1024)).padStart(9),
    `   ${budget}`,
  ].join(" ");
}

/** Signs in through the login form, as a browser without JavaScript does; returns the Cookie header. */
export async function signIn(baseUrl: string, email: string, password: string) {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password, redirectTo: "/dashboard" }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    redirect: "manual",
  });
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .find((cookie) => cookie.startsWith("__session="));
  if (response.status !== 302 || !session) throw new Error(`signing in as ${email} failed (${response.status})`);
  return session;
}

/** A part page's path, from the first part card of /parts. */
export async function firstPartPath(baseUrl: string) {
  const html = await (await fetch(`${baseUrl}/parts`)).text();
  const match = html.match(/href="(\/parts\/[0-9a-f]{24})"/);
  if (!match) throw new Error("no part link on /parts");
  return match[1];
}

/** The app's own time for one request alone (median of 50) that each page must stay within, in ms. */
export const FRESH_BUDGETS_MS = { blogs: 1.5, home: 2.5, parts: 2.5, partPage: 2.5 };

/** The pages and budgets (docs/performance.md), for a signed-in customer's cookie. */
export function freshTargets(partPath: string, cookie: string): FreshTarget[] {
  const signedIn = { Cookie: cookie };
  return [
    { name: "/blogs", path: "/blogs", budgetMs: FRESH_BUDGETS_MS.blogs },
    { name: "/", path: "/", budgetMs: FRESH_BUDGETS_MS.home },
    { name: "/parts", path: "/parts", budgetMs: FRESH_BUDGETS_MS.parts },
    { name: "/parts/{id}, signed in", path: partPath, headers: signedIn, budgetMs: FRESH_BUDGETS_MS.partPage },
    { name: "/dashboard/orders, signed in", path: "/dashboard/orders", headers: signedIn },
  ];
}
