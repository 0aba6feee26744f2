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
import { getEnv } from "./env.server";

const env = getEnv();

export const toastSessionStorage = createCookieSessionStorage({
  cookie: {
    name: "toast",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.NODE_ENV === "production" && env.PUBLIC_URL.startsWith("https:"),
    secrets: [env.SESSION_SECRET],
  },
});

const TOAST_COOKIE = /(?:^|;\s*)toast=/;

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
