import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

const HEADING = "h1, h2, h3, h4, h5, h6";
const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

/**
 * After a form's POST lands on a page (its redirect), moves the focus to the result: the heading of
 * the part the address points to (`#approvals`), else the page's own heading. Without it the focus
 * is lost with the button that was pressed, and a keyboard or screen-reader user starts again from
 * the top. Back on the same page with the pressed control still there (a cart line's Update), the
 * focus stays on it. A POST answered without a redirect (a refusal) is left to the form, which
 * focuses its first field in error (Conform). GET forms (filters) and fetchers keep the focus.
 */
export function FocusAfterSubmit() {
  const navigation = useNavigation();
  const location = useLocation();
  const submittedFrom = useRef<{ key: string; pathname: string } | null>(null);

  useEffect(() => {
    if (navigation.state === "submitting") submittedFrom.current = { key: location.key, pathname: location.pathname };
  }, [navigation.state, location.key, location.pathname]);

  useEffect(() => {
    if (navigation.state !== "idle" || submittedFrom.current === null) return;
    const from = submittedFrom.current;
    submittedFrom.current = null;
    if (from.key === location.key) return;
    const kept = document.activeElement && document.activeElement !== document.body;
    if (from.pathname === location.pathname && kept) return;
    const part = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    const target = part
      ? part.matches(HEADING)
        ? part
        : (part.querySelector<HTMLElement>(HEADING) ?? part)
      : document.querySelector<HTMLElement>("main h1");
    if (!target) return;
    if (!target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
    // The page has already scrolled (to the part, or to its top): focusing must not move it again.
    target.focus({ preventScroll: true });
  }, [navigation.state, location.key, location.pathname, location.hash]);

  return null;
}
