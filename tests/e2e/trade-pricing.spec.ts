import { Order } from "~/orders/model/schema.server";
import { Company } from "~/models/company.server";
import { Part } from "~/models/part.server";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { savePriceGroup } from "~/models/price-group.server";
import { setPriceGroup, setTaxProfile } from "~/models/user-admin.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { expect, test } from "./fixtures";
import { DETROIT, TOLEDO } from "../fixtures/addresses";
import { fillDeliveryAddress } from "./delivery-address";

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
  await expect(card.getByTestId("your-price")).toContainText("$17.00");
  await expect(card.getByTestId("list-price")).toHaveText("$20.00");

  // The part page: the price, the table of volume prices, and the units to the next price.
  await page.goto(`/parts/${part.id}`);
  await expect(page.getByTestId("unit-price")).toContainText("$17.00");
  const table = page.getByTestId("volume-prices");
  await expect(table).toContainText("1,000+");
  await expect(table).toContainText("$16.00");
  await expect(page.getByTestId("next-break")).toContainText("900 more units reach the next price: $16.00 per unit");
  await checkA11y();

  // Reaching the break: the total follows (without JavaScript, through "Update total").
  await page.getByLabel(/^Quantity/).fill("1000");
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  await expect(page.getByTestId("order-net")).toHaveText("$16,000.00");
  await expect(page.getByTestId("next-break")).toHaveCount(0);

  // The cart prices the line at the break, with Michigan sales tax on the net.
  await page.getByLabel("Units for the cart").fill("1000");
  // The add is answered before the cart is opened (a navigation would cancel it in flight).
  const added = page.waitForResponse((response) => response.request().method() === "POST");
  await page.getByRole("button", { name: /Add to cart/ }).click();
  await added;
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
  await page.goto("/dashboard/cart");
  await expect(page.getByTestId("line-total")).toHaveText("$16,000.00");
  await expect(page.getByTestId("checkout-tax")).toContainText("MI sales tax 6%: $960.00");
  await expect(page.getByTestId("cart-total")).toHaveText("$16,960.00");
  await expect(page.getByTestId("checkout-tax")).toContainText("Tax for delivery to MI, United States");

  // Delivered to Texas, where the seller does not collect: the checkout shows the new total before ordering
  // (at once with JavaScript; without it, through "Update total").
  await page.getByLabel("Phone").fill("+1 555 0177");
  await fillDeliveryAddress(page, {
    ...DETROIT,
    company: "Dina's Depot",
    line1: "500 Congress Ave",
    city: "Austin",
    region: "TX",
    postalCode: "78701",
  });
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  await expect(page.getByTestId("cart-total")).toHaveText("$16,000.00");
  await expect(page.getByTestId("checkout-tax")).toContainText("does not collect sales tax in TX");
  expect(await Order.countDocuments({ userId: customer.id })).toBe(0);
  await page.getByRole("button", { name: "Place the order ($16,000.00)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("pay-price")).toHaveText("$16,000.00");
  const order = await Order.findOne({ userId: customer.id }).lean();
  expect(order).toMatchObject({ netCents: 1_600_000, taxCents: 0, totalCents: 1_600_000 });
  expect(order!.taxLines![0]).toMatchObject({ kind: "not-collected" });
});

test("an EU company buying in euros sees euro prices, an intra-community supply in its cart, its euro pro-forma until it ships, then its euro invoice", async ({
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
  await Company.updateOne({ _id: customer.companyId }, { $set: { "account.currency": "EUR" } });
  const part = await createPart({ priceCents: 1250 });
  await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency: "EUR", priceCents: 1100 }] } });
  const dollarsOnly = await createPart({ priceCents: 900 });

  // The catalogue in euros: the euro list, and a part with none is not sold in euros.
  await page.goto(`/parts?q=${encodeURIComponent(part.name)}`);
  await expect(page.getByTestId("price")).toHaveText("€11.00");
  await expect(page.getByTestId("shown-currency")).toHaveText("Prices in euros, your company's currency.");
  await page.goto(`/parts/${dollarsOnly.id}`);
  await expect(page.getByTestId("not-orderable")).toContainText(`${dollarsOnly.partNumber} has no price in euros yet`);
  await expect(page.getByRole("button", { name: /Add to cart/ })).toHaveCount(0);

  // The cart, before paying: no VAT, the intra-community supply and its reason, in euros.
  await page.goto(`/parts/${part.id}`);
  await page.getByLabel("Units for the cart").fill("200");
  await page.getByRole("button", { name: /Add to cart/ }).click();
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
  await page.goto("/dashboard/cart");
  await expect(page.getByTestId("checkout-tax")).toContainText("Intra-community supply");
  await expect(page.getByTestId("checkout-tax")).toContainText("Article 138(1)");
  await expect(page.getByTestId("cart-total")).toHaveText("€2,200.00");
  await page.getByLabel("Phone").fill("+49 40 555 0100");
  await fillDeliveryAddress(page, {
    ...DETROIT,
    company: "",
    line1: "Hafenstrasse 12",
    city: "Hamburg",
    region: "",
    postalCode: "20457",
    country: "DE",
  });
  await page.getByRole("button", { name: "Place the order (€2,200.00)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  const placed = await Order.findOne({ userId: customer.id }).lean();
  expect(placed).toMatchObject({ currency: "EUR", taxCents: 0, totalCents: 220_000, buyerVatNumber: "DE811907980" });
  await markOrderPaid({
    orderId: placed!._id.toString(),
    transactionId: `pi_${placed!._id.toString()}`,
    amountCents: placed!.totalCents,
    currency: "eur",
  });
  expect((await Order.findById(placed!._id).lean())?.status).toBe("paid");

  // Paid, not shipped: its pro-forma, which says the invoice comes with the goods.
  await page.goto(`/documents/${placed!._id.toString()}/invoice`);
  await expect(page).toHaveURL(/\/pro-forma$/);
  await expect(page.getByTestId("pro-forma-note")).toContainText("invoiced when it ships");
  const shipped = await shipOrder(
    placed!._id.toString(),
    { carrier: "dhl", trackingNumber: "JD0001" },
    { actor: { id: customer.id, email: "staff@example.com" }, current: null },
  );
  expect(shipped.ok).toBe(true);

  await page.goto(`/documents/${placed!._id.toString()}/invoice`);
  await expect(page.getByTestId("document-tax")).toContainText("Intra-community supply");
  await expect(page.getByTestId("tax-note")).toContainText("exempt from VAT (Article 138(1)");
  await expect(page.getByTestId("tax-note")).toContainText("DE811907980");
  await expect(page.getByTestId("tax-note")).toContainText("supplier VAT number NL859324710B01");
  await expect(page.getByTestId("buyer-vat")).toHaveText("VAT number: DE811907980");
  await expect(page.getByTestId("document-total")).toHaveText("€2,200.00");
});

test("a customer with no tax details is taxed by the delivery address, and the invoice says so", async ({
  page,
  login,
  createPart,
}) => {
  const customer = await login({ name: "Ola Ohio" });
  const part = await createPart({ priceCents: 1000 });
  const placed = await placeCustomerOrder({
    lines: [{ partId: part.id, quantity: 100 }],
    phone: "+1 555 0101",
    delivery: { ...TOLEDO, line1: "12 High Street", city: "Columbus", postalCode: "43004" },
    user: { id: customer.id },
  });
  if (!placed.ok) throw new Error("the order was not placed");
  // Ohio 5.75 % of $1,000.
  expect(placed.order).toMatchObject({ netCents: 100_000, taxCents: 5750, totalCents: 105_750 });
  await markOrderPaid({
    orderId: placed.order.id,
    transactionId: `pi_${placed.order.id}`,
    amountCents: placed.order.totalCents,
    currency: "usd",
  });
  await page.goto(`/documents/${placed.order.id}/invoice`);
  await expect(page.getByTestId("document-tax")).toContainText("OH sales tax 5.75%");
  await expect(page.getByTestId("document-total")).toHaveText("$1,057.50");
  await expect(page.getByText("tax location is not recorded")).toHaveCount(0);
});
