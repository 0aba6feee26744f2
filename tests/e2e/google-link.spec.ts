/**
 * Google sign-in meets an existing password account: it is linked only after the owner signs in
 * with the password once, with JavaScript and without.
 */
import { randomUUID } from "node:crypto";
import { User } from "~/models/user.server";
import { createUser, TEST_PASSWORD } from "../setup/factories";
import { encodeMockUser, MOCK_USER_PARAM } from "../setup/oauth-server";
import { expect, test } from "./fixtures";

test("Google links to a password account only after its password is entered once", async ({ page, db: _db }) => {
  const owner = await createUser({ name: "Lina Linked", email: `link-${randomUUID().slice(0, 8)}@example.com` });
  const google = new URL(process.env.GOOGLE_AUTHORIZATION_URL!);
  const sub = `e2e-link-${randomUUID().slice(0, 8)}`;
  await page.context().addCookies([
    {
      name: MOCK_USER_PARAM,
      value: encodeMockUser({ sub, email: owner.email, email_verified: true, name: "Lina at Google" }),
      url: google.origin,
    },
  ]);

  await page.goto("/login?redirectTo=%2Fdashboard");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(/\/login\?googleError=link-needed/);
  await expect(page.getByTestId("google-error")).toContainText(
    "Log in with its password once to link your Google account",
  );
  expect((await User.findById(owner.id).lean())?.googleId).toBeUndefined();

  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page.getByRole("status").first()).toContainText("Your Google account is now linked");
  expect((await User.findById(owner.id).lean())?.googleId).toBe(sub);

  // Signed out, Google alone now signs in to the same account.
  await page.context().clearCookies({ name: "__session" });
  await page.goto("/login?redirectTo=%2Fdashboard");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("profile-details")).toContainText(owner.email);
});
