import { createCookieSessionStorage } from "@remix-run/node";
import { createSession, deleteOtherSessions, deleteSession } from "~/models/session.server";
import type { Role } from "~/models/user.server";
import { deviceSummary } from "~/domain/user-agent";
import { cookiesAreSecure, getEnv, siteCookieName } from "./env.server";

const env = getEnv();
const secure = cookiesAreSecure();
/** `__Host-session` over HTTPS, `__session` otherwise (server/security-headers.ts knows both). */
export const SESSION_COOKIE_NAME = siteCookieName("session", "__session");

/** Holds only the opaque id of a Session record (app/models/session.server.ts). */
export const authSessionStorage = createCookieSessionStorage<{ sessionId: string }>({
  cookie: {
    name: SESSION_COOKIE_NAME,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure,
    secrets: [env.SESSION_SECRET],
    // The longest a session can live (its record decides; README "Configuration").
    maxAge: env.SESSION_MAX_HOURS * 60 * 60,
  },
});

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE_NAME}=`);

export async function getSessionId(request: Request) {
  const cookie = request.headers.get("Cookie");
  // Most visitors carry no session: nothing to parse or verify.
  if (!cookie || !SESSION_COOKIE.test(cookie)) return null;
  const session = await authSessionStorage.getSession(cookie);
  const id = session.get("sessionId");
  return typeof id === "string" ? id : null;
}

export const MINUTE = 60 * 1000;

/**
 * How long a session lasts (ASVS 3.3.2): it ends after an idle time without a request, and at
 * the latest a fixed time after sign-in, however busy. Admins' are shorter (README "Configuration").
 */
export function sessionLimits(role: Role) {
  const env = getEnv();
  return role === "admin"
    ? { idleMs: env.ADMIN_SESSION_IDLE_MINUTES * MINUTE, maxMs: env.ADMIN_SESSION_MAX_HOURS * 60 * MINUTE }
    : { idleMs: env.SESSION_IDLE_MINUTES * MINUTE, maxMs: env.SESSION_MAX_HOURS * 60 * MINUTE };
}

/**
 * Starts a new session (a new id at every sign-in) and returns the Set-Cookie header. The session
 * keeps the device summary and the client address it started from.
 */
export async function startSession(
  request: Request,
  userId: string,
  context?: { clientIp?: string } | null,
  { endOthers = false }: { endOthers?: boolean } = {},
) {
  const previous = await getSessionId(request);
  if (previous) await deleteSession(previous);
  const sessionId = await createSession(userId, {
    device: deviceSummary(request.headers.get("User-Agent")),
    ip: context?.clientIp,
  });
  if (endOthers) await deleteOtherSessions(userId, sessionId);
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  session.set("sessionId", sessionId);
  return { "Set-Cookie": await authSessionStorage.commitSession(session) };
}

/** Deletes the session record and clears the cookie. */
export async function endSession(request: Request) {
  const sessionId = await getSessionId(request);
  if (sessionId) await deleteSession(sessionId);
  return clearSessionHeaders(request);
}

export async function clearSessionHeaders(request: Request) {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  return { "Set-Cookie": await authSessionStorage.destroySession(session) };
}
