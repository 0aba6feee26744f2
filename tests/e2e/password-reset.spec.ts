import { randomUUID } from "node:crypto";
import { createUser, TEST_PASSWORD } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { expect, test } from "./fixtures";

test("a customer who forgot the password gets back in from the email alone", async ({ page, db: _db, baseURL }) => {
  const user = await createUser({ name: "Flora Forgot", email: `forgot-${randomUUID().slice(0, 8)}@example.com` });
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByTestId("reset-sent")).toContainText(
    "If an account exists for that email, we have sent a link",
  );

  const [mail] = await waitForMail(user.email, { subject: "Reset your PartsWorks password" });
  const link = linkIn(mail, `${baseURL}/reset-password?token=`);
  await page.goto(link);
  await page.getByLabel("New password").fill("123");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByLabel("New password")).toHaveAccessibleDescription(/Must be 6 characters or longer/);
  await page.getByLabel("New password").fill("fresh-password-9");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("status").first()).toContainText("Your password has been changed");

  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await page.getByLabel("Password").fill("fresh-password-9");
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);

  // The link works once.
  await page.goto(link);
  await expect(page.getByTestId("reset-problem")).toContainText("already been used");
});
