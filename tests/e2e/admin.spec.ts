import { randomUUID } from "node:crypto";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { DETROIT } from "../fixtures/addresses";
import { placeOrder } from "~/orders/checkout.server";
import { expect, test } from "./fixtures";
import { layoutProblems } from "./layout";

test("an admin adds a part, finds it newest on the home page, restocks it and deletes it", async ({
  page,
  login,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // a long journey on a small shared machine
  await login({ role: "admin" });
  const name = `Clutch Kit ${randomUUID().slice(0, 6)}`;

  await page.goto("/dashboard/addProduct");
  await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
  await expect(page.getByLabel("Minimum order quantity")).toHaveValue("100");
  await checkA11y();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill("Clutch disc, pressure plate and release bearing in one box.");
  await page.getByLabel("Image URL").fill("/images/parts/pw-1007.svg");
  await page.getByLabel("Quantity in stock").fill("500");
  await page.getByLabel(/^Price per unit/).fill("19");
  await page.getByLabel("Category").selectOption({ label: "Transmission" });
  await page.getByRole("button", { name: "Add Product" }).click();

  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  await expect(page.getByTestId("toast")).toContainText("Part added successfully");

  await page.goto("/");
  await expect(page.getByText(name).first()).toBeVisible();

  await page.goto("/dashboard/manageProducts");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("price")).toHaveText("$19.00");
  await expect(row.getByTestId("available")).toHaveText("500");
  await checkA11y();
  await row.getByLabel(/^Stock/).fill("750");
  await row.getByLabel(/^Price/).fill("21");
  await row.getByRole("button", { name: `Save price and stock of ${name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${name}: price and stock saved`);
  await expect(row.getByTestId("available")).toHaveText("750");
  await expect(row.getByTestId("price")).toHaveText("$21.00");

  // A bad stock figure is refused by the field and changes nothing.
  await row.getByLabel(/^Stock/).fill("-4");
  if (javaScriptEnabled) {
    await row.getByRole("button", { name: `Save price and stock of ${name}` }).click();
    await expect(row.getByText("Stock must be at least 0")).toBeVisible();
  }
  expect((await Part.findOne({ name }).lean())?.availableQuantity).toBe(750);

  // Edit Product: the title and the button say the same thing; the part is named under the title.
  await row.getByRole("link", { name: `Edit details of ${name}` }).click();
  await expect(page.getByRole("heading", { name: "Edit Product" })).toBeVisible();
  await expect(page.getByTestId("edited-part")).toContainText(name);
  await page.getByLabel("Description").fill("Clutch disc, pressure plate, release bearing and alignment tool.");
  // A price list in euros: a break above its own price is refused at the field, nothing saved; then set.
  await page.getByLabel("Euro price per unit (whole euros)").fill("17");
  await page.getByLabel("Volume breaks in euros (optional)").fill("500:€18");
  await page.getByRole("button", { name: "Save Product" }).click();
  await expect(page.getByText("The price at 500 units is above the list price (€17.00)")).toBeVisible();
  expect((await Part.findOne({ name }).lean())?.prices ?? []).toEqual([]);
  await page.getByLabel("Volume breaks in euros (optional)").fill("500:-5%");
  await page.getByRole("button", { name: "Save Product" }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  await expect(page.getByTestId("toast")).toContainText(`${name} is saved`);
  expect(await Part.findOne({ name }).lean()).toMatchObject({
    description: expect.stringMatching(/alignment tool/),
    prices: [{ currency: "EUR", priceCents: 1700, volumeBreaks: [{ minQuantity: 500, percentOff: 5 }] }],
  });
  await expect(row.getByTestId("price")).toHaveText("$21.00");
  await expect(row.getByTestId("other-prices")).toHaveText("€17.00 with breaks");
  await expect(row.getByTestId("not-sold-in")).toHaveText("Not sold in GBP");

  await row.getByRole("link", { name: `Delete ${name}` }).click();
  if (javaScriptEnabled) {
    const dialog = page.getByRole("dialog", { name: `Delete ${name}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete" }).click();
  } else {
    await expect(page).toHaveURL(/\/dashboard\/manageProducts\/[a-f0-9]{24}\/delete$/);
    await expect(page.getByRole("heading", { name: `Delete ${name}?` })).toBeVisible();
    await checkA11y();
    await page.getByRole("button", { name: "Delete" }).click();
  }
  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  await expect(page.getByTestId("toast")).toContainText(`${name} is deleted`);
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  expect(await Part.exists({ name })).toBeNull();
});

test("a restock that fills backorders says where the stock went, beside four labelled stock columns (also on a phone)", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  // 200 units on backorder over 3 orders, the shelf empty.
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 50, availableQuantity: 0 });
  await Part.updateOne({ _id: part.id }, { $set: { backorderable: true, leadTimeDays: 10 } });
  const numbers: string[] = [];
  for (const quantity of [100, 50, 50]) {
    const user = await createUser();
    const delivery = { ...DETROIT, line1: "9 Backorder Row" };
    const placed = await placeOrder({ lines: [{ partId: part.id, quantity }], phone: "+1 555 0164", delivery, user });
    if (!placed.ok) throw new Error("not placed");
    numbers.push(placed.order.number);
  }
  await login({ role: "admin" });
  await page.goto("/dashboard/manageProducts");
  for (const label of ["On the shelf", "Held", "Available", "On backorder"])
    await expect(page.getByRole("columnheader", { name: label, exact: true })).toBeVisible();
  const row = page.getByTestId(`part-row-${part.id}`);
  const columns = async () =>
    Promise.all(["on-shelf", "held", "available", "backordered"].map((id) => row.getByTestId(id).innerText()));
  expect(await columns()).toEqual(["0", "0", "0", expect.stringMatching(/^200\s+3 orders$/)]);

  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await row.getByLabel(/^Stock/).fill("300");
  await row.getByRole("button", { name: `Save price and stock of ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(
    `${part.name}: price and stock saved; 300 received: 200 allocated to 3 backorders (${numbers.join(", ")}), 100 now available`,
  );
  await expect(row.getByTestId("available")).toHaveText("100");
  expect(await columns()).toEqual(["300", "200", "100", "0"]);
  await checkA11y();

  // On a 360 px phone the row is a card whose cells name themselves, and nothing leaves the screen.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  const labels = await Promise.all(
    ["on-shelf", "held", "available", "backordered"].map((id) =>
      row.getByTestId(id).evaluate((cell) => getComputedStyle(cell, "::before").content),
    ),
  );
  expect(labels).toEqual(['"On the shelf"', '"Held"', '"Available"', '"On backorder"']);
  await expect(row.getByTestId("held")).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
});

test("Manage Orders moves a paid order from Pending to Shipped, and removes an unpaid one", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // a long journey on a small shared machine
  await login({ role: "admin" });
  const part = await createPart({ availableQuantity: 400 });
  const customer = await createUser({ name: `Sam Shipper ${randomUUID().slice(0, 4)}` });
  const line = (quantity: number) => ({
    lines: [
      {
        partId: part.id,
        partNumber: part.partNumber,
        productName: part.name,
        unitPriceCents: part.priceCents,
        quantity,
        lineTotalCents: part.priceCents * quantity,
      },
    ],
    totalCents: part.priceCents * quantity,
  });
  const base = {
    ...line(100),
    phone: "555-0100",
    address: "1 Dock Road",
    userId: customer.id,
    userEmail: customer.email,
    userName: customer.name,
  };
  const paid = await Order.create({
    ...base,
    status: "paid",
    transactionId: `pi_${randomUUID().slice(0, 12)}`,
    paidAt: new Date(),
  });
  const paidNumber = `SO-${paid.number}`;
  // Placed as a customer would: the order notes its hold on the part, which removing it gives back.
  await createOrder({ user: customer, part, quantity: 200 });

  await page.goto("/dashboard/manageOrders");
  await page.getByLabel("Status").selectOption("pending");
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByLabel("Status")).toHaveValue("pending");
  const paidRow = page.getByRole("row").filter({ hasText: part.name });
  await expect(paidRow).toHaveCount(1);
  await expect(paidRow.getByTestId("status")).toHaveText("Pending");
  await checkA11y();
  await paidRow.getByRole("link", { name: new RegExp(`^Ship with tracking… ${paidNumber}:`) }).click();
  await page.getByLabel("Carrier").selectOption("collected");
  await page.getByRole("button", { name: `Mark ${paidNumber} shipped and email the customer` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${paidNumber} is shipped; the customer is emailed`);
  await page.goto("/dashboard/manageOrders?status=pending");
  await expect(page.getByLabel("Status")).toHaveValue("pending");
  await expect(paidRow).toHaveCount(0);

  await page.goto("/dashboard/manageOrders?status=shipped");
  const shippedRow = page.getByRole("row").filter({ hasText: part.name });
  await expect(shippedRow.getByTestId("status")).toHaveText("Shipped");
  await expect(shippedRow).toContainText(/Shipped \w{3} \d{1,2}, \d{4}/);
  await expect(shippedRow.getByRole("button")).toHaveCount(0);
  await expect(shippedRow.getByRole("link", { name: /^Ship / })).toHaveCount(0);

  await page.goto("/dashboard/manageOrders?status=unpaid");
  const unpaidRow = page.getByRole("row").filter({ hasText: part.name });
  await expect(unpaidRow.getByTestId("status")).toHaveText("Unpaid");
  await unpaidRow.getByRole("link", { name: /^Remove SO-\d+/ }).click();
  if (javaScriptEnabled) {
    const dialog = page.getByRole("dialog", { name: "Remove this unpaid order?" });
    await dialog.getByLabel("Reason (the customer reads it)").fill("Ordered twice by mistake");
    await dialog.getByRole("button", { name: "Remove" }).click();
  } else {
    await expect(page).toHaveURL(/\/dashboard\/manageOrders\/[a-f0-9]{24}\/remove$/);
    await page.getByLabel("Reason (the customer reads it)").fill("Ordered twice by mistake");
    await page.getByRole("button", { name: "Remove" }).click();
  }
  await expect(page.getByTestId("toast")).toContainText("is removed and its stock is back");
  await page.goto("/dashboard/manageOrders?status=removed");
  await expect(page.getByRole("row").filter({ hasText: part.name }).getByTestId("status")).toHaveText("Removed");
  expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(600);
});

test("a customer who opens an admin screen is signed out and sent to login", async ({ page, login }) => {
  await login();
  await page.goto("/dashboard/manageOrders");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("toast")).toContainText("signed out");
  await page.goto("/dashboard/orders");
  await expect(page).toHaveURL(/\/login/);
});
