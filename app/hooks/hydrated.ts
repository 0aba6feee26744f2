import { useMatches, type UIMatch } from "@remix-run/react";
import { startTransition, useEffect, useState } from "react";

/**
 * False in the server-rendered HTML and until the browser has hydrated, then true. The re-render
 * that follows is a transition, so React does it in slices between other work rather than as one
 * long task right after hydration.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => startTransition(() => setHydrated(true)), []);
  return hydrated;
}

/**
 * A route's say in whether its page is sent with the framework's JavaScript: `hydrate: false`
 * for never, or a function of the page's matches (their `data`: root's has the user) for pages
 * that hydrate for some visitors only. Absent means yes.
 */
export type HydrateHandle = { hydrate?: boolean | ((matches: UIMatch[]) => boolean) };

/**
 * Whether this page is sent with the framework's JavaScript, decided here only (root.tsx and the
 * components that render differently on an HTML-only page ask this). Every matched route must
 * agree: a `handle.hydrate` of false, or a function of the matches that answers false, makes the
 * whole page HTML only. /parts, for example, hydrates for signed-in customers (their cart forms
 * add in place) and stays HTML only for visitors (what Lighthouse audits).
 *
 * On such a page no script will ever run the components, so they can render their first state
 * without client-side machinery. In the browser the answer is always yes: code running there
 * means the page was hydrated (the server said yes with the same data), and a page reached later
 * by a client-side navigation is driven by the framework too.
 */
export function usePageHydrates() {
  const matches = useMatches();
  if (typeof document !== "undefined") return true;
  return matches.every((match) => {
    const hydrate = (match.handle as HydrateHandle | undefined)?.hydrate;
    return typeof hydrate === "function" ? hydrate(matches) : hydrate !== false;
  });
}
