import { useMatches } from "@remix-run/react";
import { useEffect, useState } from "react";

/** False in the server-rendered HTML and until the browser has hydrated, then true. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Whether this page is sent with the framework's JavaScript: a route whose `handle` has
 * `hydrate: false` makes the whole page HTML only (see root.tsx). On such a page no script will
 * ever run the components, so they can render their first state without client-side machinery.
 */
export function usePageHydrates() {
  return useMatches().every((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate !== false);
}
