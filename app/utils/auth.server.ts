import { redirect } from "@remix-run/node";
import { redirectWithError } from "remix-toast";
import { createSession, deleteSession, getSessionUserId } from "~/models/session.server";
import { getUserById, type UserView } from "~/models/user.server";
import { authSessionStorage } from "./session.server";

export async function getSessionId(request: Request) {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  const id = session.get("sessionId");
  return typeof id === "string" ? id : null;
}

/** The signed-in user, read from the database on every request (role included), or null. */
export async function getUser(request: Request): Promise<UserView | null> {
  const sessionId = await getSessionId(request);
  if (!sessionId) return null;
  const userId = await getSessionUserId(sessionId);
  if (!userId) return null;
  return getUserById(userId);
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

/** Admin screens: anyone else is signed out and sent to /login with a toast saying why (spec 4). */
export async function requireAdmin(request: Request) {
  const user = await requireUser(request);
  if (user.role !== "admin") {
    const sessionId = await getSessionId(request);
    if (sessionId) await deleteSession(sessionId);
    throw await redirectWithError(
      "/login",
      "That page is for admins only, so you have been signed out.",
      { headers: await clearSessionHeaders(request) },
    );
  }
  return user;
}

/** Customer screens (My Orders, Add A Review): an admin goes to the dashboard. */
export async function requireCustomer(request: Request) {
  const user = await requireUser(request);
  if (user.role === "admin") throw redirect("/dashboard");
  return user;
}

/** Starts a new session (a new id at every sign-in) and returns the Set-Cookie header. */
export async function startSession(request: Request, userId: string) {
  const previous = await getSessionId(request);
  if (previous) await deleteSession(previous);
  const sessionId = await createSession(userId);
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

async function clearSessionHeaders(request: Request) {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  return { "Set-Cookie": await authSessionStorage.destroySession(session) };
}
