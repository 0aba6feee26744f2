import { randomUUID } from "node:crypto";
import { getPart, Part } from "~/models/part.server";
import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

/**
 * The details that keep a buyer and a clerk where they were: a refused Add to cart stays on the
 * catalogue, the sign-in page names the part that is waiting, the header counts the cart, and a
 * price is whole dollars from the form and the import to the list and the document.
 * Each runs with JavaScript on and off (the two projects).
 */

test("a refused Add to cart comes back to the same catalogue page and place, the message at that part's card", async ({
  page,
  login,
  createPart,
  javaScriptEnabled,
}) => {
  await login();
  const tag = randomUUID().slice(0, 6);
  const name = `Refusal Widget ${tag}`;
  await createPart({ name, minOrderQuantity: 100, availableQuantity: 500 });
  const listing = `/parts?q=${encodeURIComponent(name)}&sort=price-asc&stock=in`;
  await page.goto(listing);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
  await card.getByLabel(`Quantity of ${name}`).fill("20");
  await card.getByRole("button", { name: `Add to cart ${name}` }).click();

  await expect(card.getByText("The minimum order is 100 units")).toBeVisible();
  // The same page: search, sort and filter kept; without JavaScript the browser is taken to the card.
  const url = new URL(page.url());
  expect(url.pathname).toBe("/parts");
  expect(url.searchParams.get("q")).toBe(name);
  expect(url.searchParams.get("sort")).toBe("price-asc");
  expect(url.searchParams.get("stock")).toBe("in");
  if (!javaScriptEnabled) expect(url.hash).toMatch(/^#part-[a-f0-9]{24}$/);
  await expect(card.getByLabel(`Quantity of ${name}`)).toHaveValue("20");
  await expect(card.getByLabel(`Quantity of ${name}`)).toHaveAttribute("aria-invalid", "true");
  await expect(card).toBeInViewport();
  await expect(page.getByTestId("nav-cart").first()).toHaveText("Cart");

  // The message was said once: a reload shows the card as it was.
  await page.reload();
  await expect(card.getByText("The minimum order is 100 units")).toHaveCount(0);

  // Enough units go in, and the header's Cart counts the line.
  await card.getByLabel(`Quantity of ${name}`).fill("100");
  await card.getByRole("button", { name: `Add to cart ${name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`100 × ${name} added to your cart`);
  await expect(page.getByTestId("nav-cart").first()).toContainText("Cart1 line");
});

test("a visitor who types an exact part number is asked to sign in for that part, and comes back to it", async ({
  page,
  createPart,
}) => {
  test.slow(); // a password sign-in (argon2) on a small shared machine
  const part = await createPart({ name: `LED Headlight Bulb H7 ${randomUUID().slice(0, 6)}` });
  const user = await createUser({ name: "Wendy Waiting" });
  await page.goto("/parts");
  await page.getByLabel("Search by name or part number").fill(part.partNumber);
  await page.getByRole("button", { name: "Search" }).click();

  await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fparts%2F${part.id}$`));
  const waiting = page.getByTestId("waiting-part");
  await expect(waiting).toHaveText(`Sign in to order ${part.partNumber} ${part.name}`);
  await expect(waiting.locator("img")).toHaveAttribute("src", part.img);

  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(new RegExp(`/parts/${part.id}$`), { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: part.name, level: 1 })).toBeVisible();
});

test("money: whole dollars typed in the form and the import, the same amounts in the list and the document", async ({
  page,
  login,
}) => {
  test.slow(); // two form posts, an upload and a document on a small shared machine
  await login({ role: "admin" });
  const name = `Money Rule Rotor ${randomUUID().slice(0, 6)}`;

  // Add Product: whole dollars.
  await page.goto("/dashboard/addProduct");
  await expect(page.getByLabel(/^Price per unit/)).toHaveAttribute("step", "1");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill("Vented brake rotor, 280 mm.");
  await page.getByLabel("Image URL").fill("/images/parts/pw-1001.svg");
  await page.getByLabel("Quantity in stock").fill("500");
  await page.getByLabel(/^Price per unit/).fill("24");
  await page.getByLabel("Category").selectOption({ label: "Brakes" });
  await page.getByRole("button", { name: "Add Product" }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  const stored = await Part.findOne({ name }).lean();
  expect(stored?.priceCents).toBe(2400);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByTestId("price")).toHaveText("$24.00");

  // The import refuses 24.50 on its line; 26 goes through.
  const upload = async (price: string) => {
    await page.goto("/dashboard/manageProducts/import");
    await page.getByLabel("CSV file").setInputFiles({
      name: "prices.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`Part number,Price\r\n${stored!.partNumber},${price}\r\n`),
    });
    await page.getByRole("button", { name: "Check the file (dry run)" }).click();
  };
  await upload("24.50");
  await expect(
    page.getByText("price “24.50” is not whole dollars: prices are whole dollars, such as 24 or 25"),
  ).toBeVisible();
  await upload("26");
  await page.getByRole("button", { name: "Apply 1 change" }).click();
  await expect(page).toHaveURL(/\/dashboard\/manageProducts$/);
  await expect(page.getByRole("row").filter({ hasText: name }).getByTestId("price")).toHaveText("$26.00");

  // An order of it: its document says the same amounts, by the same formatter.
  const customer = await createUser({ name: "Morgan Money" });
  const part = await getPart(stored!._id.toString());
  const order = await createOrder({ user: customer, part: part!, quantity: 150 });
  await page.goto(`/documents/${order.id}/pro-forma`);
  await expect(page.getByTestId("document-total")).toHaveText("$3,900.00");
  await expect(page.locator("body")).toContainText("$26.00");
});

test("a part stored with cents: saving only its stock works, a new price with cents says what to type", async ({
  page,
  login,
  createPart,
}) => {
  await login({ role: "admin" });
  const part = await createPart({ name: `Legacy Cents Filter ${randomUUID().slice(0, 6)}`, priceCents: 2450 });
  await page.goto(`/dashboard/manageProducts/${part.id}/edit`);
  await expect(page.getByLabel(/^Price per unit/)).toHaveValue("24.50");
  await expect(page.getByText("Stored with cents before prices were whole dollars")).toBeVisible();
  await page.getByLabel(/^Price per unit/).fill("24.75");
  await page.getByRole("button", { name: "Save Product" }).click();
  await expect(page.getByText("Prices are whole dollars: type 24 or 25, or leave 24.50 as it is")).toBeVisible();
  expect((await Part.findById(part.id).lean())?.priceCents).toBe(2450);

  // Manage Products: only the stock changes, the price is sent back as it is.
  await page.goto("/dashboard/manageProducts");
  const row = page.getByRole("row").filter({ hasText: part.name });
  await expect(row.getByTestId("price")).toHaveText("$24.50");
  await row.getByLabel(/^Stock/).fill("750");
  await row.getByRole("button", { name: `Save price and stock of ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${part.name}: price and stock saved`);
  expect(await Part.findById(part.id).lean()).toMatchObject({ priceCents: 2450, availableQuantity: 750 });
});
