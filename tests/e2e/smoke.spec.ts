import { expect, test } from "./fixtures";

test("the home page renders with the navbar and footer", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" }).first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Blogs" }).first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Portfolio" }).first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" }).first()).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(/Copyright ©/);
});

test("an unknown path answers 404 with the error image", async ({ page }) => {
  const response = await page.goto("/nope");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("img", { name: /Error 404/ })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not find that page");
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
});

test("signed in, the navbar shows Dashboard, the name and Sign Out", async ({ page, login }) => {
  await login({ name: "Nora Navbar" });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Dashboard" }).first()).toBeVisible();
  await expect(nav.getByText("Nora Navbar").first()).toBeVisible();
  await expect(nav.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);
});
