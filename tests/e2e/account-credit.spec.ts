import type { Page } from "@playwright/test";
import { formatCents } from "~/format";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { getOrderById } from "~/orders/model/reads.server";
import { paidOrder, staff } from "../setup/paid-orders";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";
import { layoutProblems } from "./layout";

/**
 * A company's account credit (a paid order the shop cancelled, credited to its account) comes off
 * its next order at checkout without anyone asking, in both projects (JavaScript on and off): an
 * order the credit covers is paid at once and its invoice names the credit note that paid it; an
 * order bigger than the credit shows the credit on the pay screen and asks the card, or the bank
 * transfer, for the rest only. The last, amounts the server writes on the pay screen, runs without
 * JavaScript only (tagged @js-off): the card test before it is the same checkout and pay screen with
 * JavaScript, and bank-transfer.spec.ts the bank transfer's choice and block in both projects.
 */

const ORDER_PATH = /\/dashboard\/orders\/([a-f0-9]{24})$/;
const PAY_PATH = /\/dashboard\/payment\/([a-f0-9]{24})$/;

/** Stripe.js cannot load here (no internet): the pay screen falls back to Checkout without it. */
async function blockStripeJs(page: Page) {
  await page.route("https://js.stripe.com/**", (route) => route.abort());
}

/**
 * The signed-in customer's company in credit: an order of `quantity` units at $12.50 paid by bank
 * transfer, then cancelled by the shop and credited in full to the account.
 */
async function creditFor(customer: Parameters<typeof paidOrder>[2], quantity: number) {
  const { order } = await paidOrder(quantity, "bank-transfer", customer);
  const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
  return { creditCents: cancelled.note.totalCents, noteNumber: cancelled.note.number };
}

async function addToCart(page: Page, part: { id: string; name: string }, units: number) {
  await page.goto(`/parts/${part.id}`);
  await page.getByLabel("Units for the cart").fill(String(units));
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
}

/** The cart's checkout with a delivery address, by card unless told; the caller looks at where it lands. */
async function checkOut(page: Page, { bankTransfer = false } = {}) {
  await page.goto("/dashboard/cart");
  await page.getByLabel("Phone", { exact: true }).fill("+1 313 555 0142");
  await fillDeliveryAddress(page);
  if (bankTransfer) await page.getByLabel(/^Bank transfer \(pro-forma\)/).check();
  await page.getByRole("button", { name: /Place the order/ }).click();
}

/** The order the page's URL names, as stored. */
async function orderOf(page: Page, path: RegExp) {
  const id = path.exec(new URL(page.url()).pathname)?.[1];
  if (!id) throw new Error(`no order in ${page.url()}`);
  return (await getOrderById(id))!;
}

test("a customer in credit orders from the cart and pays nothing: the credit covers it, the invoice says which credit note paid it", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a checkout, a document and the statement on a small shared machine
  const customer = await login({ name: "Carla Covered" });
  const { creditCents, noteNumber } = await creditFor(customer, 100); // $1,250 and its tax
  const part = await createPart({ priceCents: 1_000, minOrderQuantity: 10, availableQuantity: 500 });
  await addToCart(page, part, 30); // $300 and its tax
  await checkOut(page);

  // Straight to the order's page: nothing to pay, the toast says what paid it.
  await expect(page).toHaveURL(ORDER_PATH);
  const order = await orderOf(page, ORDER_PATH);
  expect(order.totalCents).toBeLessThan(creditCents);
  expect(order).toMatchObject({ status: "paid", balanceCents: 0, creditAppliedCents: order.totalCents });
  const total = formatCents(order.totalCents);
  await expect(page.getByTestId("toast")).toContainText(
    `${order.number} is paid in full from your account's credit (${total})`,
  );
  await expect(page.getByTestId("order-status")).toHaveText("Pending");
  await expect(page.getByTestId("payment-line")).toHaveText("Paid by account credit");
  await expect(page.getByTestId("payments-received")).toContainText(
    `${total} by account credit, reference ${noteNumber}`,
  );
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByRole("link", { name: "Pay", exact: true })).toHaveCount(0);
  await checkA11y();

  // Its invoice: the credit note is the payment received, nothing is still due.
  await page.getByRole("link", { name: "Invoice", exact: true }).click();
  await expect(page).toHaveURL(`/documents/${order.id}/invoice`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invoice");
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid by account credit");
  const received = page.getByTestId("payments-received");
  const creditRow = received.getByRole("row").filter({ hasText: "Account credit" });
  await expect(creditRow).toHaveCount(1);
  await expect(creditRow).toContainText(noteNumber);
  await expect(creditRow).toContainText(total);
  await expect(page.getByTestId("still-due")).toHaveText("$0.00");

  // The statement: the account still holds the rest of the credit.
  await page.goto("/dashboard/statement");
  await expect(page.getByTestId("statement-headline")).toHaveText(
    `We owe you ${formatCents(creditCents - order.totalCents)}`,
  );
});

test("a customer with less credit than the order sees it come off on the pay screen and pays only the rest", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // a checkout and a phone-sized look on a small shared machine
  const customer = await login({ name: "Parker Partly" });
  const { creditCents, noteNumber } = await creditFor(customer, 10); // $125 and its tax
  const part = await createPart({ priceCents: 1_000, minOrderQuantity: 10, availableQuantity: 500 });
  if (javaScriptEnabled) await blockStripeJs(page);
  await addToCart(page, part, 100); // $1,000 and its tax
  await checkOut(page);

  await expect(page).toHaveURL(PAY_PATH);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  const order = await orderOf(page, PAY_PATH);
  const toPayCents = order.totalCents - creditCents;
  expect(toPayCents).toBeGreaterThan(0);
  // The card is asked for the rest only.
  expect(order).toMatchObject({
    status: "unpaid",
    creditAppliedCents: creditCents,
    toPayCents,
    balanceCents: toPayCents,
  });

  await expect(page.getByTestId("pay-price")).toHaveText(formatCents(order.totalCents));
  const applied = page.getByTestId("credit-applied");
  await expect(applied).toContainText(`Credit applied ${noteNumber}`);
  await expect(applied).toContainText(`− ${formatCents(creditCents)}`);
  await expect(applied.getByTestId("to-pay")).toHaveText(formatCents(toPayCents));
  await expect(page.getByRole("button", { name: "Pay with card" })).toBeVisible();
  if (javaScriptEnabled) {
    await expect(page.getByText("The card form could not load.")).toBeVisible();
    await checkA11y(); // axe runs inside the page
  }

  // A 360 px phone, coming back to pay (the toast has gone): the credit and what is left to pay fit
  // without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/dashboard/payment/${order.id}`);
  await expect(page.getByTestId("toast")).toHaveCount(0);
  await expect(applied.getByTestId("to-pay")).toHaveText(formatCents(toPayCents));
  if (javaScriptEnabled) await expect(page.getByText("The card form could not load.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("pay-screen-phone.png"), fullPage: true });
  expect(await layoutProblems(page)).toEqual([]);
});

test(
  "a bank transfer order bigger than the credit asks the transfer for the rest only",
  { tag: "@js-off" },
  async ({ page, login, createPart }) => {
    test.slow(); // a checkout on a small shared machine
    const customer = await login({ name: "Bea Balance" });
    const { creditCents, noteNumber } = await creditFor(customer, 10);
    const part = await createPart({ priceCents: 1_000, minOrderQuantity: 10, availableQuantity: 500 });
    await addToCart(page, part, 100);
    await checkOut(page, { bankTransfer: true });

    await expect(page).toHaveURL(PAY_PATH);
    const order = await orderOf(page, PAY_PATH);
    const rest = formatCents(order.totalCents - creditCents);
    expect(order).toMatchObject({ status: "unpaid", paymentMethod: "bank-transfer", creditAppliedCents: creditCents });
    await expect(page.getByTestId("credit-applied")).toContainText(`Credit applied ${noteNumber}`);
    await expect(page.getByTestId("to-pay")).toHaveText(rest);
    const transfer = page.getByTestId("bank-transfer");
    await expect(transfer.getByTestId("transfer-amount")).toHaveText(`${rest} (US dollars)`);
    await expect(transfer).toContainText(`Send ${rest} to our account`);
  },
);
