import { expect, test } from "./fixtures";

/**
 * The public pages are sent without the framework's JavaScript (handle.hydrate = false); a small
 * script of their own (app/browser/static-page.ts) gives their submit buttons the pending state a
 * hydrated one has.
 */
// Tagged @js-on: a pending state needs JavaScript.
test(
  "on /parts, sent without the framework, Search says it is searching while the results load",
  { tag: "@js-on" },
  async ({ page }) => {
    await page.goto("/parts");
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(false);

    // Keep the page: a listener after the shop's own (on window, past the document) stops the
    // navigation once the button has changed, so the pending state can be looked at.
    await page.evaluate(() => window.addEventListener("submit", (event) => event.preventDefault()));
    await page.getByRole("searchbox").fill("brake");
    await page.getByRole("button", { name: "Search" }).click();
    const button = page.locator("form[role=search] button[type=submit]");
    await expect(button).toHaveText("Searching…");
    await expect(button).toHaveAttribute("aria-disabled", "true");

    // A fresh load (as when the results arrive) shows the button as it was.
    await page.goto("/parts?q=brake");
    await expect(page.getByRole("button", { name: "Search" })).not.toHaveAttribute("aria-disabled");
  },
);

// Tagged @js-on: it checks the page's HTML and headers and the script's answer, the same whether the
// browser runs scripts or not.
test(
  "that script is a file named by its content, sent as JavaScript, cached for a year and admitted by the CSP",
  { tag: "@js-on" },
  async ({ page, request }) => {
    const response = await page.goto("/");
    const src = await page.locator("script[src^='/build/_static/static-page-']").getAttribute("src");
    expect(src).toMatch(/^\/build\/_static\/static-page-[A-Z0-9]+\.js$/);
    const nonce = (response?.headers()["content-security-policy"] ?? "").match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    // The browser hides a script's nonce from the DOM once it has been checked; the HTML carries it.
    expect(await response!.text()).toContain(`nonce="${nonce}" src="${src}"`);
    const script = await request.get(src!);
    expect(script.status()).toBe(200);
    expect(script.headers()["content-type"]).toMatch(/javascript/);
    expect(script.headers()["cache-control"]).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    expect(await script.text()).toContain("data-pending-text");
  },
);
