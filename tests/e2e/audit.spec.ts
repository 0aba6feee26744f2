import { createOrder } from "../setup/order-factories";
import { createUser } from "../setup/factories";
import { expect, test } from "./fixtures";

test("an admin ships an order and finds it in the Audit Log, filtered by action and their email", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a long journey on a small shared machine
  const admin = await login({ role: "admin" });
  const customer = await createUser();
  const part = await createPart();
  const order = await createOrder({ user: customer, part, status: "paid" });

  await page.goto("/dashboard/manageOrders?status=pending");
  await page
    .getByTestId(`order-${order.id}`)
    .getByRole("link", { name: /^Ship with tracking… SO-\d+:/ })
    .click();
  await page.getByLabel("Carrier").selectOption("fedex");
  await page.getByLabel("Tracking number").fill("7712 3456 7890");
  await page.getByRole("button", { name: /shipped and email the customer$/ }).click();
  await expect(page.getByTestId("toast")).toContainText("is shipped");

  await page.getByRole("link", { name: "Audit Log" }).click();
  await expect(page.getByRole("heading", { name: "Audit Log" })).toBeVisible();
  await page.getByLabel("Action").selectOption({ label: "Shipped an order" });
  await page.getByLabel("Actor email").fill(admin.email);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/action=order\.ship/);
  await expect(page.getByTestId("audit-total")).toHaveText("1 entry, newest first.");
  const row = page.getByTestId("audit-row");
  await expect(row).toContainText("Shipped an order");
  await expect(row).toContainText(admin.email);
  await expect(row).toContainText(customer.email);
  await expect(row).toContainText(order.number);
  await expect(row.getByRole("cell").nth(3)).toContainText("Pending");
  await expect(row.getByRole("cell").nth(4)).toContainText("Shipped");
  await expect(row.getByRole("cell").nth(4)).toContainText("7712 3456 7890");
  await checkA11y();

  // An end date before the start date is refused next to the field (by the server without JavaScript).
  await page.getByLabel("From (UTC day)").fill("2026-02-01");
  await page.getByLabel("To (UTC day, included)").fill("2026-01-01");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByText("The end date must not be before the start date")).toBeVisible();
});

test("a customer who opens the Audit Log is signed out and sent to sign in", async ({ page, login }) => {
  await login();
  await page.goto("/dashboard/audit");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("That page is for admins only, so you have been signed out.").first()).toBeVisible();
});
