import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

test("an admin finds a customer's order by email and status, opens it, and reads the transaction id and who did what", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a long journey on a small shared machine
  const admin = await login({ role: "admin" });
  const customer = await createUser({ name: "Sam Searcher" });
  const part = await createPart();
  const paid = await createOrder({ user: customer, part, status: "paid", transactionId: "pi_test_searchjourney1" });
  await createOrder({ user: customer, part, status: "unpaid" });

  await page.goto("/dashboard/manageOrders");
  await page.getByLabel("Order, PO, email or company").fill(customer.email.toUpperCase());
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByTestId("orders-total")).toHaveText("2 orders, newest first.");
  await page.getByLabel("Status").selectOption("pending");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page).toHaveURL(/q=/);
  await expect(page.getByTestId("orders-total")).toHaveText(
    "1 order with status Pending (paid, to ship), newest first.",
  );
  await checkA11y();

  // Ship it from its page (carrier and tracking number); back in the list the filter shows what is listed.
  await page
    .getByTestId(`order-${paid.id}`)
    .getByRole("link", { name: /^Ship with tracking… SO-\d+:/ })
    .click();
  await page.getByLabel("Carrier").selectOption("dhl");
  await page.getByLabel("Tracking number").fill("JD0140 0000 0001");
  await page.getByRole("button", { name: `Mark ${paid.number} shipped and email the customer` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${paid.number} is shipped`);
  await page.goto(`/dashboard/manageOrders?q=${encodeURIComponent(customer.email)}&status=pending`);
  await expect(page.getByLabel("Status")).toHaveValue("pending");
  await expect(page.getByTestId("orders-total")).toHaveText(
    "0 orders with status Pending (paid, to ship), newest first.",
  );

  await page.getByLabel("Status").selectOption("shipped");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByLabel("Status")).toHaveValue("shipped");
  await page.getByRole("link", { name: paid.number }).click();
  await expect(page).toHaveURL(`/dashboard/manageOrders/${paid.id}`);
  await expect(page.getByTestId("transaction-id")).toHaveText("pi_test_searchjourney1");
  const timeline = page.getByTestId("order-timeline");
  await expect(timeline.locator("[data-event=placed]")).toContainText(`by Sam Searcher (${customer.email})`);
  await expect(timeline.locator("[data-event=shipped]")).toContainText(`by the shop (${admin.email})`);
  await checkA11y();
});

test("a bad date range is refused next to the field, with and without JavaScript", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.goto("/dashboard/manageOrders");
  await page.getByLabel("Placed from (UTC day)").fill("2026-02-01");
  await page.getByLabel("Placed to (UTC day, included)").fill("2026-01-01");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByText("The end date must not be before the start date")).toBeVisible();
});
