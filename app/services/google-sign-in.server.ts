import { createCookie, createCookieSessionStorage, type CookieOptions } from "@remix-run/node";
import { Authenticator, AuthorizationError, type StrategyVerifyCallback } from "remix-auth";
import { GoogleStrategy, type GoogleProfile, type GoogleStrategyOptions } from "remix-auth-google";
import type { OAuth2StrategyVerifyParams } from "remix-auth-oauth2";
import {
  findOrCreateGoogleUser,
  GoogleAccountConflictError,
  GoogleAccountNeedsProofError,
  GoogleAccountUnverifiedError,
  linkGoogleAccount,
} from "~/models/user-credentials.server";
import { type UserView } from "~/models/user.server";
import { googlePicture } from "~/domain/avatar";
import { getEnv, isGoogleConfigured, siteCookieName } from "./env.server";
import { bodylessCopy } from "./sign-in.server";
import { logFailure } from "../../server/request-context";

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
 * ten minutes) until the owner signs in at /login with the password once. Its path is the whole
 * site: with JavaScript the form posts to /login.data, which a cookie for /login is not sent to.
 */
const googleLinkCookie = createCookie(siteCookieName("google_link", "__google_link"), { ...OAUTH_COOKIE, path: "/" });

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

let googleAuthenticator: Authenticator<UserView> | undefined;

function getGoogleAuthenticator() {
  if (googleAuthenticator) return googleAuthenticator;
  googleAuthenticator = new Authenticator<UserView>(oauthStateStorage);
  if (isGoogleConfigured(env)) {
    googleAuthenticator.use(
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
  return googleAuthenticator;
}

export const isGoogleSignInAvailable = () => isGoogleConfigured(env);

/**
 * Starts Google sign-in: the redirect to Google (remix-auth sets the `state` cookie) with the
 * page to return to kept in a short-lived cookie.
 */
export async function startGoogleSignIn(request: Request, redirectTo: string) {
  try {
    await getGoogleAuthenticator().authenticate("google", bodylessCopy(request, "GET"));
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
    const user = await getGoogleAuthenticator().authenticate("google", bodylessCopy(request, "GET"), {
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
    else logFailure("Google sign-in failed", error);
    return { result: { failure }, redirectTo, clearCookies };
  }
}
