/**
 * One load test with autocannon, run in the load generators' process (scripts/bench/load-runner.ts,
 * pinned to another CPU than the server) or alone: `tsx scripts/bench/load.ts '<json options>'`,
 * which prints one JSON object: requests/s, latency percentiles (p95 included, which autocannon's
 * own summary lacks), status codes, and the Server-Timing split (db / render / total) of every answer.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon, { type Client } from "autocannon";
import { parseServerTiming, round, serverTimings, summary, type ServerTimingSummary } from "./stats";

export type LoadOptions = {
  url: string;
  connections: number;
  /** Seconds measured, after `warmup` seconds that are thrown away. */
  duration: number;
  warmup: number;
  headers?: Record<string, string>;
  /**
   * Paths asked for in turn (on the host of `url`), for a target that stands for many different
   * requests, such as searches: identical requests in flight would share their database reads.
   */
  paths?: string[];
  /** Seconds before autocannon gives up on one request. */
  timeout?: number;
};

export type LoadResult = {
  url: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  latency: ReturnType<typeof summary>;
  status: Record<string, number>;
  errors: number;
  timeouts: number;
  bytesPerResponse: number;
  serverTiming: ServerTimingSummary | null;
};

/** Each request of the run takes the next of `paths`, over every connection. */
function nextPath(paths: string[]) {
  let next = 0;
  return (request: { path?: string }) => ({ ...request, path: paths[next++ % paths.length] });
}

function run(options: LoadOptions, seconds: number, record: boolean) {
  const latencies: number[] = [];
  const timings = serverTimings();
  const status: Record<string, number> = {};
  let bytes = 0;
  return new Promise<LoadResult>((resolve, reject) => {
    const started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: seconds,
        timeout: options.timeout ?? 30,
        headers: options.headers,
        ...(options.paths?.length ? { requests: [{ setupRequest: nextPath(options.paths) }] } : {}),
        setupClient(client: Client) {
          if (!record) return;
          // Headers arrive before the body: a timing is kept only once its response completes, so
          // answers cut off when the run stops are counted in neither the latencies nor the timings.
          let pending: ReturnType<typeof parseServerTiming> | undefined;
          client.on("headers", ({ headers }: { headers: string[] }) => {
            pending = undefined;
            for (let i = 0; i < headers.length; i += 2) {
              if (headers[i].toLowerCase() === "server-timing") pending = parseServerTiming(headers[i + 1]);
            }
          });
          client.on("response", () => {
            timings.add(pending);
            pending = undefined;
          });
        },
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Math.min(seconds, (performance.now() - started) / 1000);
        resolve({
          url: options.url,
          connections: options.connections,
          seconds: round(elapsed, 2),
          requests: latencies.length,
          rps: round(latencies.length / Math.max(elapsed, 0.001)),
          latency: summary(latencies),
          status,
          errors: result.errors,
          timeouts: result.timeouts,
          bytesPerResponse: latencies.length ? Math.round(bytes / latencies.length) : 0,
          serverTiming: timings.summary(),
        });
      },
    );
    instance.on("response", (_client: Client, statusCode: number, resBytes: number, responseTime: number) => {
      if (!record) return;
      latencies.push(responseTime);
      bytes += resBytes;
      status[statusCode] = (status[statusCode] ?? 0) + 1;
    });
  });
}

export async function load(options: LoadOptions) {
  if (options.warmup > 0) await run(options, options.warmup, false);
  return run(options, options.duration, true);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;
  const result = await load(options);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
