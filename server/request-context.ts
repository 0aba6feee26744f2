import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { findRequestLoggerWith } from "./log-line";

/**
 * What the app learns about a request while handling it, reachable from any code that runs for
 * it (AsyncLocalStorage) and from the response (for the request log):
 *
 * - `memo`: values computed once per GET, shared by all its loaders. A page's loaders run in
 *   parallel, and the layout and the page each ask who is signed in: with this they ask the
 *   database once, and see the same answer even when one of them signs the user out while the
 *   other is still reading (see requireAdmin in app/services/guards.server.ts). A POST gets none: its action runs
 *   first and may change what its loaders must see.
 * - `userId`: the signed-in user, for the request log.
 * - `log`: the request's logger (its lines carry the request id), for server/log-line.ts.
 *
 * The app and the server share this one module: server.ts takes the middleware from the Remix
 * build (app/runtime.server.ts).
 */
export type RequestContext = { memo: Map<string, Promise<unknown>> | null; userId?: string; log?: Logger };

const RESPONSE_KEY = Symbol("request-context");
const storage = new AsyncLocalStorage<RequestContext>();
findRequestLoggerWith(() => storage.getStore()?.log);

/** Express middleware: a fresh context for each request. */
export function requestContext(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) {
  const context: RequestContext = {
    memo: req.method === "GET" || req.method === "HEAD" ? new Map() : null,
    log: (req as IncomingMessage & { log?: Logger }).log,
  };
  (res as ServerResponse & { [RESPONSE_KEY]?: RequestContext })[RESPONSE_KEY] = context;
  storage.run(context, next);
}

export function requestContextOf(res: ServerResponse) {
  return (res as ServerResponse & { [RESPONSE_KEY]?: RequestContext })[RESPONSE_KEY];
}

/** `compute()` once per request for `key` (every time outside a GET request). */
export function memoizedForRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const memo = storage.getStore()?.memo;
  if (!memo) return compute();
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    memo.set(key, value);
  }
  return value;
}

/** Names the signed-in user of the current request in its log line. */
export function noteRequestUser(userId: string) {
  const context = storage.getStore();
  if (context) context.userId = userId;
}

// The app's one door into server/: the database time of a request lives in timing.ts, the one-line
// log of failures the shop gets over by itself in log-line.ts.
export { serverTiming, trackDbWait } from "./timing";
export { appLogger, faultOf, logFailure, useShopLogger, type Fault, type FailureLogger } from "./log-line";
