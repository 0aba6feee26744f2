import { redirect } from "@remix-run/node";
import { deleteSession, getLiveSession, touchSession } from "~/models/session.server";
import { getUserById, type UserView } from "~/models/user.server";
import { memoizedForRequest, noteRequestUser } from "../../server/request-context";
import { isDbFullError } from "./db.server";
import { clearSessionHeaders, getSessionId, MINUTE, sessionLimits } from "./session-cookie.server";
import { redirectWithError } from "./toast.server";

/**
 * The signed-in user, read from the database on every request (role included), or null. The
 * loaders of one GET share one read (server/request-context.ts). A session past its idle timeout
 * or its lifetime ends here.
 */
export async function getUser(request: Request): Promise<UserView | null> {
  const sessionId = await getSessionId(request);
  if (!sessionId) return null;
  return memoizedForRequest(`user:${sessionId}`, async () => {
    const session = await getLiveSession(sessionId);
    if (!session) return null;
    const user = await getUserById(session.userId);
    if (!user) return null;
    const { idleMs, maxMs } = sessionLimits(user.role);
    const now = Date.now();
    const endsAt = session.startedAt + maxMs;
    if (now >= session.lastSeenAt + idleMs || now >= endsAt) {
      await deleteSession(sessionId);
      return null;
    }
    // Written at most once a minute (or a tenth of the idle time), not on every request.
    if (now - session.lastSeenAt >= Math.min(MINUTE, idleMs / 10)) {
      // A database that refuses writes for want of disk space still lets people read their pages.
      await touchSession(sessionId, new Date(Math.min(now + idleMs, endsAt))).catch((error: unknown) => {
        if (!isDbFullError(error)) throw error;
      });
    }
    noteRequestUser(user.id);
    return user;
  });
}

function currentPath(request: Request) {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
}

/** Sends a visitor without a live session to /login, to come back here afterwards. */
export async function requireUser(request: Request, { redirectTo }: { redirectTo?: string } = {}) {
  const user = await getUser(request);
  if (!user) {
    const back = redirectTo ?? currentPath(request);
    const params = new URLSearchParams({ redirectTo: back });
    throw redirect(`/login?${params}`, { headers: await clearSessionHeaders(request) });
  }
  return user;
}

/**
 * My Orders (spec 4): a cookie that names an expired or revoked session signs the user out (the
 * record and the cookie go) and sends them to the home page. Without any session cookie the
 * visitor is sent to /login like on every other dashboard screen.
 */
export async function requireUserOrSignOutHome(request: Request) {
  const sessionId = await getSessionId(request);
  if (!sessionId) return requireUser(request);
  const user = await getUser(request);
  if (!user) {
    await deleteSession(sessionId);
    throw redirect("/", { headers: await clearSessionHeaders(request) });
  }
  return user;
}

/** My Orders: requireUserOrSignOutHome, and an admin goes to the dashboard (spec 6). */
export async function requireCustomerOrSignOutHome(request: Request) {
  const user = await requireUserOrSignOutHome(request);
  if (user.role === "admin") throw redirect("/dashboard");
  return user;
}

/** Admin screens: anyone else is signed out and sent to /login with a toast saying why (spec 4). */
export async function requireAdmin(request: Request) {
  const user = await requireUser(request);
  if (user.role !== "admin") {
    const sessionId = await getSessionId(request);
    if (sessionId) await deleteSession(sessionId);
    throw await redirectWithError("/login", "That page is for admins only, so you have been signed out.", {
      headers: await clearSessionHeaders(request),
    });
  }
  return user;
}

/** Customer screens (My Orders, Add A Review): an admin goes to the dashboard. */
export async function requireCustomer(request: Request) {
  const user = await requireUser(request);
  if (user.role === "admin") throw redirect("/dashboard");
  return user;
}

/** Sign-in and sign-up pages: a visitor who is signed in already goes on to `to`. */
export async function requireAnonymous(request: Request, to: string) {
  if (await getUser(request)) throw redirect(to);
}
