import { readFile } from "node:fs/promises";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { placeOrder } from "~/orders/checkout.server";
import { getOrderById } from "~/orders/model/reads.server";
import { askForReturn, decideOnReturn } from "~/orders/returns.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { getUserById } from "~/models/user.server";
import { expect, test } from "./fixtures";
import { DETROIT } from "../fixtures/addresses";
import { sessionCookieValue } from "../setup/factories";

const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };

test("staff receive a returned line of a card order: a credit note on the order page, its PDF, the refund; the customer sees it", async ({
  page,
  context,
  baseURL,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a long journey on a small shared machine
  const customer = await login({ name: "Cora Credit" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 500 });
  const user = (await getUserById(customer.id))!;
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 200 }],
    phone: "+1 555 0161",
    delivery: { ...DETROIT, line1: "5 Credit Court" },
    user,
  });
  if (!placed.ok) throw new Error("not placed");
  const { id: orderId, number, totalCents } = placed.order;
  const transactionId = `pi_e2e_${orderId.slice(-12)}`;
  expect((await markOrderPaid({ orderId, transactionId, amountCents: totalCents, currency: "usd" })).outcome).toBe(
    "paid",
  );
  const shipped = await shipOrder(
    orderId,
    { carrier: "ups", trackingNumber: "1Z999CN" },
    {
      ...staff,
      current: await getOrderById(orderId),
    },
  );
  expect(shipped.ok).toBe(true);
  const asked = await askForReturn(
    orderId,
    {
      lines: [{ lineIndex: 0, quantity: 20 }],
      reason: "damaged",
      note: "",
      requestedBy: user.id,
      requestedByName: user.name,
    },
    { actor: { id: user.id, email: user.email } },
  );
  if (!asked.ok) throw new Error(asked.message);
  const approved = await decideOnReturn(orderId, asked.entry.id, { approve: true }, staff);
  expect(approved.ok).toBe(true);

  // Staff record the parts back: the toast names the credit note, the order page lists it with the refund.
  await login({ role: "admin" });
  await page.goto(`/dashboard/manageOrders/${orderId}`);
  await page.getByRole("link", { name: "Record what came back" }).click();
  await page.getByLabel(`Units of ${part.partNumber} received`).fill("15");
  await page.getByRole("button", { name: "Record the return received" }).click();
  await expect(page.getByTestId("toast")).toContainText(/credit note CN-\d{6} of \$\d/);
  const credit = page.getByTestId("credit-note");
  await expect(credit).toHaveCount(1);
  const cn = (await credit.getByTestId("credit-note-number").textContent())!;
  expect(cn).toMatch(/^CN-\d{6}$/);
  await expect(credit).toContainText("15 × ");
  await expect(credit.getByTestId("credit-note-settlement")).toContainText("refunded to the card");
  await expect(page.getByText(`Credit note ${cn} issued`)).toBeVisible(); // the timeline
  await checkA11y();

  // Its PDF downloads as a file named after it.
  const download = page.waitForEvent("download");
  await credit.getByRole("link", { name: `Credit note ${cn} (PDF)` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`credit-note-${cn}.pdf`);
  expect((await readFile((await file.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

  // The customer sees it on their order and opens the document: it corrects the order's invoice.
  const { value } = await sessionCookieValue(customer.id);
  await context.addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto(`/dashboard/orders/${orderId}`);
  const mine = page.getByTestId("credit-note");
  await expect(mine.getByTestId("credit-note-number")).toHaveText(cn);
  await expect(mine.getByTestId("refund-status")).toContainText("Refunded to the card");
  await mine.getByRole("link", { name: `Credit note ${cn}`, exact: true }).click();
  await expect(page.getByRole("heading", { name: "Credit note" })).toBeVisible();
  await expect(page.getByTestId("credit-note-number")).toHaveText(cn);
  await expect(page.getByTestId("corrected-invoice")).toContainText(/INV-\d{6}/);
  await expect(page.getByTestId("document-order-number")).toHaveText(number);
  await checkA11y();
});

test("staff cancel a paid order before it ships: the box must be ticked, then a full credit note onto the company's account", async ({
  page,
  login,
  createPart,
}) => {
  const customer = await login({ name: "Cato Cancel" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 500 });
  const user = (await getUserById(customer.id))!;
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 100 }],
    phone: "+1 555 0162",
    delivery: { ...DETROIT, line1: "6 Credit Court" },
    user,
    bankTransfer: true,
  });
  if (!placed.ok) throw new Error("not placed");
  const { id: orderId, number, totalCents } = placed.order;
  const paid = await recordPayment(
    orderId,
    { amountCents: totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "CX-1" },
    staff,
  );
  expect(paid.ok).toBe(true);

  await login({ role: "admin" });
  await page.goto(`/dashboard/manageOrders/${orderId}`);
  const box = page.getByLabel("Yes, cancel this paid order, put its stock back and credit it in full");
  await page.getByLabel("Reason (the customer reads it)").fill("The customer ordered the wrong parts");
  // Without the tick the server refuses at the box (the browser's own check is taken off to reach it).
  await box.evaluate((input: HTMLInputElement) => input.removeAttribute("required"));
  await page.getByRole("button", { name: `Cancel ${number} and credit it` }).click();
  await expect(page.getByText("Tick the box to confirm the cancellation")).toBeVisible();
  await box.check();
  await page.getByRole("button", { name: `Cancel ${number} and credit it` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${number} is cancelled; credit note CN-`);
  await expect(page.getByTestId("order-status")).toHaveText("Cancelled · credited");
  await expect(page.getByTestId("cancel-reason")).toHaveText("The customer ordered the wrong parts");
  await expect(page.getByTestId("credit-note-settlement").first()).toContainText(
    "credited to your account (it comes off your next order)",
  );
  await expect(page.getByRole("link", { name: "Invoice", exact: true })).toBeVisible();
});
