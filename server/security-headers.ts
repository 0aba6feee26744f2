import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";

/**
 * The pay screen (app/routes/dashboard.payment.$id.tsx) is the only page that talks to Stripe: the
 * Payment Element needs Stripe.js, its frames (card fields, 3-D Secure) and API, and the no-JS
 * form goes on to Stripe Checkout. Client-side navigations to it become full page loads, so it
 * always gets this policy. The return page after paying asks Stripe from the server only.
 */
const PAY_SCREEN = /^\/dashboard\/payment\/[^/]+\/?$/;
const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  formAction: ["https://checkout.stripe.com"],
};

type Res = ServerResponse & { locals: Record<string, unknown> };
const nonceOf = (res: ServerResponse) => `'nonce-${(res as Res).locals.cspNonce}'`;
const onPayScreen = (req: IncomingMessage) => PAY_SCREEN.test((req as Request).path ?? req.url ?? "");
/** A helmet function directive: `base`, and Stripe's `extra` sources on the pay screen only. */
const plusStripeOnPayScreen = (base: string[], extra: string[]) => (req: IncomingMessage) =>
  (onPayScreen(req) ? [...base, ...extra] : base).join(" ");

/** A fresh nonce for each response: the page's scripts carry it, and the CSP admits only them. */
export function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
}

export function securityHeaders({
  https,
  dev,
  googleAuthorizationOrigin,
}: {
  https: boolean;
  dev: boolean;
  /** Where the Google button's form ends up (a redirect from /auth/google), when configured. */
  googleAuthorizationOrigin: string | null;
}) {
  const devSources = dev ? ["ws://localhost:*", "http://localhost:*"] : [];
  const rest = {
    // Stripe's and OpenStreetMap's frames are not served with CORP headers: requiring them would break both.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
  } as const;
  const policy = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          plusStripeOnPayScreen(["'self'"], STRIPE.script),
          (_req, res) => nonceOf(res),
          ...(dev ? ["'unsafe-inline'"] : []),
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "https:"],
        fontSrc: ["'self'"],
        connectSrc: [plusStripeOnPayScreen(["'self'"], STRIPE.connect), ...devSources],
        frameSrc: [plusStripeOnPayScreen(["https://www.openstreetmap.org"], STRIPE.frame)],
        frameAncestors: ["'none'"],
        formAction: [
          plusStripeOnPayScreen(["'self'"], STRIPE.formAction),
          ...(googleAuthorizationOrigin ? [googleAuthorizationOrigin] : []),
        ],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    ...rest,
  });
  // Profile pictures (app/routes/avatars.$name.tsx) send their own closed CSP and nosniff: one of each.
  const filePolicy = helmet({ ...rest, contentSecurityPolicy: false, xContentTypeOptions: false });
  return function securityHeaders(req: Request, res: Response, next: NextFunction) {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (req.path.startsWith("/avatars/")) return filePolicy(req, res, next);
    policy(req, res, next);
  };
}

/** The session cookie by either of its names (`__Host-session` over HTTPS: app/services/session-cookie.server.ts). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__session|__Host-session)=/;

/**
 * Any answer to a signed-in browser, or one that sets a cookie, may carry that person's data (the
 * navbar's name on a 404, the root loader's user in `/_root.data`): no cache stores it, and a
 * shared cache keeps anonymous copies apart by Cookie. Applied as the headers go out, so it wins
 * over whatever a page's own headers said (one Cache-Control header, never two).
 */
export function privateAnswers(req: Request, res: Response, next: NextFunction) {
  // Profile pictures: a new upload gets a new name, the same file for everyone (cached a year).
  if (req.path.startsWith("/avatars/")) return next();
  const signedIn = SESSION_COOKIE.test(req.get("cookie") ?? "");
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
    if (signedIn || res.hasHeader("set-cookie")) {
      res.setHeader("Cache-Control", "private, no-store");
      res.vary("Cookie");
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}
