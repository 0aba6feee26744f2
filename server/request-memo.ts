import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Values computed once per GET request, shared by all its loaders. A page's loaders run in
 * parallel, and the layout and the page each ask who is signed in: with this they ask the database
 * once, and they see the same answer even when one of them signs the user out while the other is
 * still reading (see requireAdmin in auth.server.ts).
 *
 * Only GETs get a memo: a POST runs its action and then the loaders in the same request, and the
 * action may change what the loaders must see.
 *
 * The storage lives once per process on globalThis because this module is bundled twice (into
 * server.js and into the Remix build).
 */
const STORAGE_KEY = Symbol.for("partsworks.request-memo");
type Globals = typeof globalThis & { [STORAGE_KEY]?: AsyncLocalStorage<Map<string, Promise<unknown>>> };
const globals = globalThis as Globals;
const storage = (globals[STORAGE_KEY] ??= new AsyncLocalStorage<Map<string, Promise<unknown>>>());

/** Express middleware: a fresh memo for each GET or HEAD request. */
export function requestMemo(req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) {
  if (req.method === "GET" || req.method === "HEAD") storage.run(new Map(), next);
  else next();
}

/** `compute()` once per request for `key` (every time outside a GET request). */
export function memoizedForRequest<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const memo = storage.getStore();
  if (!memo) return compute();
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    memo.set(key, value);
  }
  return value;
}
