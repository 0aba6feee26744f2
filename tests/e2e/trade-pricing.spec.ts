import { Order } from "~/models/order.server";
import { markOrderPaid } from "~/models/payment.server";
import { savePriceGroup } from "~/models/price-group.server";
import { setPriceGroup, setTaxProfile } from "~/models/user.server";
import { placeCustomerOrder } from "~/utils/orders.server";
import { expect, test } from "./fixtures";

test("a distributor sees its price on the card, the part page and the cart, reaches the next break, and pays tax on the net", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
  checkA11y,
}) => {
  test.slow();
  const customer = await login({ name: "Dina Distributor" });
  const group = await savePriceGroup({
    name: `Distributor ${customer.id}`,
    percentOff: 15,
    rules: [],
    stacksWithBreaks: false,
  });
  await setPriceGroup(customer.id, group!.id);
  await setTaxProfile(customer.id, { country: "US", state: "MI", vatNumber: null, exemptionCertificate: null });
  // $20 list; 15% off is $17; from 1,000 units the break's $16 beats it.
  const part = await createPart({
    name: `Break Pad ${customer.id.slice(-6)}`,
    priceCents: 2000,
    availableQuantity: 5000,
    volumeBreaks: [
      { minQuantity: 500, percentOff: 5, unitPriceCents: null },
      { minQuantity: 1000, percentOff: null, unitPriceCents: 1600 },
    ],
  });

  // The card: the distributor's price, the list price struck beside it.
  await page.goto(`/parts?q=${encodeURIComponent(part.name)}`);
  const card = page.getByRole("article").filter({ hasText: part.name });
  await expect(card.getByTestId("your-price")).toContainText("$17");
  await expect(card.getByTestId("list-price")).toHaveText("$20");

  // The part page: the price, the table of volume prices, and the units to the next price.
  await page.goto(`/parts/${part.id}`);
  await expect(page.getByTestId("unit-price")).toContainText("$17");
  const table = page.getByTestId("volume-prices");
  await expect(table).toContainText("1,000+");
  await expect(table).toContainText("$16");
  await expect(page.getByTestId("next-break")).toContainText("900 more units reach the next price: $16 per unit");
  await checkA11y();

  // Reaching the break: the total follows (without JavaScript, through "Update total").
  await page.getByLabel(/^Quantity/).fill("1000");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  await expect(page.getByTestId("order-total")).toHaveText("$16,000");
  await expect(page.getByTestId("next-break")).toHaveCount(0);

  // The cart prices the line at the break, with Michigan sales tax on the net.
  await page.getByLabel("Units for the cart").fill("1000");
  // The add is answered before the cart is opened (a navigation would cancel it in flight).
  const added = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: /Add to cart/ }).click();
  await added;
  await page.goto("/dashboard/cart");
  await expect(page.getByTestId("line-total")).toHaveText("$16,000");
  await expect(page.getByTestId("tax-line")).toContainText("MI sales tax 6%");
  await expect(page.getByTestId("tax-amount")).toHaveText("$960");
  await expect(page.getByTestId("cart-total")).toHaveText("$16,960");
});

test("an EU company with a valid VAT number is invoiced with the reverse charge and no VAT", async ({
  page,
  login,
  createPart,
}) => {
  const customer = await login({ name: "Elke Export" });
  await setTaxProfile(customer.id, {
    country: "DE",
    state: null,
    vatNumber: "DE811907980",
    exemptionCertificate: null,
  });
  const part = await createPart({ priceCents: 1250 });
  const placed = await placeCustomerOrder({
    lines: [{ partId: part.id, quantity: 200 }],
    phone: "+49 40 555 0100",
    address: "Hafenstrasse 12, 20457 Hamburg",
    user: { id: customer.id },
  });
  if (!placed.ok) throw new Error("the order was not placed");
  expect(placed.order.taxCents).toBe(0);
  await markOrderPaid({
    orderId: placed.order.id,
    transactionId: `pi_${placed.order.id}`,
    amountCents: placed.order.totalCents,
    currency: "usd",
  });
  expect((await Order.findById(placed.order.id).lean())?.status).toBe("paid");

  await page.goto(`/documents/${placed.order.id}/invoice`);
  await expect(page.getByTestId("document-tax")).toContainText("Reverse charge");
  await expect(page.getByTestId("tax-note")).toContainText("VAT to be accounted for by the recipient");
  await expect(page.getByTestId("tax-note")).toContainText("DE811907980");
  await expect(page.getByTestId("buyer-vat")).toHaveText("VAT number: DE811907980");
  await expect(page.getByTestId("document-total")).toHaveText("$2,500");
});
