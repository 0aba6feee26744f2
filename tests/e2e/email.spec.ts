import { randomUUID } from "node:crypto";
import { sessionCookieValue } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

test("a new customer verifies the address from the welcome email; the banner goes", async ({ page, baseURL }) => {
  const email = uniqueEmail("welcome");
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Vera Verify");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("secret-pass");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("verify-email-banner")).toContainText(`Please confirm your email address, ${email}`);

  const [mail] = await waitForMail(email, { subject: "Welcome to PartsWorks: please confirm your email address" });
  await page.goto(linkIn(mail, `${baseURL}/verify-email?token=`));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("status").first()).toContainText("your email address is verified");
  await expect(page.getByTestId("verify-email-banner")).toHaveCount(0);
});

test("a new email address takes effect once its link is opened", async ({ page, login, baseURL }) => {
  const user = await login({ name: "Nico New" });
  const newEmail = uniqueEmail("moved");
  await page.goto("/dashboard");
  await page.getByLabel("New email").fill("not-an-email");
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page.getByLabel("New email")).toHaveAccessibleDescription(/Provide a valid Email/);
  await page.getByLabel("New email").fill(newEmail);
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page.getByRole("status").first()).toContainText(`We have sent a link to ${newEmail}`);
  await expect(page.getByTestId("profile-details")).toContainText(user.email);

  const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
  await page.goto(linkIn(mail, `${baseURL}/change-email?token=`));
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("profile-details")).toContainText(newEmail);
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
