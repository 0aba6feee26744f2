/**
 * Toasts after redirects (remix-toast), kept in our own signed cookie.
 *
 * remix-toast 1.2's default cookie is not signed at all (its signing function appends a dot), so
 * anyone could plant a toast of their own making. Its utilities bound to a session storage of ours
 * sign the cookie with SESSION_SECRET like the session cookie.
 *
 * Server code only: imported through this `.server` module, remix-toast (with zod and its cookie
 * code) never reaches the browser bundle.
 */
import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { cookiesAreSecure, getEnv, siteCookieName } from "./env.server";

const env = getEnv();

const TOAST_COOKIE_NAME = siteCookieName("toast", "toast");

export const toastSessionStorage = createCookieSessionStorage({
  cookie: {
    name: TOAST_COOKIE_NAME,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: cookiesAreSecure(),
    secrets: [env.SESSION_SECRET],
  },
});

const TOAST_COOKIE = new RegExp(`(?:^|;\\s*)${TOAST_COOKIE_NAME}=`);

/** Whether the request carries a toast cookie at all (most requests do not). */
export function hasToastCookie(request: Request) {
  return TOAST_COOKIE.test(request.headers.get("Cookie") ?? "");
}

export const {
  getToast,
  redirectWithToast,
  redirectWithError,
  redirectWithInfo,
  redirectWithSuccess,
  redirectWithWarning,
} = createToastUtilsWithCustomSession(toastSessionStorage);
