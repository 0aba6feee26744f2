import { randomUUID } from "node:crypto";
import { Cart } from "~/models/cart.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { parseFitmentLine } from "~/domain/catalogue";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

test("a customer fills a cart from the parts list and a part page, fixes a quantity and checks out into one order", async ({
  page,
  login,
  createPart,
  checkA11y,
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
  // Refused: the message by the form, on the part's page (without JavaScript the cart sends the browser back).
  await expect(page.getByText("Only 50 units are available")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/parts/${second.id}(#part-${second.id})?$`));
  await page.getByLabel("Units for the cart").fill("20");
  await page.getByRole("button", { name: `Add to cart ${second.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`20 × ${second.name} added to your cart`);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cart" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("$954.00");
  await checkA11y();

  // A quantity below the part's minimum is refused by the line; the cart stays as it was.
  const firstLine = page.getByTestId(`cart-line-${first.partNumber}`);
  await firstLine.getByLabel(`Quantity of ${first.name}`, { exact: true }).fill("99");
  await firstLine.getByRole("button", { name: `Update the quantity of ${first.name}` }).click();
  await expect(page.getByText("The minimum order is 100 units")).toBeVisible();
  await expect(page.getByTestId("cart-total")).toHaveText("$954.00");
  await page
    .getByTestId(`cart-line-${first.partNumber}`)
    .getByLabel(`Quantity of ${first.name}`, { exact: true })
    .fill("250");
  await page
    .getByTestId(`cart-line-${first.partNumber}`)
    .getByRole("button", { name: `Update the quantity of ${first.name}` })
    .click();
  await expect(page.getByTestId("cart-total")).toHaveText("$1,590.00");

  await page.getByLabel("Phone").fill("+1 555 0199");
  await fillDeliveryAddress(page);
  await page.getByRole("button", { name: "Place the order ($1,590.00)" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  await expect(page.getByTestId("pay-price")).toHaveText("$1,590.00");
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
  await expect(row).toContainText("$1,590.00");
  await row.getByRole("link", { name: /^SO-\d+$/ }).click();
  await expect(page.getByTestId("order-line")).toHaveCount(2);
  await expect(page.getByTestId("order-total")).toHaveText("$1,590.00");
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
  await expect(page.getByTestId("pad-summary")).toHaveText("1 valid line ($450.00), 2 to fix.");
  await checkA11y();

  await page.getByLabel("Part numbers and quantities").fill(`${a.partNumber}\t150\n${b.partNumber};60`);
  await page.getByLabel("Phone").fill("+1 555 0123");
  await fillDeliveryAddress(page);
  await page.getByRole("button", { name: "Order now" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  await expect(page.getByTestId("pay-price")).toHaveText("$1,049.40");

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
    `${b.name} (${b.partNumber}): the price went up from $9.00 to $10.00 a unit.`,
  );
  await expect(page.getByTestId("cart-total")).toHaveText("$1,696.00");
  await checkA11y();
});

test("the quick-order pad finds a part written as an ERP writes it: pw1003, PW 1003 and its OE number", async ({
  page,
  login,
  createPart,
}) => {
  const user = await login({ name: "Erin Export" });
  const digits = randomUUID().replace(/\D/g, "").slice(0, 7).padEnd(7, "7");
  const part = await createPart({
    partNumber: `PE-${digits}`,
    oeNumbers: [`OE ${digits}-11`],
    priceCents: 200,
    minOrderQuantity: 10,
    availableQuantity: 1000,
  });
  await page.goto("/dashboard/quick-order");
  await page
    .getByLabel("Part numbers and quantities")
    .fill(`pe${digits}, 20\nPE ${digits} 30\noe${digits}11\t40\nNOPE-404 5`);
  await page.getByRole("button", { name: "Check the lines" }).click();
  await expect(page.getByTestId(`pad-line-${part.partNumber}`).getByTestId("pad-check")).toHaveText(
    "OK (lines 1, 2 and 3 merged)",
  );
  await expect(page.getByTestId("pad-line-NOPE-404").getByTestId("pad-check")).toHaveText(
    "Unknown part number NOPE-404",
  );
  await expect(page.getByTestId("pad-summary")).toHaveText("1 valid line ($180.00), 1 to fix.");
  await page.getByRole("button", { name: "Add the valid lines to the cart" }).click();
  await expect(page.getByText("1 line added to your cart")).toBeVisible();
  const cart = await Cart.findOne({ userId: user.id }).lean();
  expect(cart?.lines.map((line) => [line.partId.toString(), line.quantity])).toEqual([[part.id, 90]]);
});

test("signed in, /parts adds to the cart and picks a vehicle in place with JavaScript, and by plain forms without", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
}) => {
  test.slow();
  // Anything the browser reports as wrong (a hydration mismatch among them) fails the test.
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (["error", "warning"].includes(message.type()) && !message.text().startsWith("Failed to load resource")) {
      problems.push(message.text());
    }
  });
  const user = await login({ name: "Lena Live" });
  const tag = `Livekit${randomUUID().slice(0, 6)}`;
  const fits = await createPart({ name: `${tag} Wiper Blade`, priceCents: 300, minOrderQuantity: 100 });
  const other = await createPart({ name: `${tag} Horn`, priceCents: 700, minOrderQuantity: 100 });
  const fitment = parseFitmentLine("Volvo V60 2010-2018");
  if (!fitment.ok) throw new Error(fitment.message);
  const doc = await Part.findById(fits.id);
  doc!.set("fitment", [fitment.row]);
  await doc!.save(); // saved, so the vehicle keys behind the picker are worked out too
  const cartLines = async () =>
    ((await Cart.findOne({ userId: user.id }).lean())?.lines ?? []).map((line) => [
      line.partId.toString(),
      line.quantity,
    ]);

  await page.goto(`/parts?q=${tag}`);
  // The page is hydrated for a signed-in customer; the marker shows the page was never loaded again.
  if (javaScriptEnabled) {
    expect(await page.evaluate(() => "__remixContext" in window)).toBe(true);
    await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
  }
  const names = page.getByRole("list", { name: "Parts" }).getByRole("heading", { level: 2 });
  await expect(names).toHaveText([other.name, fits.name]);

  const card = page.getByRole("listitem").filter({ hasText: fits.name });
  // Found by its form: its name changes while it is pending.
  const add = card.locator(`form[action="/dashboard/cart"] button[type="submit"]`);
  await card.getByLabel(`Quantity of ${fits.name}`).fill("150");
  if (javaScriptEnabled) {
    // Held on its way, the button says what it is doing.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/dashboard/cart*", async (route) => {
      await held;
      await route.continue();
    });
    await add.click();
    await expect(add).toHaveText("Adding…");
    await expect(add).toHaveAttribute("aria-disabled", "true");
    release();
    await page.unrouteAll({ behavior: "wait" });
  } else {
    await add.click();
  }
  await expect(page.getByTestId("toast")).toContainText(`150 × ${fits.name} added to your cart`);
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}$`));
  await expect.poll(cartLines).toEqual([[fits.id, 150]]);

  // Refused by the server: the message by the field (with JavaScript on the card itself).
  await card.getByLabel(`Quantity of ${fits.name}`).fill("5000");
  await add.click();
  // Without JavaScript the cart sends the browser back to the same list, at the card.
  await expect(card.getByText("Only 1,000 units are available (150 already in your cart)")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}${javaScriptEnabled ? "" : `#part-${fits.id}`}$`));
  expect(await cartLines()).toEqual([[fits.id, 150]]);

  // The vehicle picker: each choice refines the list (with JavaScript at once, without it by the button).
  const picker = page.getByRole("form", { name: "Shop by vehicle" });
  for (const [label, option] of [
    ["Make", "Volvo"],
    ["Model", "V60"],
    ["Year", "2015"],
  ] as const) {
    const select = picker.getByLabel(label);
    await select.focus();
    await select.selectOption(option);
    if (!javaScriptEnabled) await picker.getByRole("button", { name: "Find parts" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]${label.toLowerCase()}=${option}$`));
    await expect(names).toHaveCount(1);
    // The list came in place: the select just used keeps the focus.
    if (javaScriptEnabled) await expect(select).toBeFocused();
  }
  await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}&make=Volvo&model=V60&year=2015$`));
  await expect(names).toHaveText([fits.name]);
  await expect(page.getByTestId("fits")).toHaveText("✓ Fits your 2015 Volvo V60");
  await expect(picker.getByLabel("Year")).toHaveValue("2015");
  await page.goBack();
  await expect(page).toHaveURL(/make=Volvo&model=V60(&year=)?$/);
  await expect(names).toHaveText([fits.name]);
  // (Without JavaScript the browser may show the year it remembers for the page.)
  if (javaScriptEnabled) await expect(picker.getByLabel("Year")).toHaveValue("");

  if (javaScriptEnabled) {
    expect(await page.evaluate(() => "stayedOnPage" in window)).toBe(true);
    expect(problems).toEqual([]);
  }
  await page.goto("/dashboard/cart");
  await expect(page.getByTestId("cart-total")).toHaveText("$477.00");
});
