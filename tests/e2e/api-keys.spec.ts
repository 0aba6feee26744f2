import { expect, test } from "./fixtures";

test("a customer creates an API key, sees it once, uses it, and revokes it", async ({
  page,
  login,
  checkA11y,
  request,
}) => {
  await login({ role: "customer" });
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  // A customer signed up alone owns a company of one: the list is the company's.
  await expect(page.getByText("Your company has no API keys yet.")).toBeVisible();

  // No name: the field says so, nothing is created.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Name the key (for example, the system that uses it)")).toBeVisible();

  await page.getByLabel("Name").fill("Purchasing");
  await page.getByRole("checkbox", { name: /^order:/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toContainText("shown this once");
  const token = (await shown.locator("p.font-mono").textContent())!.trim();
  expect(token).toMatch(/^pw_live_/);
  await page.screenshot({ path: test.info().outputPath("api-keys.png"), fullPage: true });
  await checkA11y();

  const ok = await request.get("/api/v1/orders", { headers: { Authorization: `Bearer ${token}` } });
  expect(ok.status()).toBe(200);

  await page.goto("/dashboard/apiKeys");
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await expect(page.getByTestId("api-key-row")).toContainText("read, order");
  await expect(page.getByTestId("api-key-maker")).toHaveText("You");
  await page.getByRole("button", { name: "Revoke Purchasing" }).click();
  await expect(page.getByTestId("toast")).toContainText("is revoked");
  await expect(page.getByTestId("api-key-row")).toContainText("Revoked");
  const refused = await request.get("/api/v1/orders", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});

test("the API reference page lists the operations and passes the CSP (no outside scripts)", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/api/docs");
  await expect(page.getByRole("heading", { name: "PartsWorks API" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "POST /api/v1/orders", exact: true })).toBeVisible();
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: test.info().outputPath("api-docs-360.png"), fullPage: false });
  expect(violations).toEqual([]);
});

test("an account whose address is not confirmed sees why it cannot make keys or webhooks, and the banner's way out", async ({
  page,
  login,
  checkA11y,
}) => {
  await login({ role: "customer", name: "Una Unconfirmed", verified: false });
  for (const [path, heading] of [
    ["/dashboard/apiKeys", "API keys"],
    ["/dashboard/webhooks", "Webhooks"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await expect(page.getByTestId("verify-first")).toContainText("Confirm your email address first");
    await expect(page.getByRole("button", { name: /Create key|Add endpoint/ })).toHaveCount(0);
    await expect(page.getByTestId("verify-email-banner")).toContainText("Send the link again");
    await page.screenshot({ path: test.info().outputPath(`${heading}-unconfirmed.png`), fullPage: true });
    await checkA11y();
  }
});

test("Your sessions says signing out leaves API keys working, and revokes them on request", async ({
  page,
  login,
  checkA11y,
  request,
}) => {
  await login({ role: "customer", name: "Kim Keys" });
  await page.goto("/dashboard/apiKeys");
  await page.getByLabel("Name").fill("Warehouse");
  await page.getByRole("button", { name: "Create key" }).click();
  const token = (await page.getByTestId("new-api-key").locator("p.font-mono").textContent())!.trim();

  await page.goto("/dashboard/sessions");
  await expect(page.getByTestId("keys-not-sessions")).toContainText(
    "Signing out does not revoke API keys: a key keeps working until it is revoked. You made 1 key that still works.",
  );
  await page.screenshot({ path: test.info().outputPath("sessions-keys.png"), fullPage: true });
  await checkA11y();
  await page.getByRole("button", { name: "Revoke all my API keys" }).click();
  await expect(page.getByTestId("toast")).toContainText("Your API key is revoked.");
  await expect(page.getByTestId("keys-not-sessions")).toContainText("You have no live API keys.");
  const refused = await request.get("/api/v1/orders", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
