import type { ServerBuild } from "@remix-run/node";
import { CANNOT_SAVE } from "../shared/outage-words";

/**
 * Honest answers while the database is away. A loader or action that fails because the database
 * cannot be reached throws a 503 with Retry-After instead, which the shop's error page renders
 * ("We'll be right back", with the request id). From then on every loader and action answers 503
 * at once, without waiting for the database, until a probe (every `probeMs`) reaches it again: no
 * restart is needed, and requests do not pile up behind an outage.
 *
 * A frozen database (it accepts connections and never answers) is found by the heartbeat
 * (`start`): a probe every `heartbeatMs` that gets no answer within its deadline while nothing else
 * has answered for `stallMs` either (`lastAnswerAt`) makes the database away, and the requests
 * already waiting on it are answered 503 at that moment. A database that is only busy keeps
 * answering, so slow operations run to the end: no short deadline on every operation decides it.
 * An operation past its (generous) ceiling, or a request that found no free connection (`isBusy`),
 * answers 503 and asks the heartbeat at once. A disk too full to write (`isFull`) answers 503 for
 * changes only: reads go on, and it is reported once in the log and on Shop Today until
 * `writeProbe` succeeds again.
 *
 * An action's 503 says whether it may have changed something: refused before it ran, nothing was
 * saved; failed while it ran, it may have been (an order, say), and the page says where to look.
 */
export const RETRY_AFTER_SECONDS = 5;

type Logger = { warn: (msg: string) => void; info: (msg: string) => void };

export type StorageProblem = "disk full" | null;

// Short enough for the error page to show (app/components/error-boundary.tsx).
const NOTHING_SAVED = "Nothing was saved: please try again in a minute.";
const MAYBE_SAVED = "What you sent may have been saved: check My Orders before you send it again.";

export function dbOutageGuard({
  isUnavailable,
  isBusy = () => false,
  isFull = () => false,
  probe,
  writeProbe = probe,
  lastAnswerAt,
  stallMs = 800,
  heartbeatMs = 150,
  logger,
  probeMs = 500,
}: {
  /** When the database last answered anything: nothing for `stallMs` means it is frozen, not busy. */
  lastAnswerAt?: () => number;
  /** How long the database may answer nothing at all, a probe included (DB_STALL_MS). */
  stallMs?: number;
  /** How often the heartbeat probes while the database is up. */
  heartbeatMs?: number;
  isUnavailable: (error: unknown) => boolean;
  isBusy?: (error: unknown) => boolean;
  isFull?: (error: unknown) => boolean;
  /** True when the database answers (within its own deadline: `stallMs` at most). */
  probe: () => Promise<boolean>;
  /** True when the database takes writes again (after a full disk). */
  writeProbe?: () => Promise<boolean>;
  logger: Logger;
  probeMs?: number;
}) {
  let down = false;
  let storage: StorageProblem = null;

  async function watch() {
    const since = Date.now();
    while (down) {
      await new Promise((resolve) => setTimeout(resolve, probeMs));
      if (await probe().catch(() => false)) {
        down = false;
        logger.info(`database reachable again after ${Math.round((Date.now() - since) / 1000)} s: serving again`);
      }
    }
  }

  async function watchStorage() {
    while (storage) {
      await new Promise((resolve) => setTimeout(resolve, probeMs * 4));
      if (await writeProbe().catch(() => false)) clearFull();
    }
  }

  function clearFull() {
    if (!storage) return;
    storage = null;
    logger.info("database disk has space again: saving again");
  }

  // Requests already waiting on the database when it is found away are answered at once too,
  // rather than each after its own deadline (their database calls end by themselves later).
  const waiting = new Set<() => void>();
  const GONE = Symbol("database away");
  function untilDown() {
    let stop = () => {};
    const gone = new Promise<never>((_, reject) => {
      const wake = () => reject(GONE);
      waiting.add(wake);
      stop = () => waiting.delete(wake);
    });
    return { gone, stop };
  }

  function markDown() {
    if (down) return;
    down = true;
    for (const wake of waiting) wake();
    waiting.clear();
    logger.warn("database unreachable: pages and actions answer 503 until it is back");
    void watch();
  }

  /**
   * Asks the database now: down only when the probe gets no answer and nothing else has answered
   * for `stallMs` either, so a busy moment (a ping behind a long query) is not an outage.
   */
  let probing = false;
  async function heartbeat() {
    if (down || probing) return;
    probing = true;
    try {
      const answered = await probe().catch(() => false);
      if (!answered && !down && (!lastAnswerAt || Date.now() - lastAnswerAt() >= stallMs)) markDown();
    } finally {
      probing = false;
    }
  }
  function suspect() {
    void heartbeat();
  }
  let beating: NodeJS.Timeout | undefined;

  function markFull() {
    if (storage) return;
    storage = "disk full";
    logger.warn("database disk full: changes answer 503 until space is freed (pages still show)");
    void watchStorage();
  }

  const unavailable = (detail: string) =>
    new Response(`The shop is briefly unavailable while we fix a problem. ${detail}`, {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
    });
  const full = (detail: string) =>
    new Response(`${CANNOT_SAVE}: its database's disk is full. ${detail}`, {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS * 6), "Cache-Control": "no-store" },
    });

  function guard<Args extends unknown[], Result>(
    fn: (...args: Args) => Promise<Result> | Result,
    { changes }: { changes: boolean },
  ) {
    const ran = changes ? MAYBE_SAVED : "Please try again in a minute.";
    const refused = changes ? NOTHING_SAVED : "Please try again in a minute.";
    return async (...args: Args): Promise<Result> => {
      if (down) throw unavailable(refused);
      const { gone, stop } = untilDown();
      try {
        const result = await Promise.race([fn(...args), gone]);
        settleDeferred(result);
        return result;
      } catch (error) {
        if (error === GONE) throw unavailable(ran);
        if (isFull(error)) {
          markFull();
          throw full(ran);
        }
        if (isBusy(error)) {
          suspect();
          throw unavailable(ran);
        }
        if (!isUnavailable(error)) throw error;
        markDown();
        throw unavailable(ran);
      } finally {
        stop();
      }
    };
  }

  /**
   * A loader's streamed values (promises in what it returns, like the home page's reviews) are
   * never awaited when another loader of the page fails; one rejected by an outage is noted here,
   * not left unhandled. Remix still gets the rejection where it does await it.
   */
  function settleDeferred(result: unknown) {
    if (!result || typeof result !== "object") return;
    const values = "data" in result && result.data && typeof result.data === "object" ? result.data : result;
    for (const value of Object.values(values))
      if (value instanceof Promise)
        value.catch((error: unknown) => {
          if (isFull(error)) markFull();
          else if (isBusy(error)) suspect();
          else if (isUnavailable(error)) markDown();
        });
  }

  return {
    /** Starts the heartbeat (a probe every `heartbeatMs` while the database is up). */
    start() {
      beating ??= setInterval(() => void heartbeat(), heartbeatMs);
      beating.unref();
    },
    stop() {
      clearInterval(beating);
      beating = undefined;
    },
    get down() {
      return down;
    },
    /** `work`'s outcome, or a rejection the moment the database is found away. */
    async whileUp<T>(work: Promise<T>): Promise<T> {
      if (down) throw new Error("database unavailable");
      const { gone, stop } = untilDown();
      try {
        return await Promise.race([work, gone]);
      } catch (error) {
        if (error === GONE) throw new Error("database unavailable");
        throw error;
      } finally {
        stop();
      }
    },
    /** What keeps the database from taking writes while it answers reads (for /healthz and Shop Today). */
    get storage() {
      return storage;
    },
    /**
     * Reports a health check: a full disk is noted at once; one that did not answer in time asks
     * the heartbeat (a busy database is not an outage).
     */
    noteHealth(problem: "unavailable" | "disk full" | "read-only" | null) {
      if (problem === "disk full") markFull();
      else if (problem === "unavailable") suspect();
      else if (problem === null) clearFull();
    },
    /** Reports an error seen elsewhere (outside Remix): true when it means the database is away. */
    noteError(error: unknown) {
      if (isFull(error)) {
        markFull();
        return true;
      }
      if (isBusy(error)) {
        suspect();
        return true;
      }
      if (!isUnavailable(error)) return false;
      markDown();
      return true;
    },
    /** The build with every route's loader and action guarded. */
    wrapBuild(build: ServerBuild): ServerBuild {
      const routes: ServerBuild["routes"] = {};
      for (const [id, route] of Object.entries(build.routes)) {
        const { loader, action } = route.module;
        routes[id] = {
          ...route,
          module: {
            ...route.module,
            ...(loader ? { loader: guard(loader, { changes: false }) } : {}),
            ...(action ? { action: guard(action, { changes: true }) } : {}),
          },
        };
      }
      return { ...build, routes };
    },
  };
}
