import { Order } from "~/orders/model/schema.server";
import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

test("an admin starts the day on Shop Today: orders to handle oldest first, low stock, and the sales chart with its table", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  await login({ role: "admin" });
  const customer = await createUser({ name: "Olga Oldest" });
  const part = await createPart({ availableQuantity: 40, minOrderQuantity: 100 });
  const order = await createOrder({ user: customer, part, status: "paid" });
  // Paid long ago: it leads the list of orders waiting to ship.
  await Order.collection.updateOne(
    { _id: new Order.base.Types.ObjectId(order.id) },
    { $set: { createdAt: new Date(Date.UTC(1980, 0, 1)) } },
  );

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Shop Today" }).first().click();
  await expect(page.getByRole("heading", { name: "Shop Today", level: 1 })).toBeVisible();

  const toShip = page.getByTestId("awaiting-shipment");
  await expect(
    toShip.getByRole("heading", { name: /^Waiting to ship \(paid or on account\) \(\d[\d,]*\)$/ }),
  ).toBeVisible();
  await expect(toShip.getByTestId("todo-order").filter({ hasText: customer.email })).toContainText(part.name);
  await expect(
    page.getByTestId("awaiting-payment").getByRole("heading", { name: /^Waiting for payment/ }),
  ).toBeVisible();

  await expect(page.getByRole("heading", { name: /^Low stock \(\d[\d,]*\)$/ })).toBeVisible();

  // One chart a currency the shop sold in (the dollars' always), never a sum across them.
  const chart = page.getByRole("img", { name: /^Sales in US dollars of the last 30 days: \$/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator("rect[data-day]")).toHaveCount(30);
  const titled = (await page.getByRole("img", { name: /^Sales in / }).count()) > 1;
  await page.getByText(titled ? "Sales in US dollars by day as a table" : "Sales by day as a table").click();
  const table = page.getByRole("table", {
    name: titled ? "Sales in US dollars by day, last 30 days" : "Sales by day, last 30 days",
  });
  await expect(table).toBeVisible();
  await expect(table.getByTestId("sales-row")).toHaveCount(30);
  await checkA11y();
});
