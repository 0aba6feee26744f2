/**
 * What a hydrated page does, for a page sent without the framework (a route whose `handle` has
 * `hydrate: false`; root.tsx loads this file there instead of React). Built with a content hash by
 * `npm run build:browser` (scripts/build-browser.ts); our own few lines because such a page has no
 * router to do it.
 *
 * - While a form is being submitted, its button shows its `data-pending-text` and is aria-disabled;
 *   restored when the page comes back from the back-forward cache.
 * - A select marked `data-refine` loads its form's results on change, leaving out the fields it
 *   names (a new make clears the model and year), as refinedHref does on a hydrated page. The
 *   refined page comes in place: fetched, its <main>, title and canonical link put into this one,
 *   the address pushed (the back button reloads the address it lands on), and the focus back on the
 *   select. Anything unexpected (an error, a redirect, no fetch) falls back to loading the address.
 */
const IDLE_HTML = "data-idle-html";

const here = () => location.pathname + location.search;
let shown = here();
let latest = 0;

document.addEventListener("submit", (event) => {
  const button = event.submitter;
  if (event.defaultPrevented || !button || !button.hasAttribute("data-pending-text")) return;
  button.setAttribute(IDLE_HTML, button.innerHTML);
  button.setAttribute("aria-disabled", "true");
  button.textContent = button.getAttribute("data-pending-text");
});

document.addEventListener("change", (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !select.hasAttribute("data-refine") || !select.form) return;
  const cleared = (select.getAttribute("data-refine") ?? "").split(" ");
  const params = new URLSearchParams();
  new FormData(select.form).forEach((value, name) => {
    if (value && typeof value === "string" && !cleared.includes(name)) params.append(name, value);
  });
  const url = select.form.action.split("?")[0] + (params.toString() ? `?${params}` : "");
  const main = document.querySelector("main");
  const request = ++latest;
  if (!window.fetch || !window.DOMParser || !main || !select.id) return location.assign(url);

  main.setAttribute("aria-busy", "true");
  fetch(url, { headers: { Accept: "text/html" } })
    .then((response) => {
      if (!response.ok || response.redirected) throw new Error(`refine: ${response.status}`);
      return response.text();
    })
    .then((html) => {
      if (request !== latest) return; // a later change is on its way
      const next = new DOMParser().parseFromString(html, "text/html");
      const nextMain = next.querySelector("main");
      if (!nextMain) throw new Error("refine: no <main>");
      main.innerHTML = nextMain.innerHTML;
      main.removeAttribute("aria-busy");
      document.title = next.title;
      const canonical = document.querySelector<HTMLLinkElement>("link[rel=canonical]");
      const nextCanonical = next.querySelector<HTMLLinkElement>("link[rel=canonical]");
      if (canonical && nextCanonical) canonical.href = nextCanonical.href;
      history.pushState(null, "", url);
      shown = here();
      document.getElementById(select.id)?.focus();
    })
    .catch(() => {
      if (request === latest) location.assign(url);
    });
});

addEventListener("popstate", () => {
  if (here() !== shown) location.reload();
});

addEventListener("pageshow", () => {
  document.querySelectorAll(`[${IDLE_HTML}]`).forEach((button) => {
    button.innerHTML = button.getAttribute(IDLE_HTML) ?? "";
    button.removeAttribute(IDLE_HTML);
    button.removeAttribute("aria-disabled");
  });
});
