import { trackDbWait } from "../../server/request-context";

/**
 * Identical reads that are in flight at the same moment share one database round trip: a burst
 * of visitors on the home page or the first page of /parts costs the database one query, not one
 * per visitor. Nothing is kept once the read settles (no cache, nothing stale), and a request
 * that joins a read counts the wait as its own database time (Server-Timing).
 *
 * The shared result is handed to every caller, so callers must treat it as read-only.
 */
const inFlight = new Map<string, Promise<unknown>>();

export function coalesce<T>(key: string, read: () => Promise<T>): Promise<T> {
  const pending = inFlight.get(key) as Promise<T> | undefined;
  if (pending) return trackDbWait(pending);
  const promise = read().finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}
