import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { MAX_ORDER_LINES } from "~/domain/order-lines";
import { formatDateTime } from "~/format";
import { placeOrder } from "~/orders/checkout.server";
import { DETROIT } from "../fixtures/addresses";
import { createUser, sessionCookieValue } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

/**
 * Stock that cannot be hoarded, at the shop's default settings, as the customer and the admin see
 * it (JavaScript on and off): how long an unpaid card order holds its stock, an admin's extension,
 * the caps on what one account holds unpaid, and one fresh account trying to take the catalogue.
 * The first test shows a part's page counting held units as taken; the others read the stock from
 * the database. The caps' numbers and words for each kind of account (a verified one's 5 among them)
 * are tests/integration/stock-holds.test.ts's; here the refusal as the cart shows it, and its way out.
 */

const HOUR = 60 * 60 * 1000;

/** Stripe.js cannot load here (no internet): the pay screen falls back to Checkout without it. */
async function blockStripeJs(page: Page) {
  await page.route("https://js.stripe.com/**", (route) => route.abort());
}

async function addToCart(page: Page, part: { id: string; name: string }, units: number) {
  await page.goto(`/parts/${part.id}`);
  await page.getByLabel("Units for the cart").fill(String(units));
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`added to your cart`);
}

/** The cart's checkout by card, with a delivery address; the caller looks at where it lands. */
async function checkOut(page: Page) {
  await page.goto("/dashboard/cart");
  await page.getByLabel("Phone", { exact: true }).fill("+1 313 555 0199");
  await fillDeliveryAddress(page);
  await page.getByRole("button", { name: /Place the order/ }).click();
}

const available = (page: Page) => page.getByTestId("available");
const stockOf = async (partId: string) =>
  (await Part.findById(partId, { availableQuantity: 1 }).lean())!.availableQuantity;

test("a card order says until when its stock is held, on the pay screen and on the order page", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // two axe checks on a small shared machine
  const customer = await login({ name: "Hana Hold" });
  const part = await createPart({ name: `Hold Bracket ${randomUUID().slice(0, 6)}`, availableQuantity: 900 });
  if (javaScriptEnabled) await blockStripeJs(page);
  // Placed by the checkout's own service: the cart's checkout landing on the pay screen is the caps
  // test's below (and cart.spec.ts's), the hold it notes tests/integration/stock-holds.test.ts's.
  const before = Date.now();
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 200 }],
    phone: "+1 313 555 0199",
    delivery: DETROIT,
    user: customer,
  });
  if (!placed.ok) throw new Error("not placed");
  await page.goto(`/dashboard/payment/${placed.order.id}`);

  // The pay screen: the hold ends ORDER_HOLD_HOURS (72 by default) after the order was placed.
  const order = (await Order.findOne({ userId: customer.id }).lean())!;
  const holdUntil = order.holdUntil!.getTime();
  expect(holdUntil).toBeGreaterThanOrEqual(before + 72 * HOUR - 1000);
  expect(holdUntil).toBeLessThanOrEqual(Date.now() + 72 * HOUR);
  const until = formatDateTime(order.holdUntil!.toISOString());
  const notice = page.getByTestId("hold-until");
  await expect(notice).toHaveText(
    `We hold the stock for this order until ${until}. If it is not paid by then, it is cancelled and the stock goes back on sale.`,
  );
  if (javaScriptEnabled) await checkA11y();

  // The order page says the same; the part's page shows the units as taken meanwhile.
  await page.goto(`/dashboard/orders/${order._id}`);
  await expect(page.getByTestId("order-status")).toHaveText("Unpaid");
  await expect(page.getByTestId("hold-until")).toContainText(`until ${until}.`);
  await checkA11y();
  await page.goto(`/parts/${part.id}`);
  await expect(available(page)).toHaveText("700");
});

test("an admin extends one order's hold; a bad number is refused at the field, and the new end shows to both", async ({
  page,
  login,
  createPart,
  checkA11y,
  baseURL,
}) => {
  test.slow(); // two signed-in screens and an axe check on a small shared machine
  const customer = await login({ name: "Ezra Extend" });
  const customerSession = (await page.context().cookies(baseURL!)).find((cookie) => cookie.name === "__session")!;
  const part = await createPart({ name: `Extend Hub ${randomUUID().slice(0, 6)}` });
  const order = await createOrder({ user: customer, part, quantity: 300 });
  const first = (await Order.findById(order.id).lean())!.holdUntil!;
  const number = order.number;

  await login({ role: "admin" });
  await page.goto(`/dashboard/manageOrders/${order.id}`);
  await expect(page.getByTestId("hold-until")).toContainText(
    `Stock held for the customer until ${formatDateTime(first.toISOString())}.`,
  );
  const days = page.getByLabel("Hold longer by (days)");
  await expect(days).toHaveValue("3");
  await days.fill("31");
  await page.getByRole("button", { name: "Extend the hold" }).click();
  await expect(page.getByText("Days must be at most 30")).toBeVisible();
  await expect(days).toHaveAttribute("aria-invalid", "true");
  expect((await Order.findById(order.id).lean())!.holdUntil!.getTime()).toBe(first.getTime());

  await days.fill("2");
  await page.getByRole("button", { name: "Extend the hold" }).click();
  const extended = formatDateTime(new Date(first.getTime() + 48 * HOUR).toISOString());
  await expect(page.getByTestId("toast")).toContainText(`${number} holds its stock until ${extended}`);
  await expect(page.getByTestId("hold-until")).toContainText(`until ${extended}.`);
  await checkA11y();

  // The customer sees the new end on their order.
  await page.context().addCookies([{ ...customerSession }]);
  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByTestId("hold-until")).toContainText(`We hold the stock for this order until ${extended}.`);
});

test("over the cap of orders awaiting card payment (2, email not verified), a checkout is refused before anything is reserved, saying the cap and how to lift it", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow(); // refused, lifted and ordering, on a small shared machine
  if (javaScriptEnabled) await blockStripeJs(page);
  const part = await createPart({
    name: `Cap Gasket ${randomUUID().slice(0, 6)}`,
    availableQuantity: 5000,
    priceCents: 100,
  });
  const customer = await login({ name: "Uma Unverified", verified: false });
  // Its open orders are of another part, so the cart's part shows only what this checkout does.
  const open = [];
  for (let i = 0; i < 2; i++) open.push(await createOrder({ user: customer, quantity: 100 }));
  await addToCart(page, part, 100);
  await checkOut(page);

  await expect(
    page.getByText(
      "You already have 2 orders awaiting card payment, the most an account whose email is not verified may hold unpaid (2). " +
        "To go on, verify your email (My Profile) to raise it, pay or cancel an open order in My Orders, or ask the shop to raise your account's limit.",
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/cart$/);
  await checkA11y();
  // Nothing was reserved or ordered; the cart keeps its line for later.
  expect(await Order.countDocuments({ userId: customer.id })).toBe(2);
  await expect(page.getByRole("row").filter({ hasText: part.name })).toBeVisible();
  expect(await stockOf(part.id)).toBe(5000);

  // Cancelling one open order lifts it: the same cart is ordered.
  await page.goto(`/dashboard/orders/${open[0].id}/cancel`);
  await page.getByLabel("Type cancel to confirm").fill("cancel");
  await page.getByRole("button", { name: "Drop" }).click();
  await expect(page.getByTestId("toast")).toContainText("is cancelled");
  await checkOut(page);
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  expect(await stockOf(part.id)).toBe(4900);
});

test("the hoarding attack: a fresh unverified account with the whole catalogue in its cart, its own parts at full stock, is refused, and others still order", async ({
  page,
  login,
  createPart,
  baseURL,
  javaScriptEnabled,
}) => {
  test.slow(); // a cart of up to 200 lines
  // A few parts of this test's own, so the other customer below orders from stock no other test counts.
  const own = await Promise.all(
    [0, 1, 2].map((i) =>
      createPart({
        name: `Hoard Rotor ${i} ${randomUUID().slice(0, 6)}`,
        priceCents: 4000 + i * 500,
        availableQuantity: 3000,
      }),
    ),
  );
  // The catalogue: every part in stock (demo parts and those tests made). A test's part made in the
  // last minute is left out: that test may be ordering from it now and change its stock under this one.
  const settled = await Part.find(
    {
      availableQuantity: { $gt: 0 },
      $nor: [{ partNumber: /^T-/, createdAt: { $gt: new Date(Date.now() - 60_000) } }],
    },
    { partNumber: 1, availableQuantity: 1, minOrderQuantity: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(MAX_ORDER_LINES - own.length)
    .lean();
  // Its own parts at full stock; the rest at half theirs, so that another test ordering a demo part
  // meanwhile cannot turn a line short (that refusal would come first, from the lines).
  const catalogue = [
    ...own.map((part) => ({ id: part.id, partNumber: part.partNumber, quantity: part.availableQuantity })),
    ...settled
      .map((part) => ({ ...part, quantity: Math.max(part.minOrderQuantity, Math.floor(part.availableQuantity / 2)) }))
      .filter((part) => part.availableQuantity >= part.quantity * 2)
      .map((part) => ({ id: String(part._id), partNumber: part.partNumber, quantity: part.quantity })),
  ];

  const attacker = await login({ name: "Hoarder", verified: false });
  await page.goto("/dashboard/quick-order");
  await page
    .getByLabel("Part numbers and quantities")
    .fill(catalogue.map((line) => `${line.partNumber} ${line.quantity}`).join("\n"));
  await page.getByRole("button", { name: "Add the valid lines to the cart" }).click();
  // Up to 200 lines priced and added at once: slower than a click's usual answer on a loaded machine.
  await expect(page.getByTestId("toast")).toContainText(`${catalogue.length} lines added to your cart`, {
    timeout: 20_000,
  });
  if (javaScriptEnabled) await blockStripeJs(page);
  await checkOut(page);

  await expect(
    page.getByText(
      /This order of \$[\d,]+(\.\d\d)? is more than an account whose email is not verified may hold unpaid \(\$5,000\.00\)\. To go on, verify your email \(My Profile\) to raise it/,
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/cart$/);
  expect(await Order.countDocuments({ userId: attacker.id })).toBe(0);
  const ownAfter = await Part.find(
    { _id: { $in: own.map((part) => part.id) } },
    { availableQuantity: 1, holds: 1 },
  ).lean();
  expect(ownAfter.map((part) => part.availableQuantity)).toEqual([3000, 3000, 3000]);
  expect(ownAfter.flatMap((part) => part.holds ?? [])).toEqual([]);

  // Another customer, signed in on this browser in the attacker's place, still orders from the same stock.
  const buyer = await createUser({ name: "Other Buyer" });
  const { value } = await sessionCookieValue(buyer.id);
  await page.context().addCookies([{ name: "__session", value, url: baseURL! }]);
  await addToCart(page, own[0], 500);
  await checkOut(page);
  await expect(page).toHaveURL(/\/dashboard\/payment\/[a-f0-9]{24}$/);
  expect(await stockOf(own[0].id)).toBe(2500);
});
