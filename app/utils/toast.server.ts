/**
 * remix-toast for server code. The package declares no `sideEffects: false`, so importing it from
 * a route module keeps it (with zod and a cookie library) in that route's browser bundle even when
 * only the loader uses it; imported through this `.server` module it never reaches the browser.
 * The root route imports from here, which keeps about 19 KB of gzipped JavaScript off every page.
 */
export { getToast, redirectWithError, redirectWithInfo, redirectWithSuccess, redirectWithWarning } from "remix-toast";
