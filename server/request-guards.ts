import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests from other origins (CSRF). Stripe's webhook is signed instead.
 * Every unsafe method must say where it comes from: browsers send Origin on every POST (and
 * Sec-Fetch-Site besides); a request with neither is refused, as is one from another scheme.
 *
 * The shop's public origin (PUBLIC_URL) is the reference, so a reverse proxy that rewrites Host
 * changes nothing; the origin this request was addressed to (scheme, Host) passes too. Remix runs a
 * second check of its own on document POSTs that compares Origin with Host (or X-Forwarded-Host);
 * this one is stricter and knows the public origin, so once it has passed, the Origin header is not
 * handed on and a rewritten Host cannot fail the form.
 */
export function sameOriginWrites({
  publicOrigin,
  isApiRoute,
}: {
  publicOrigin: string;
  /** Whether a normalised path is one of the API's routes (server.ts asks the Remix build). */
  isApiRoute: (pathname: string) => boolean;
}) {
  return function sameOriginWrites(req: Request, res: Response, next: NextFunction) {
    if (SAFE_METHODS.has(req.method)) return next();
    // Decided on the path as the router will see it: `/api/v1/../../dashboard/cart` is the cart.
    const pathname = normalisedPath(req.originalUrl);
    if (pathname === "/webhooks/stripe") return next();
    // The API is called by other systems with a key, never with the browser's cookies (its routes
    // read no session), so a forged cross-site request carries no credential it could use.
    const api = pathname.startsWith("/api/v1/");
    if (api && isApiRoute(pathname) && /^Bearer\s/i.test(req.get("authorization") ?? "")) return next();
    const origin = req.get("origin");
    const site = req.get("sec-fetch-site");
    const sameOrigin = origin
      ? origin === publicOrigin || origin === `${req.protocol}://${req.get("host")}`
      : site === "same-origin";
    if (!sameOrigin) {
      if (api) {
        res
          .status(401)
          .set("WWW-Authenticate", "Bearer")
          .type("application/problem+json")
          .send(
            JSON.stringify({
              type: "about:blank",
              title: "Unauthorized",
              status: 401,
              detail: "Send an API key as Authorization: Bearer …",
            }),
          );
        return;
      }
      res.status(403).type("text/plain").send("Cross-origin requests are not allowed.");
      return;
    }
    delete req.headers.origin;
    next();
  };
}

/**
 * The path as the Remix adapter parses it (dot segments, encoded or not, resolved): it appends the
 * request's target to the origin, so this does the same.
 */
export function normalisedPath(url: string) {
  try {
    return new URL(`http://shop.invalid${url}`).pathname;
  } catch {
    return "/";
  }
}

/**
 * Bodies larger than `limitBytes` are refused with 413 before anything reads them, on every route.
 * A body sent without Content-Length (chunked) is counted as it is read (app/services/form.server.ts).
 */
export function bodyLimit({ limitBytes }: { limitBytes: number }) {
  return function bodyLimit(req: Request, res: Response, next: NextFunction) {
    const length = Number(req.get("content-length") ?? 0);
    if (Number.isFinite(length) && length <= limitBytes) return next();
    // The body is read and dropped, so the client gets this answer instead of a reset connection.
    req.resume();
    res.status(413).type("text/plain").send("That request is too large.");
  };
}

/**
 * A body the answer did not wait for: an action that refused before reading it, a page with no
 * action (405). Remix's adapter reads the first chunks into the request's web stream and stops, so
 * the rest stays in the connection and the next request on it (a browser's next page, a client's
 * next call) is never read: it waits for the server's headers timeout, about a minute. Once the
 * answer has gone, what is left is read and dropped, up to `limitBytes` and `lingerMs` (a chunked
 * body has no length to refuse up front); past either, the connection is closed.
 */
export function unreadBodies({ limitBytes, lingerMs = 5000 }: { limitBytes: number; lingerMs?: number }) {
  return function unreadBodies(req: Request, res: Response, next: NextFunction) {
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if (hasBody) res.once("finish", () => dropTheRest(req, limitBytes, lingerMs));
    next();
  };
}

function dropTheRest(req: Request, limitBytes: number, lingerMs: number) {
  if (req.readableEnded || req.destroyed) return;
  const close = () => req.socket.destroy();
  const timer = setTimeout(close, lingerMs).unref();
  // Whatever was reading it (the request's web stream) gets nothing more; the bytes are counted and dropped.
  req.removeAllListeners("data");
  let left = limitBytes;
  req.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) close();
  });
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

/** Methods the shop answers; TRACE, CONNECT and any other get 405 before Remix (which cannot build a Request for TRACE). */
const KNOWN_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

export function knownMethods() {
  return function knownMethods(req: Request, res: Response, next: NextFunction) {
    if (KNOWN_METHODS.has(req.method)) return next();
    res.status(405).set("Allow", "GET, HEAD, POST");
    if (req.path.startsWith("/api/v1/")) {
      res.type("application/problem+json").send(
        JSON.stringify({
          type: "about:blank",
          title: "Method Not Allowed",
          status: 405,
          detail: "Method not allowed.",
        }),
      );
      return;
    }
    res.type("text/plain").send("Method not allowed.");
  };
}

type RouteManifest = Record<string, { id: string; parentId?: string; path?: string; index?: boolean } | undefined>;

/**
 * A test of whether a normalised path is one of the API's routes (`/api/v1/...`), made from the
 * Remix build's route manifest: each route's full path joined from its parents', `:param` as one
 * segment. Written here because the router's matcher is not a dependency of the shop's own.
 */
export function apiRouteMatcher(routes: RouteManifest) {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return "";
    return [fullPath(route.parentId), route.path ?? ""].filter(Boolean).join("/");
  };
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const patterns = Object.values(routes)
    .filter((route): route is NonNullable<typeof route> => Boolean(route))
    .map((route) => `/${fullPath(route.id)}`)
    .filter((path) => path.startsWith("/api/v1/"))
    .map((path) => {
      const segments = path.split("/").map((segment) => {
        if (segment === "*") return ".*";
        if (segment.startsWith(":")) return segment.endsWith("?") ? "[^/]*" : "[^/]+";
        return escape(segment);
      });
      return new RegExp(`^${segments.join("/")}/?$`);
    });
  return (pathname: string) => patterns.some((pattern) => pattern.test(pathname));
}
