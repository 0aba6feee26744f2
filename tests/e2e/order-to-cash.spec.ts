import { randomUUID } from "node:crypto";
import { Order } from "~/orders/model/schema.server";
import { sessionCookieValue, updateCompanyOf } from "../setup/factories";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

test("a trade customer orders on account from the cart; staff ship it with tracking and record the bank transfer; the statement and invoice show it paid", async ({
  page,
  login,
  createPart,
  checkA11y,
  baseURL,
}) => {
  test.slow(); // a long journey on a small shared machine
  const customer = await login({ name: "Tess Trade" });
  await updateCompanyOf(customer.id, {
    $set: { companyName: "Tess Fleet Repairs", account: { termsDays: 30, creditLimitCents: 1_000_000 } },
  });
  const part = await createPart({
    name: `Account Kit ${randomUUID().slice(0, 6)}`,
    priceCents: 2500,
    minOrderQuantity: 10,
  });

  // The cart: 40 units, on account.
  await page.goto(`/parts/${part.id}`);
  await page.getByLabel("Units for the cart").fill("40");
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`40 × ${part.name} added to your cart`);
  await page.goto("/dashboard/cart");
  await page.getByLabel("Phone").fill("+1 313 555 0101");
  await fillDeliveryAddress(page);
  await expect(page.getByText("$10,000.00 of your $10,000.00 credit limit is available")).toBeVisible();
  await page.getByLabel(/On account \(net 30 days\)/).check();
  await checkA11y();
  await page.getByRole("button", { name: /Place the order/ }).click();

  // Confirmed at once: the order's page, with its number, state and due date.
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  const order = (await Order.findOne({ userId: customer.id }).lean())!;
  const number = `SO-${order.number}`;
  await expect(page).toHaveURL(`/dashboard/orders/${order._id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
  await expect(page.getByTestId("order-status")).toContainText("On account, due");
  await page.goto("/dashboard/statement");
  await expect(page.getByTestId("statement-balance")).toHaveText("$1,060.00"); // $1,000 and Michigan's 6 %
  await expect(page.getByTestId("statement-row")).toContainText(number);

  // Staff ship it with tracking (before it is paid), then record the transfer.
  await login({ role: "admin" });
  await page.goto("/dashboard/manageOrders");
  await page.getByLabel("Order, PO, email or company").fill(number.toLowerCase());
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page.getByTestId("orders-total")).toHaveText("1 order, newest first.");
  await page.getByRole("link", { name: new RegExp(`^Ship with tracking… ${number}:`) }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/manageOrders/${order._id}`));
  await page.getByLabel("Carrier").selectOption("ups");
  await page.getByLabel("Tracking number").fill("1Z999AA10123456784");
  await page.getByRole("button", { name: `Mark ${number} shipped and email the customer` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${number} is shipped`);
  await expect(page.getByTestId("shipment")).toContainText("UPS, tracking number 1Z999AA10123456784");

  // A payment above the balance is refused at the field; the full amount pays it.
  await page.getByLabel("Amount received (USD)").fill("1060.01");
  await page.getByLabel("Reference").fill(number);
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByText("That is more than the balance of $1,060.")).toBeVisible();
  await page.getByLabel("Amount received (USD)").fill("1060");
  await page.getByRole("button", { name: "Record payment" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${number} is paid; the receipt is emailed`);
  await expect(page.getByTestId("order-status")).toHaveText("Shipped");
  await expect(page.getByTestId("recorded-payments")).toContainText("$1,060.00 by bank transfer");
  await checkA11y();

  // The customer: nothing open on the statement; the invoice says paid, with the tracking.
  const { value } = await sessionCookieValue(customer.id);
  await page.context().addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto("/dashboard/statement");
  await expect(page.getByTestId("statement-balance")).toHaveText("$0.00");
  await expect(page.getByTestId("statement-empty")).toBeVisible();
  await page.goto(`/documents/${order._id}/invoice`);
  await expect(page.getByTestId("invoice-status")).toHaveText("On account, net 30 days; paid by bank transfer");
  await expect(page.getByTestId("payments-received")).toContainText(number);
  await expect(page.getByTestId("document-order-number")).toHaveText(number);
  await expect(page.getByTestId("document-shipment")).toHaveText("UPS, tracking number 1Z999AA10123456784");
  await expect(page.getByTestId("bank-details")).toHaveCount(0);
});

test("a customer without payment terms never sees on account", async ({ page, login, createPart }) => {
  await login({ name: "Cora Card" });
  const part = await createPart({ minOrderQuantity: 10 });
  await page.goto(`/parts/${part.id}`);
  await expect(page.getByRole("button", { name: "Buy" })).toBeVisible();
  await expect(page.getByText(/on account/i)).toHaveCount(0);
  await page.getByLabel("Units for the cart").fill("10");
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
  await page.goto("/dashboard/cart");
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expect(page.getByText(/on account/i)).toHaveCount(0);
  await page.goto("/dashboard/quick-order");
  await expect(page.getByText(/on account/i)).toHaveCount(0);
});
