import {
  createCookie,
  createCookieSessionStorage,
  redirect,
  type AppLoadContext,
  type CookieOptions,
} from "@remix-run/node";
import { Authenticator, AuthorizationError, type StrategyVerifyCallback } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { GoogleStrategy, type GoogleProfile, type GoogleStrategyOptions } from "remix-auth-google";
import type { OAuth2StrategyVerifyParams } from "remix-auth-oauth2";
import { redirectWithError } from "~/utils/toast.server";
import {
  createSession,
  deleteOtherSessions,
  deleteSession,
  getLiveSession,
  touchSession,
} from "~/models/session.server";
import {
  findOrCreateGoogleUser,
  getUserById,
  getUserWithPasswordHash,
  GoogleAccountConflictError,
  GoogleAccountNeedsProofError,
  GoogleAccountUnverifiedError,
  linkGoogleAccount,
  type Role,
  type UserView,
} from "~/models/user.server";
import { googlePicture } from "~/domain/avatar";
import { getEnv, isGoogleConfigured } from "./env.server";
import { hashPassword, verifyPassword } from "./password.server";
import { memoizedForRequest, noteRequestUser } from "../../server/request-context";
import { authSessionStorage } from "./session.server";

const SESSION_COOKIE = /(?:^|;\s*)__session=/;

export async function getSessionId(request: Request) {
  const cookie = request.headers.get("Cookie");
  // Most visitors carry no session: nothing to parse or verify.
  if (!cookie || !SESSION_COOKIE.test(cookie)) return null;
  const session = await authSessionStorage.getSession(cookie);
  const id = session.get("sessionId");
  return typeof id === "string" ? id : null;
}

const MINUTE = 60 * 1000;

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
      await touchSession(sessionId, new Date(Math.min(now + idleMs, endsAt)));
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

/**
 * A short label of the browser and system ("Firefox on Windows") for "Your sessions". A full
 * user-agent parser would be one more package for a label nobody relies on, hence these few tests.
 */
export function deviceSummary(userAgent: string | null) {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : null;
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad|iPod/.test(ua)
      ? "iOS"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /CrOS/.test(ua)
            ? "ChromeOS"
            : /Linux/.test(ua)
              ? "Linux"
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
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

async function clearSessionHeaders(request: Request) {
  const session = await authSessionStorage.getSession(request.headers.get("Cookie"));
  return { "Set-Cookie": await authSessionStorage.destroySession(session) };
}

// --- Sign-in with remix-auth ------------------------------------------------------------------

/** The one message for every failed password sign-in: it never tells whether the email exists. */
export const INVALID_LOGIN = "Invalid email or password";

const env = getEnv();
const secure = env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:");
const OAUTH_COOKIE_MAX_AGE = 10 * 60;

/** The Google sign-in cookies: short-lived, signed, and sent only to /auth/google*. */
const OAUTH_COOKIE: CookieOptions = {
  httpOnly: true,
  sameSite: "lax",
  path: "/auth/google",
  secure,
  secrets: [env.SESSION_SECRET],
  maxAge: OAUTH_COOKIE_MAX_AGE,
};

/**
 * remix-auth keeps the OAuth `state` here, separate from the sign-in session (which holds nothing
 * but the opaque session id).
 */
const oauthStateStorage = createCookieSessionStorage({ cookie: { name: "__google_oauth", ...OAUTH_COOKIE } });

/** Where to go after Google sign-in; waits here while the user is at Google. */
const googleRedirectCookie = createCookie("__google_redirect", OAUTH_COOKIE);

/**
 * remix-auth-google with its three Google endpoints taken from configuration when set
 * (GOOGLE_AUTHORIZATION_URL, GOOGLE_TOKEN_URL, GOOGLE_USERINFO_URL): the tests point it at a
 * local OAuth2 server; in production they are unset and Google's own endpoints are used.
 */
class ConfigurableGoogleStrategy<User> extends GoogleStrategy<User> {
  constructor(
    options: GoogleStrategyOptions & { authorizationURL?: string; tokenURL?: string; userInfoURL?: string },
    verify: StrategyVerifyCallback<User, OAuth2StrategyVerifyParams<GoogleProfile, Record<string, string | number>>>,
  ) {
    super(options, verify);
    if (options.authorizationURL) this.authorizationURL = options.authorizationURL;
    if (options.tokenURL) this.tokenURL = options.tokenURL;
    // remix-auth-google declares it private, but reads it on every profile request.
    if (options.userInfoURL) (this as unknown as { userInfoURL: string }).userInfoURL = options.userInfoURL;
  }
}

/** Why a Google sign-in did not complete; the login page explains each one. */
export type GoogleFailure =
  "cancelled" | "failed" | "unverified" | "conflict" | "unavailable" | "unverified-account" | "link-needed";

type PendingGoogleLink = { googleId: string; email: string; photoUrl?: string };

class GoogleSignInError extends Error {
  constructor(
    readonly reason: GoogleFailure,
    readonly link?: PendingGoogleLink,
  ) {
    super(`Google sign-in ${reason}`);
  }
}

/**
 * A Google identity waiting to be linked to the password account with its email: kept (signed,
 * ten minutes, sent only to /login) until the owner signs in there with the password once.
 */
const googleLinkCookie = createCookie("__google_link", { ...OAUTH_COOKIE, path: "/login" });

async function pendingGoogleLink(request: Request): Promise<PendingGoogleLink | null> {
  const value: unknown = await googleLinkCookie.parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { googleId, email, photoUrl } = value as Record<string, unknown>;
  if (typeof googleId !== "string" || typeof email !== "string") return null;
  return { googleId, email, photoUrl: typeof photoUrl === "string" ? photoUrl : undefined };
}

/** Whether a Google sign-in is waiting for this browser's password sign-in (the login page says so). */
export async function hasPendingGoogleLink(request: Request) {
  return (await pendingGoogleLink(request)) !== null;
}

/**
 * After a password sign-in: links the Google identity waiting in this browser when it is for this
 * account's email (the password proved ownership). Returns whether it linked, and the Set-Cookie
 * that clears the waiting link either way. The caller ends every other session on a link.
 */
export async function linkPendingGoogle(request: Request, user: UserView) {
  const link = await pendingGoogleLink(request);
  if (!link) return { linked: false, clearCookie: null };
  const clearCookie = await googleLinkCookie.serialize("", { maxAge: 0 });
  const linked = link.email === user.email && (await linkGoogleAccount(user.id, link));
  return { linked, clearCookie };
}

let dummyHash: Promise<string> | undefined;

/** The user for this email and password, or null. Takes about as long either way. */
export async function verifyLogin(email: string, password: string) {
  const found = await getUserWithPasswordHash(email);
  if (!found?.passwordHash) {
    // Unknown email or a Google-only account: spend the same hashing time, then fail the same way.
    dummyHash ??= hashPassword("not-a-real-password-0000");
    await verifyPassword(await dummyHash, password);
    return null;
  }
  return (await verifyPassword(found.passwordHash, password)) ? found.user : null;
}

async function verifyGoogleProfile({ profile }: { profile: GoogleProfile }) {
  const raw: Record<string, unknown> = profile._json ?? {};
  const email = typeof raw.email === "string" ? raw.email.trim().toLowerCase() : "";
  if (typeof raw.sub !== "string" || !raw.sub || !email || email.length > 254) {
    throw new GoogleSignInError("failed");
  }
  if (raw.email_verified !== true && raw.email_verified !== "true") throw new GoogleSignInError("unverified");
  const displayName = typeof raw.name === "string" ? raw.name.trim().slice(0, 100) : "";
  try {
    return await findOrCreateGoogleUser({
      googleId: raw.sub,
      email,
      name: displayName || email.split("@")[0].slice(0, 100),
      photoUrl: googlePicture(raw.picture) ?? undefined,
    });
  } catch (error) {
    if (error instanceof GoogleAccountConflictError) throw new GoogleSignInError("conflict");
    if (error instanceof GoogleAccountUnverifiedError) throw new GoogleSignInError("unverified-account");
    if (error instanceof GoogleAccountNeedsProofError) {
      throw new GoogleSignInError("link-needed", {
        googleId: raw.sub,
        email,
        photoUrl: googlePicture(raw.picture) ?? undefined,
      });
    }
    throw error;
  }
}

let authenticator: Authenticator<UserView> | undefined;

function getAuthenticator() {
  if (authenticator) return authenticator;
  authenticator = new Authenticator<UserView>(oauthStateStorage);
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const user = await verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      if (!user) throw new Error(INVALID_LOGIN);
      return user;
    }),
    "form",
  );
  if (isGoogleConfigured(env)) {
    authenticator.use(
      new ConfigurableGoogleStrategy(
        {
          clientID: env.GOOGLE_CLIENT_ID!,
          clientSecret: env.GOOGLE_CLIENT_SECRET!,
          callbackURL: new URL("/auth/google/callback", env.PUBLIC_URL).toString(),
          authorizationURL: env.GOOGLE_AUTHORIZATION_URL,
          tokenURL: env.GOOGLE_TOKEN_URL,
          userInfoURL: env.GOOGLE_USERINFO_URL,
          prompt: "select_account",
        },
        verifyGoogleProfile,
      ),
      "google",
    );
  }
  return authenticator;
}

/** The Cookie header only: the strategies read the URL and cookies, never the (consumed) body. */
function bodylessCopy(request: Request, method: "GET" | "POST") {
  return new Request(request.url, { method, headers: { Cookie: request.headers.get("Cookie") ?? "" } });
}

/**
 * Email and password sign-in through remix-auth's FormStrategy. `formData` is the already parsed
 * form (its email and password passed the schema). Returns the user, or null for a wrong password,
 * an unknown email or a Google-only account alike.
 */
export async function authenticateWithPassword(request: Request, formData: FormData, context: AppLoadContext) {
  try {
    return await getAuthenticator().authenticate("form", bodylessCopy(request, "POST"), {
      throwOnError: true,
      context: { ...context, formData },
    });
  } catch (error) {
    if (error instanceof AuthorizationError) return null;
    throw error;
  }
}

export const isGoogleSignInAvailable = () => isGoogleConfigured(env);

/**
 * Starts Google sign-in: the redirect to Google (remix-auth sets the `state` cookie) with the
 * page to return to kept in a short-lived cookie.
 */
export async function startGoogleSignIn(request: Request, redirectTo: string) {
  try {
    await getAuthenticator().authenticate("google", bodylessCopy(request, "GET"));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      thrown.headers.append("Set-Cookie", await googleRedirectCookie.serialize(redirectTo));
      return thrown;
    }
    throw thrown;
  }
  throw new Error("Google sign-in did not redirect to Google");
}

/**
 * Completes Google sign-in on the callback. Returns the user or the reason it failed, the page
 * to go back to, and the Set-Cookie headers that clear the short-lived OAuth cookies.
 */
export async function finishGoogleSignIn(request: Request): Promise<{
  result: { user: UserView } | { failure: GoogleFailure };
  redirectTo: unknown;
  clearCookies: string[];
}> {
  const cookieHeader = request.headers.get("Cookie");
  const redirectTo = await googleRedirectCookie.parse(cookieHeader);
  const clearCookies = [
    await oauthStateStorage.destroySession(await oauthStateStorage.getSession(cookieHeader)),
    await googleRedirectCookie.serialize("", { maxAge: 0 }),
  ];
  if (!isGoogleSignInAvailable()) return { result: { failure: "unavailable" }, redirectTo, clearCookies };
  try {
    const user = await getAuthenticator().authenticate("google", bodylessCopy(request, "GET"), {
      throwOnError: true,
    });
    return { result: { user }, redirectTo, clearCookies };
  } catch (error) {
    if (error instanceof Response) throw error;
    const cause = error instanceof AuthorizationError ? error.cause : error;
    let failure: GoogleFailure = "failed";
    if (cause instanceof GoogleSignInError) {
      failure = cause.reason;
      if (cause.link) clearCookies.push(await googleLinkCookie.serialize(cause.link));
    } else if (new URL(request.url).searchParams.get("error") === "access_denied") failure = "cancelled";
    else console.error("Google sign-in failed:", error instanceof Error ? error.message : error);
    return { result: { failure }, redirectTo, clearCookies };
  }
}
