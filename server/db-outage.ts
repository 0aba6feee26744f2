import type { ServerBuild } from "@remix-run/node";

/**
 * Honest answers while the database is away. A loader or action that fails because the database
 * cannot be reached throws a 503 with Retry-After instead, which the shop's error page renders
 * ("We'll be right back", with the request id). From then on every loader and action answers 503
 * at once, without waiting for the database, until a probe (every `probeMs`) reaches it again: no
 * restart is needed, and requests do not pile up behind an outage.
 */
export const RETRY_AFTER_SECONDS = 5;

type Logger = { warn: (msg: string) => void; info: (msg: string) => void };

export function dbOutageGuard({
  isUnavailable,
  probe,
  logger,
  probeMs = 500,
}: {
  isUnavailable: (error: unknown) => boolean;
  /** True when the database answers again. */
  probe: () => Promise<boolean>;
  logger: Logger;
  probeMs?: number;
}) {
  let down = false;

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

  function markDown() {
    if (down) return;
    down = true;
    logger.warn("database unreachable: pages and actions answer 503 until it is back");
    void watch();
  }

  const unavailable = () =>
    new Response("The shop is briefly unavailable while we fix a problem. Please try again in a minute.", {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
    });

  function guard<Args extends unknown[], Result>(fn: (...args: Args) => Promise<Result> | Result) {
    return async (...args: Args): Promise<Result> => {
      if (down) throw unavailable();
      try {
        return await fn(...args);
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        markDown();
        throw unavailable();
      }
    };
  }

  return {
    get down() {
      return down;
    },
    /** Reports an error seen elsewhere (outside Remix): true when it means the database is away. */
    noteError(error: unknown) {
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
            ...(loader ? { loader: guard(loader) } : {}),
            ...(action ? { action: guard(action) } : {}),
          },
        };
      }
      return { ...build, routes };
    },
  };
}
