import { expect, test } from "./fixtures";

/**
 * The public pages are sent without the framework's JavaScript (handle.hydrate = false); a small
 * inline script in the root gives their submit buttons the pending state a hydrated one has.
 */
test("on /parts, sent without the framework, Search says it is searching while the results load", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "a pending state needs JavaScript");
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
});
