import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import diagnostics from "node:diagnostics_channel";

/**
 * Server-Timing for every answer of the app: how long the request waited on the database, how
 * long the app itself worked (routing, loaders' own code, rendering), and the total, as
 *
 *   Server-Timing: db;dur=1.9, render;dur=6.3, total;dur=8.2
 *
 * measured up to the moment the headers go out (for a streamed page that is when the shell is
 * ready). `db` is wall-clock time during which at least one database operation of this request
 * was in flight, so parallel queries are not counted twice and db + render = total.
 *
 * Database operations are seen on the tracing channels that Mongoose publishes, and matched to
 * their request through AsyncLocalStorage (loaded once, from the Remix build: app/runtime.server.ts).
 */
export type RequestTiming = {
  start: number;
  /** Finished database time, in ms. */
  db: number;
  /** Database operations in flight, and since when the current busy stretch lasts. */
  inFlight: number;
  busySince: number;
};

const storage = new AsyncLocalStorage<RequestTiming>();

export function currentTiming() {
  return storage.getStore();
}

function begin(timing: RequestTiming) {
  if (timing.inFlight === 0) timing.busySince = performance.now();
  timing.inFlight += 1;
}

function end(timing: RequestTiming) {
  if (timing.inFlight === 0) return;
  timing.inFlight -= 1;
  if (timing.inFlight === 0) timing.db += performance.now() - timing.busySince;
}

/** The database time so far, counting a stretch still in flight up to now. */
export function dbTime(timing: RequestTiming, now = performance.now()) {
  return timing.db + (timing.inFlight > 0 ? now - timing.busySince : 0);
}

/**
 * Counts the wait for a database read that another request started (see coalesce.server.ts) as
 * this request's database time too.
 */
export function trackDbWait<T>(promise: Promise<T>): Promise<T> {
  const timing = storage.getStore();
  if (!timing) return promise;
  begin(timing);
  return promise.finally(() => end(timing));
}

/** Runs `fn` with database time counted against `timing` (used by tests and the server). */
export function withTiming<T>(timing: RequestTiming, fn: () => T): T {
  return storage.run(timing, fn);
}

export function newTiming(): RequestTiming {
  return { start: performance.now(), db: 0, inFlight: 0, busySince: 0 };
}

export function serverTimingHeader(timing: RequestTiming, now = performance.now()) {
  const total = now - timing.start;
  const db = Math.min(dbTime(timing, now), total);
  const ms = (value: number) => value.toFixed(1);
  return `db;dur=${ms(db)}, render;dur=${ms(total - db)}, total;dur=${ms(total)}`;
}

// --- Mongoose -------------------------------------------------------------------------------------

/**
 * Mongoose 9 publishes every query, aggregate, save, insertMany and bulkWrite on diagnostics_channel
 * tracing channels. `start` runs in the caller's async context (so it finds the request) and
 * `asyncEnd` follows once per operation, whether it succeeded or failed. The channel's context
 * object is per operation, so the request is remembered on it.
 */
const CHANNELS = [
  "mongoose:query",
  "mongoose:aggregate",
  "mongoose:model:save",
  "mongoose:model:insertMany",
  "mongoose:model:bulkWrite",
];
const OWNER = Symbol("request-timing");
type TracedContext = { [OWNER]?: RequestTiming };

// Subscribed once: the module is loaded once per build.
for (const name of CHANNELS) {
  diagnostics.tracingChannel<unknown, TracedContext>(name).subscribe({
    start(context) {
      const timing = storage.getStore();
      if (!timing) return;
      context[OWNER] = timing;
      begin(timing);
    },
    end() {},
    asyncStart() {},
    asyncEnd(context) {
      const timing = context[OWNER];
      if (!timing) return;
      context[OWNER] = undefined;
      end(timing);
    },
    error() {},
  });
}

// --- HTTP -------------------------------------------------------------------------------------

/**
 * Express middleware: starts the clock, and sets the Server-Timing header just before the
 * headers are written (whoever writes them: Remix, an error page, a redirect).
 */
export function serverTiming(_req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) {
  const timing = newTiming();
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!this.headersSent) this.setHeader("Server-Timing", serverTimingHeader(timing));
    return writeHead.apply(this, args);
  } as typeof writeHead;
  storage.run(timing, next);
}
