import type { HeadersFunction } from "@remix-run/node";

/**
 * Caching of public pages (home, parts, blogs, portfolio).
 *
 * A page is shared-cacheable only when it is the same for everyone: no session or vehicle cookie
 * came in (the navbar would show the user's name, the parts their vehicle) and no cookie goes out
 * (a toast being consumed, a vehicle being remembered).
 * Otherwise it is `private, no-store`. `Vary: Cookie` keeps a shared cache from handing the
 * anonymous copy to a signed-in browser.
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

function hasSessionCookie(request: Request) {
  return /(?:^|;\s*)(?:__session|__Host-session|__vehicle|__currency)=/.test(request.headers.get("Cookie") ?? "");
}

/** Headers for a public page's loader answer, read by its `headers` export (documents and `.data` requests alike). */
export function publicPageHeaders(
  request: Request,
  { status = 200, setsCookie = false }: { status?: number; setsCookie?: boolean } = {},
) {
  const shareable = status === 200 && !setsCookie && !hasSessionCookie(request);
  return {
    "Cache-Control": shareable ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL,
    Vary: "Cookie",
  };
}

/** The `headers` export of a public page: the loader's decision, made private by any Set-Cookie. */
export const publicPageHeadersFunction: HeadersFunction = ({ loaderHeaders, parentHeaders, errorHeaders }) => {
  const shareable =
    !errorHeaders &&
    loaderHeaders.get("Cache-Control") === PUBLIC_CACHE_CONTROL &&
    !parentHeaders.has("Set-Cookie") &&
    !loaderHeaders.has("Set-Cookie");
  return {
    "Cache-Control": shareable ? PUBLIC_CACHE_CONTROL : PRIVATE_CACHE_CONTROL,
    Vary: "Cookie",
  };
};

/**
 * Pages opened from a link with a token in it (password reset, email verification, unsubscribe):
 * never stored by any cache, never named in a Referer to another site. `same-origin`, not
 * `no-referrer`: under `no-referrer` a browser posts the page's own form with `Origin: null`,
 * which the same-origin check refuses, so the form would fail without JavaScript. Their `headers`
 * export sends them, with the document and with single fetch's `.data` requests alike.
 */
export const TOKEN_PAGE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
export const tokenPageHeadersFunction: HeadersFunction = () => TOKEN_PAGE_HEADERS;
