import path from "node:path";
import { matchRoutes } from "@remix-run/react";

/**
 * The `route` label of the request metrics (server/metrics.ts): the Remix route id a path reaches,
 * or a fixed name for what the server answers itself, never the path, so ids in URLs do not
 * multiply the series.
 */

export type RouteMatch = { id: string; catchAll: boolean };

/** The server's own paths (server.ts), each its own label. */
const SERVER_PATHS = new Set(["/healthz", "/livez", "/metrics"]);

/** The label of a request's path: a server path, `static`, or the Remix route it reaches. */
export function labelOf(pathname: string, routeOf: (pathname: string) => RouteMatch | undefined) {
  if (SERVER_PATHS.has(pathname)) return pathname;
  if (pathname.startsWith("/build/")) return "static";
  if (pathname === "/dev/mail" || pathname.startsWith("/dev/mail.") || pathname.startsWith("/dev/mail/"))
    return "/dev/mail";
  if (pathname.startsWith("/__static/")) return "/__static";
  // Single fetch's data requests (`/parts.data`, `/_root.data` for `/`) belong to their page's route.
  const page = pathname === "/_root.data" ? "/" : pathname.endsWith(".data") ? pathname.slice(0, -5) : pathname;
  const match = routeOf(page);
  if (match && !match.catchAll) return match.id;
  // A file of public/ (served before Remix, or its 404 when missing).
  if (path.posix.extname(pathname)) return "static";
  return match?.id ?? "unmatched";
}

type Manifest = Record<
  string,
  { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean } | undefined
>;

/** The deepest route of the Remix build that a path matches, as Remix's own router ranks them. */
export function remixRouteMatcher(manifest: Manifest) {
  const entries = Object.values(manifest).filter((route): route is NonNullable<typeof route> => Boolean(route));
  type Route = Parameters<typeof matchRoutes>[0][number];
  const childrenOf = (parentId: string | undefined): Route[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map(
        (route) =>
          ({
            id: route.id,
            path: route.path,
            index: route.index,
            caseSensitive: route.caseSensitive,
            children: route.index ? undefined : childrenOf(route.id),
          }) as Route,
      );
  const tree = childrenOf(undefined);
  return (pathname: string): RouteMatch | undefined => {
    const deepest = matchRoutes(tree, pathname)?.at(-1)?.route;
    if (!deepest?.id) return undefined;
    // The 404 catch-all (`routes/$`): a splat right under the root.
    const parent = manifest[deepest.id]?.parentId;
    return { id: deepest.id, catchAll: deepest.path === "*" && (!parent || !manifest[parent]?.parentId) };
  };
}
