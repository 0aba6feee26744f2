import { randomUUID } from "node:crypto";
import { Order } from "~/models/order.server";
import { Part } from "~/models/part.server";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

test("a customer fills a cart from the parts list and a part page, fixes a quantity and checks out into one order", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // a long journey on a small shared machine
  const user = await login({ name: "Carla Cart" });
  const tag = `Cartkit${randomUUID().slice(0, 6)}`;
  const first = await createPart({
    name: `${tag} Brake Hose`,
    priceCents: 400,
    minOrderQuantity: 100,
    availableQuantity: 1000,
  });
  const second = await createPart({
    name: `${tag} Fuel Pump`,
    priceCents: 2500,
    minOrderQuantity: 10,
    availableQuantity: 50,
  });

  await page.goto(`/parts?q=${tag}`, { waitUntil: "load" });
  const card = page.getByRole("listitem").filter({ hasText: first.name });
  await expect(card.getByLabel(`Quantity of ${first.name}`)).toHaveValue("100");
  await card.getByRole("button", { name: `Add to cart ${first.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`100 × ${first.name} added to your cart`);
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}$`));

  await page.goto(`/parts/${second.id}`);
  const units = page.getByLabel("Units for the cart");
  await expect(units).toHaveValue("10");
  await units.fill("60");
  await page.getByRole("button", { name: `Add to cart ${second.name}` }).click();
  if (javaScriptEnabled) {
    await expect(page.getByText("Only 50 units are available")).toBeVisible();
  } else {
    // Without JavaScript the form posts to the cart, which says what was refused.
    await expect(page.getByText("Not added to the cart: Only 50 units are available")).toBeVisible();
    await page.goBack();
  }
  await page.getByLabel("Units for the cart").fill("20");
  await page.getByRole("button", { name: `Add to cart ${second.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`20 × ${second.name} added to your cart`);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("$900");
  await checkA11y();

  // A quantity below the part's minimum is refused by the line; the cart stays as it was.
  const firstLine = page.getByTestId(`cart-line-${first.partNumber}`);
  await firstLine.getByLabel(`Quantity of ${first.name}`, { exact: true }).fill("99");
  await firstLine.getByRole("button", { name: `Update the quantity of ${first.name}` }).click();
  await expect(page.getByText("The minimum order is 100 units")).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("$900");
  await page
    .getByTestId(`cart-line-${first.partNumber}`)
    .getByLabel(`Quantity of ${first.name}`, { exact: true })
    .fill("250");
  await page
    .getByTestId(`cart-line-${first.partNumber}`)
    .getByRole("button", { name: `Update the quantity of ${first.name}` })
    .click();
  await expect(page.getByTestId("cart-total")).toHaveText("$1,500");

  await page.getByLabel("Phone").fill("+1 555 0199");
  await page.getByLabel("Address", { exact: true }).fill("3 Axle Street, Springfield");
  await page.getByRole("button", { name: "Place the order ($1,500)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  await expect(page.getByTestId("pay-price")).toHaveText("$1,500");
  await expect(page.getByTestId("order-line")).toHaveCount(2);

  const orders = await Order.find({ userId: user.id }).lean();
  expect(orders).toHaveLength(1);
  expect(orders[0].lines.map((line) => [line.partNumber, line.quantity])).toEqual([
    [first.partNumber, 250],
    [second.partNumber, 20],
  ]);
  expect((await Part.findById(first.id).lean())?.availableQuantity).toBe(750);

  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${orders[0]._id}`);
  await expect(row).toContainText(`${first.name} + 1 more`);
  await expect(row).toContainText("$1,500");
  await row.getByRole("link", { name: `${first.name} + 1 more`, exact: true }).click();
  await expect(page.getByTestId("order-line")).toHaveCount(2);
  await expect(page.getByTestId("order-total")).toHaveText("$1,500");
});

test("the quick-order pad checks pasted lines, then orders them at once; a past order goes back into the cart", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow();
  const user = await login({ name: "Quinn Quick" });
  const a = await createPart({ priceCents: 300, minOrderQuantity: 100, availableQuantity: 1000 });
  const b = await createPart({ priceCents: 900, minOrderQuantity: 50, availableQuantity: 500 });

  await page.goto("/dashboard/quick-order");
  const pad = page.getByLabel("Part numbers and quantities");
  await pad.fill(`${a.partNumber}\t100\nNOPE-404 5\n${a.partNumber}, 50\n${b.partNumber};10`);
  await page.getByRole("button", { name: "Check the lines" }).click();
  await expect(page.getByTestId(`pad-line-${a.partNumber}`).getByTestId("pad-check")).toHaveText(
    "OK (lines 1 and 3 merged)",
  );
  await expect(page.getByTestId("pad-line-NOPE-404").getByTestId("pad-check")).toHaveText(
    "Unknown part number NOPE-404",
  );
  await expect(page.getByTestId(`pad-line-${b.partNumber}`).getByTestId("pad-check")).toHaveText(
    "The minimum order is 50 units",
  );
  await expect(page.getByTestId("pad-summary")).toHaveText("1 valid line ($450), 2 to fix.");
  await checkA11y();

  await page.getByLabel("Part numbers and quantities").fill(`${a.partNumber}\t150\n${b.partNumber};60`);
  await page.getByLabel("Phone").fill("+1 555 0123");
  await page.getByLabel("Address", { exact: true }).fill("9 Gasket Way");
  await page.getByRole("button", { name: "Order now" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("pay-price")).toHaveText("$990");

  // A shipped order from last month, ordered again: the price of b has gone up since.
  const past = await createOrder({
    user,
    status: "shipped",
    lines: [
      { part: a, quantity: 200 },
      { part: b, quantity: 100 },
    ],
  });
  await Part.updateOne({ _id: b.id }, { $set: { priceCents: 1000 } });
  await page.goto("/dashboard/orders");
  await page
    .getByTestId(`order-${past.id}`)
    .getByRole("button", { name: /^Order again/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/cart$/);
  await expect(page.getByTestId("toast")).toContainText("2 lines of your order added to your cart");
  await expect(page.getByRole("heading", { name: "What changed since that order" })).toBeVisible();
  await expect(page.getByTestId("cart-notices")).toHaveText(
    `${b.name} (${b.partNumber}): the price went up from $9 to $10 a unit.`,
  );
  await expect(page.getByTestId("cart-total")).toHaveText("$1,600");
  await checkA11y();
});
