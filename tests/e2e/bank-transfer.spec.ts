import { randomUUID } from "node:crypto";
import { Order } from "~/orders/model/schema.server";
import { formatCents } from "~/format";
import { createOrder } from "../setup/order-factories";
import { DETROIT } from "../fixtures/addresses";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";

/**
 * Money that comes by bank transfer, in both projects (JavaScript on and off): staff record a
 * transfer (once: the same entry again is refused) and the invoice says how it was paid; a customer
 * without payment terms orders by bank transfer and finds the reference, the amount, the bank
 * details and the pro-forma.
 */

test("staff record a part payment by bank transfer, a repeat is refused naming it, and the invoice lists each transfer with its reference", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a long journey on a small shared machine
  const customer = await login({ name: "Rita Remit" });
  const part = await createPart({ name: `Transfer Kit ${randomUUID().slice(0, 6)}`, priceCents: 1_000 });
  const order = await createOrder({ user: customer, part, quantity: 100 }); // $1,000
  const first = `BACS-${randomUUID().slice(0, 6).toUpperCase()}`;

  await login({ role: "admin" });
  await page.goto(`/dashboard/manageOrders/${order.id}`);
  const amount = page.getByLabel("Amount received (USD)");
  const reference = page.getByLabel("Reference");
  const record = page.getByRole("button", { name: "Record payment" });
  await amount.fill("400");
  await reference.fill(first);
  await record.click();
  await expect(page.getByTestId("toast")).toContainText(`Payment recorded on ${order.number}: $600.00 left to pay`);
  // The form starts empty again.
  await expect(amount).toHaveValue("");
  await expect(reference).toHaveValue("");
  await expect(page.getByTestId("payment-line")).toHaveText("Part-paid by bank transfer, $600.00 still due");

  // The same transfer entered again: refused at the field, naming the first; nothing recorded.
  await amount.fill("400");
  await reference.fill(first);
  await record.click();
  await expect(
    page.getByText(/This looks like the payment already recorded by .*: \$400\.00 by bank transfer/),
  ).toBeVisible();
  const confirm = page.getByLabel("This is a second payment, not the same one again");
  await expect(confirm).toBeVisible();
  await checkA11y();
  expect((await Order.findById(order.id).lean())?.payments).toHaveLength(1);

  // The rest, by another transfer: paid.
  await amount.fill("600");
  await reference.fill(`${first}-2`);
  await record.click();
  await expect(page.getByTestId("toast")).toContainText(`${order.number} is paid; the receipt is emailed`);
  await expect(page.getByTestId("payment-line")).toHaveText("Paid by bank transfer");
  await expect(page.getByTestId("payments-received")).toContainText(`$400.00 by bank transfer, reference ${first}`);

  await page.goto(`/documents/${order.id}/invoice`);
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid by bank transfer");
  await expect(page.getByTestId("document-terms")).toHaveText("Paid before dispatch by bank transfer");
  const received = page.getByTestId("payments-received");
  await expect(received.getByRole("row").filter({ hasText: first }).first()).toContainText("$400.00");
  await expect(received.getByRole("row").filter({ hasText: `${first}-2` })).toContainText("$600.00");
  await expect(page.getByTestId("still-due")).toHaveText("$0.00");
  await expect(page.getByText("Card, at the time of order")).toHaveCount(0);
});

test("a customer without terms orders by bank transfer and pays from the pro-forma: the order number is the reference", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow();
  await login({ name: "Pat Proforma" });
  const part = await createPart({ priceCents: 1_000, minOrderQuantity: 10, availableQuantity: 500 });

  await page.goto(`/parts/${part.id}`);
  const card = page.getByLabel(/^Pay by card/);
  await expect(card).toBeChecked(); // card stays the default where card payment is set up
  await expect(page.getByText(/on account/i)).toHaveCount(0);
  await page.getByLabel(/^Quantity/).fill("10");
  await page.getByLabel("Phone").fill("+1 313 555 0177");
  await fillDeliveryAddress(page, { ...DETROIT, company: "", line1: "5 Wire Street", postalCode: "48201" });
  await page.getByLabel(/^Bank transfer \(pro-forma\)/).check();
  await page.getByRole("button", { name: "Buy" }).click();

  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  const order = (await Order.findOne({ "lines.partId": part.id }).lean())!;
  const number = `SO-${order.number}`;
  expect(order).toMatchObject({ status: "unpaid", paymentMethod: "bank-transfer" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pay for your order ${number}`);
  const transfer = page.getByTestId("bank-transfer");
  await expect(transfer.getByTestId("transfer-reference")).toHaveText(number);
  await expect(transfer.getByTestId("transfer-amount")).toContainText(formatCents(order.totalCents));
  await expect(transfer).toContainText("4401 2231 9087");
  await expect(page.getByTestId("hold-until")).toContainText("We hold the stock for this order until");
  await checkA11y();

  // The pro-forma carries the same reference and bank details.
  await page.getByRole("link", { name: "View the pro-forma" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pro-forma invoice");
  await expect(page.getByTestId("payment-reference")).toHaveText(number);
  await expect(page.getByTestId("bank-details")).toContainText("4401 2231 9087");
  const pdf = await page.request.get(`/documents/${order._id}/pro-forma/pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
});
