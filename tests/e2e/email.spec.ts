import { randomUUID } from "node:crypto";
import { sessionCookieValue, TEST_PASSWORD } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

test("a new customer verifies the address from the welcome email's page; the banner goes", async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail("welcome");
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Vera Verify");
  await page.getByLabel("Email").fill(email);
  // A password from the lists of leaked ones is refused next to the field.
  await page.getByLabel("Password").fill("123456");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByLabel("Password")).toHaveAccessibleDescription(/This password is too common/);
  await page.getByLabel("Password").fill("secret-pass");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(/\/parts$/);
  await page.goto("/dashboard");
  await expect(page.getByTestId("verify-email-banner")).toContainText(`Please confirm your email address, ${email}`);

  const [mail] = await waitForMail(email, { subject: "Welcome to PartsWorks: please confirm your email address" });
  // Opening the link verifies nothing by itself (a mail scanner opens links too): the button does.
  await page.goto(linkIn(mail, `${baseURL}/verify-email?token=`));
  await expect(page.getByRole("heading", { name: "Confirm your email address" })).toBeVisible();
  await expect(page.getByText(`Confirm that ${email} is your email address.`)).toBeVisible();
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("status").first()).toContainText("your email address is verified");
  await expect(page.getByTestId("verify-email-banner")).toHaveCount(0);
});

test("a new email address asks for the password and takes effect once its page's button is pressed", async ({
  page,
  login,
  baseURL,
}) => {
  const user = await login({ name: "Nico New" });
  const newEmail = uniqueEmail("moved");
  await page.goto("/dashboard");
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Email", exact: true }) });
  await section.getByLabel("New email").fill("not-an-email");
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(section.getByLabel("New email")).toHaveAccessibleDescription(/Provide a valid Email/);
  await section.getByLabel("New email").fill(newEmail);
  await section.getByLabel("Current password").fill("not-my-password");
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(section.getByLabel("Current password")).toHaveAccessibleDescription(/This is not your current password/);
  await section.getByLabel("New email").fill(newEmail);
  await section.getByLabel("Current password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page.getByRole("status").first()).toContainText(`We have sent a link to ${newEmail}`);
  await expect(page.getByTestId("profile-details")).toContainText(user.email);

  const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
  await page.goto(linkIn(mail, `${baseURL}/change-email?token=`));
  await expect(page.getByText(`Use ${newEmail} as the email address of your account.`)).toBeVisible();
  await page.getByRole("button", { name: "Use this email address" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("profile-details")).toContainText(newEmail);
});

test("a new password asks for the current one, refuses a common one, and keeps this session", async ({
  page,
  login,
}) => {
  await login({ name: "Paula Password" });
  await page.goto("/dashboard");
  const section = page.locator("section", { has: page.getByRole("heading", { name: "Password", exact: true }) });
  await section.getByLabel("Current password").fill(TEST_PASSWORD);
  await section.getByLabel("New password").fill("password1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByLabel("New password")).toHaveAccessibleDescription(/This password is too common/);
  await section.getByLabel("Current password").fill(TEST_PASSWORD);
  await section.getByLabel("New password").fill("brand-new-secret-4");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").first()).toContainText("Your password has been changed");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("profile-details")).toBeVisible();
});

test("the unsubscribe link in an order update works signed out; My Profile shows the setting", async ({
  page,
  login,
  baseURL,
  context,
}) => {
  const user = await login({ name: "Ursula Unsubscribe" });
  const order = await createOrder({ user });
  await page.goto(`/dashboard/orders/${order.id}/cancel`);
  await page.getByLabel("Type cancel to confirm").fill("cancel");
  await page.getByRole("button", { name: "Drop" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  const [mail] = await waitForMail(user.email, { subject: /^You cancelled your PartsWorks order/ });
  const link = linkIn(mail, `${baseURL}/unsubscribe?token=`);

  await context.clearCookies();
  await page.goto(link);
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByTestId("unsubscribed")).toContainText("you will no longer get order update emails");

  const { value } = await sessionCookieValue(user.id);
  await context.addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto("/dashboard");
  const checkbox = page.getByRole("checkbox", { name: /Order update emails/ });
  await expect(checkbox).not.toBeChecked();
  // A receipt of a payment is not an update: it always comes.
  await expect(page.getByTestId("email-preferences")).toContainText(
    "Receipts of payments, shipping notices and account emails always come.",
  );
  await checkbox.check();
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByRole("status").first()).toContainText("Order update emails are on");
  await expect(page.getByRole("checkbox", { name: /Order update emails/ })).toBeChecked();
});
