/**
 * The claim rules both outboxes (mail, webhook deliveries) share: an entry is taken for one
 * attempt when pending, or when the attempt holding it has gone stale (its process died or stalled);
 * the sweep hands a job again what sat pending past `idleMs` or was held past `staleMs`.
 */

import type { QueryFilter } from "mongoose";

/** The filter of an entry an attempt may take now. */
export function claimableFilter<T>(id: string, staleMs: number, now: Date): QueryFilter<T> {
  return {
    _id: id,
    $or: [{ status: "pending" }, { status: "sending", sendingSince: { $lt: new Date(now.getTime() - staleMs) } }],
  };
}

/** The filter of entries the sweep hands a job again. */
export function strandedFilter<T>(idleMs: number, staleMs: number, now = Date.now()): QueryFilter<T> {
  return {
    $or: [
      { status: "pending", updatedAt: { $lt: new Date(now - idleMs) } },
      { status: "sending", sendingSince: { $lt: new Date(now - staleMs) } },
    ],
  };
}
