import { Part } from "~/models/part.server";
import { Order } from "~/orders/model/schema.server";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

test("a customer orders a part, sees it in My Orders, and cancels it only with the word cancel", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // a long journey on a small shared machine
  await login({ name: "Olive Order" });
  const part = await createPart({ priceCents: 1250, minOrderQuantity: 100, availableQuantity: 1000 });

  await page.goto(`/parts/${part.id}`);
  await expect(page.getByRole("heading", { level: 1, name: part.name })).toBeVisible();
  await expect(page.getByTestId("min-order")).toHaveText("100");
  await expect(page.getByTestId("available")).toHaveText("1,000");
  await expect(page.getByTestId("unit-price")).toHaveText("$12.50");
  await expect(page.getByLabel("Name")).toHaveValue("Olive Order");
  await expect(page.getByLabel("Name")).toHaveAttribute("readonly", "");
  await expect(page.getByLabel("Email")).toHaveAttribute("readonly", "");
  const quantity = page.getByLabel(/^Quantity/);
  await expect(quantity).toHaveValue("100");
  await expect(page.getByTestId("order-net")).toHaveText("$1,250.00");
  await checkA11y();

  const buy = page.getByRole("button", { name: "Buy" });
  if (javaScriptEnabled) {
    // The Buy button is disabled while the quantity is empty or above the stock; the total follows.
    await quantity.fill("");
    await expect(buy).toBeDisabled();
    await quantity.fill("1001");
    await expect(buy).toBeDisabled();
    await quantity.fill("200");
    await expect(buy).toBeEnabled();
    await expect(page.getByTestId("order-net")).toHaveText("$2,500.00");
    // The tax of the starting address (none named: the seller's own state) and the total with it.
    await expect(page.getByTestId("order-tax")).toContainText("MI sales tax 6%: $150.00");
    await expect(page.getByTestId("order-total-with-tax")).toHaveText("$2,650.00");
    await expect(page.getByRole("button", { name: "Update total" })).toHaveCount(0);
  } else {
    // Without JavaScript "Update total" re-renders the form with the typed quantity; nothing is ordered.
    await quantity.fill("200");
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByTestId("order-net")).toHaveText("$2,500.00");
    await expect(page.getByTestId("order-total-with-tax")).toHaveText("$2,650.00");
    await expect(quantity).toHaveValue("200");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
    await quantity.fill("50");
    await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByText("The minimum order is 100 units")).toBeVisible();
    await quantity.fill("200");
  }
  await page.getByLabel("Phone").fill("+1 555 0142");
  await fillDeliveryAddress(page);
  // Without JavaScript the page shows the total of the quantity last sent: bring it up to date first
  // (the order is placed only at the total on screen).
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  await buy.click();

  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Your Order is Placed");
  await expect(toast).toContainText("Order Placed Successfully!");
  await expect(toast).toContainText("Total: $2,650.00");
  await expect(page.getByTestId("toast")).toHaveCount(1);

  const row = page.getByRole("row").filter({ hasText: part.name });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").nth(0)).toHaveText("200");
  await expect(row.getByRole("cell").nth(1)).toHaveText("$2,650.00");
  await expect(row).toContainText("Unpaid");
  await expect(row.getByRole("link", { name: /^Pay/ })).toHaveAttribute("href", /^\/dashboard\/payment\/[a-f0-9]{24}$/);
  await checkA11y();
  expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(800);

  await row.getByRole("link", { name: new RegExp(`^Cancel SO-\\d+: ${part.name}$`) }).click();
  const confirmWord = page.getByLabel("Type cancel to confirm");
  const drop = page.getByRole("button", { name: "Drop" });
  if (javaScriptEnabled) {
    // A modal; Drop stays disabled until the text is exactly "cancel".
    const dialog = page.getByRole("dialog", { name: "Cancel this order?" });
    await expect(dialog).toBeVisible();
    await confirmWord.fill("drop");
    await expect(drop).toBeDisabled();
    await confirmWord.fill("Cancel");
    await expect(drop).toBeDisabled();
    await checkA11y();
  } else {
    // A page; the server refuses the wrong word with a message by the field.
    await expect(page).toHaveURL(/\/dashboard\/orders\/[a-f0-9]{24}\/cancel$/);
    await checkA11y();
    await confirmWord.fill("drop");
    await drop.click();
    await expect(page.getByText("Type exactly cancel to drop the order")).toBeVisible();
    await expect(confirmWord).toHaveAttribute("aria-invalid", "true");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(800);
  }
  await confirmWord.fill("cancel");
  await expect(drop).toBeEnabled();
  await drop.click();

  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  await expect(page.getByTestId("toast")).toContainText(
    new RegExp(`Your order SO-\\d+ \\(${part.name}\\) is cancelled`),
  );
  await expect(row).toContainText("Cancelled");
  await expect(row.getByRole("link", { name: /^Cancel SO-/ })).toHaveCount(0);
  await expect(row.getByRole("link", { name: /^Pay/ })).toHaveCount(0);

  // The stock is back.
  await page.goto(`/parts/${part.id}`);
  await expect(page.getByTestId("available")).toHaveText("1,000");
});

test("signed out, part details sends the visitor to log in and back", async ({ page, createPart }) => {
  const part = await createPart();
  await page.goto(`/parts/${part.id}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fparts%2F${part.id}`));
});

test("a missing part id is the 404 page", async ({ page, login }) => {
  await login();
  const response = await page.goto("/parts/0123456789abcdef01234567");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("img", { name: /Error 404/ })).toBeVisible();
});

test("a review with its star rating appears on the home page as the newest", async ({ page, login, checkA11y }) => {
  await login({ name: "Rosa Review" });
  await page.goto("/dashboard/review");
  await expect(page.getByRole("heading", { name: "Add A Review" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "2 stars" })).toBeChecked();
  await checkA11y();
  await page.locator("label").filter({ hasText: "4 stars" }).click();
  await expect(page.getByRole("radio", { name: "4 stars" })).toBeChecked();
  const text = `The timing belt kits fit perfectly (${Date.now()}).`;
  await page.getByLabel("Description").fill(text);
  await page.getByRole("button", { name: "Add A Review" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("toast")).toContainText("Your review is on the home page");
  const review = page.getByRole("region", { name: "Customer Reviews" }).getByRole("listitem").filter({ hasText: text });
  await expect(review).toBeVisible();
  await expect(review).toContainText("Rosa Review");
  await expect(review.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
});

test("an empty review description is refused with a message by the field", async ({
  page,
  login,
  javaScriptEnabled,
}) => {
  await login();
  await page.goto("/dashboard/review");
  const description = page.getByLabel("Description");
  if (!javaScriptEnabled) {
    // Without JavaScript the browser's own check stops an empty field; a blank one reaches the server.
    await description.fill("   ");
  }
  await page.getByRole("button", { name: "Add A Review" }).click();
  await expect(page.getByText("Description is Required")).toBeVisible();
  await expect(description).toHaveAttribute("aria-invalid", "true");
});

test("the quick-order pad keeps every line through Check, Round up and Check again, typed before the scripts ran too", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
}) => {
  const user = await login({ name: "Paddy Pad" });
  const a = await createPart({ priceCents: 300, minOrderQuantity: 100, availableQuantity: 1000 });
  const b = await createPart({ priceCents: 900, minOrderQuantity: 100, availableQuantity: 1000 });
  // With JavaScript, everything is typed while the page's scripts are still on their way, as on a slow phone.
  let release = () => {};
  if (javaScriptEnabled) {
    const arrived = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith("/build/") && url.pathname.endsWith(".js"),
      async (route) => {
        await arrived;
        await route.continue();
      },
    );
  }
  await page.goto("/dashboard/quick-order", { waitUntil: "commit" });
  const pad = page.getByLabel("Part numbers and quantities");
  await pad.fill(`${a.partNumber} 100\n${b.partNumber} 50`);
  await page.getByLabel("Phone").fill("+1 555 0160");
  await fillDeliveryAddress(page);
  if (javaScriptEnabled) {
    release();
    // Hydrated: React has taken over the whole page (the footer is last).
    await page.waitForFunction(() =>
      Object.keys(document.querySelector("footer") ?? {}).some((key) => key.startsWith("__reactFiber$")),
    );
  }

  const check = page.getByRole("button", { name: "Check the lines" });
  await check.click();
  const below = page.getByTestId(`pad-line-${b.partNumber}`);
  await expect(below.getByTestId("pad-check")).toHaveText("The minimum order is 100 units");
  // The answer came from the page's scripts, not from a page loaded again.
  const checked = page.getByRole("heading", { name: "Checked lines" });
  if (javaScriptEnabled) await expect(checked).toBeFocused();
  await expect(pad).toHaveValue(`${a.partNumber} 100\n${b.partNumber} 50`);

  await below.getByRole("button", { name: /^Round up to 100/ }).click();
  const rounded = `${a.partNumber} 100\n${b.partNumber} 100`;
  await expect(page.getByTestId("pad-summary")).toHaveText("2 valid lines ($1,200.00).");
  await expect(pad).toHaveValue(rounded);

  await check.click();
  // The second answer is in: with JavaScript it takes the focus, without it the address loses the rounded line's.
  if (javaScriptEnabled) await expect(checked).toBeFocused();
  else await expect(page).toHaveURL(/\/dashboard\/quick-order$/);
  await expect(page.getByTestId("pad-summary")).toHaveText("2 valid lines ($1,200.00).");
  await expect(pad).toHaveValue(rounded);
  await expect(page.getByLabel("Phone")).toHaveValue("+1 555 0160");

  await page.getByRole("button", { name: "Order now" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  // With Michigan's 6 % tax: the state chosen before the scripts ran was kept too.
  await expect(page.getByTestId("pay-price")).toHaveText("$1,272.00");
  const orders = await Order.find({ userId: user.id }).lean();
  expect(orders.map((order) => order.lines.map((line) => [line.partNumber, line.quantity]))).toEqual([
    [
      [a.partNumber, 100],
      [b.partNumber, 100],
    ],
  ]);
});
