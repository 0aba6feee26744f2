import { WebhookEndpoint } from "~/models/webhook.server";
import { expect, test } from "./fixtures";

test("a customer adds a webhook endpoint, copies its secret shown once, and removes it; a bad URL is refused by the field", async ({
  page,
  login,
  checkA11y,
}) => {
  const user = await login({ name: "Wendy Webhook" });
  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("No endpoints yet")).toBeVisible();

  const url = page.getByLabel("Endpoint URL");
  await url.fill("http://erp.example.com/hook");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("The URL must start with https://")).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  expect(await WebhookEndpoint.countDocuments({ ownerId: user.id })).toBe(0);

  await page.getByLabel("Endpoint URL").fill("https://erp.example.com/partsworks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  await expect(page.getByTestId("webhook-endpoint")).toHaveCount(1);
  await checkA11y();

  // Shown once: the next visit lists the endpoint without its secret.
  await page.goto("/dashboard/webhooks");
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  await page.getByRole("button", { name: "Remove https://erp.example.com/partsworks" }).click();
  await expect(page.getByText("https://erp.example.com/partsworks is removed")).toBeVisible();
  await expect(page.getByTestId("webhook-endpoint")).toHaveCount(0);
  expect(await WebhookEndpoint.countDocuments({ ownerId: user.id })).toBe(0);
});
