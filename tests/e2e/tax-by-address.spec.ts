import { Order } from "~/orders/model/schema.server";
import { DETROIT, TOLEDO } from "../fixtures/addresses";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";

test("an Ohio delivery address changes the tax and total before ordering, and the order carries Ohio's tax", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
}) => {
  const customer = await login({ name: "Otto Ohio" });
  const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
  await page.goto(`/parts/${part.id}`);
  const tax = page.getByTestId("order-tax");
  const total = page.getByTestId("order-total-with-tax");
  const updateTotal = page.getByRole("button", { name: "Update total" });

  // A Detroit address: Michigan's 6 % on $10,000.
  await fillDeliveryAddress(page, { ...DETROIT, line2: "Dock door OR 97201" });
  if (!javaScriptEnabled) await updateTotal.click();
  await expect(tax).toContainText("MI sales tax 6%: $600.00");
  await expect(total).toHaveText("$10,600.00");

  // The same form moved to Toledo, Ohio: 5.75 %, shown before anything is ordered, one total on screen.
  await fillDeliveryAddress(page, TOLEDO);
  if (!javaScriptEnabled) await updateTotal.click();
  await expect(tax).toContainText("OH sales tax 5.75%: $575.00");
  await expect(total).toHaveText("$10,575.00");
  await expect(page.getByText(/Total with tax/)).toHaveCount(1);
  expect(await Order.countDocuments({ userId: customer.id })).toBe(0);

  await page.getByLabel("Phone").fill("+1 419 555 0100");
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders/);
  const order = await Order.findOne({ userId: customer.id }).lean();
  expect(order).toMatchObject({ netCents: 1_000_000, taxCents: 57_500, totalCents: 1_057_500 });
  expect(order?.taxLines?.[0]).toMatchObject({ label: "OH sales tax 5.75%" });
  expect(order?.deliveryAddress).toMatchObject({ city: "Toledo", region: "OH", country: "US" });
});
