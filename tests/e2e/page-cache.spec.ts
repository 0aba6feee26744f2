import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";

/**
 * Anonymous visitors are answered from the shop's page cache (app/utils/page-cache.server.ts). The
 * other tests keep it out of the way; here it answers, and the stored page must work like a
 * rendered one: with JavaScript, its scripts run under the answer's own CSP nonce.
 */
test.use({ extraHTTPHeaders: {} });

test("a parts page served from the page cache shows the parts and, with JavaScript, runs its scripts", async ({
  page,
  createPart,
  javaScriptEnabled,
}) => {
  const word = `Cached${randomUUID().replace(/-/g, "").slice(0, 8)}`;
  const part = await createPart({ name: `${word} Fan Belt` });
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });

  // Any write by a test running beside this one empties the cache: try the pair again then.
  await expect(async () => {
    await page.goto(`/parts?q=${word}`);
    const second = await page.goto(`/parts?q=${word}`);
    expect(second?.headers()["x-cache"]).toBe("HIT");
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole("heading", { name: part.name })).toBeVisible();

  if (javaScriptEnabled) {
    // The page's inline scripts ran under this answer's nonce (the page ships no framework).
    await expect.poll(() => page.evaluate(() => "ENV" in window)).toBe(true);
    await page.getByRole("searchbox").fill(`${word} nothing`);
    await page.getByRole("searchbox").press("Enter");
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    await expect(page.getByTestId("empty-state")).toBeVisible();
  }
  expect(blocked).toEqual([]);
});
