/**
 * A paid order the shop cancelled, as its customer reads it: My Orders says where the money went
 * ("Cancelled · credited", "Cancelled · refunded"), never "Paid"; the order page says it in one sentence
 * with the shop's reason, and money held on the account comes with the button to ask for it by bank.
 * On a desktop and a 360 px phone, with JavaScript on and off.
 */
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { markOrderPaid } from "~/orders/model/card-payment.server";
import { placeOrder } from "~/orders/checkout.server";
import { recordPayment } from "~/orders/service.server";
import { getUserById } from "~/models/user.server";
import { formatCents } from "~/format";
import { expect, test } from "./fixtures";
import { layoutProblems } from "./layout";
import { DETROIT } from "../fixtures/addresses";

const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
const REASON = "The part was discontinued by its maker";

/** An order of 100 units placed by the signed-in customer, paid by bank transfer or card, then cancelled by staff. */
async function cancelledPaidOrder(customerId: string, partId: string, how: "bank-transfer" | "card") {
  const user = (await getUserById(customerId))!;
  const placed = await placeOrder({
    lines: [{ partId, quantity: 100 }],
    phone: "+1 555 0163",
    delivery: { ...DETROIT, line1: "7 Credit Court" },
    user,
    bankTransfer: how === "bank-transfer",
  });
  if (!placed.ok) throw new Error("not placed");
  const { id, totalCents } = placed.order;
  if (how === "card") {
    const paid = await markOrderPaid({
      orderId: id,
      transactionId: `pi_e2e_${id.slice(-12)}`,
      amountCents: totalCents,
      currency: "usd",
    });
    expect(paid.outcome).toBe("paid");
  } else {
    const paid = await recordPayment(
      id,
      { amountCents: totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "CW-1" },
      staff,
    );
    expect(paid.ok).toBe(true);
  }
  const cancelled = await cancelPaidOrderWithCredit(id, { ...staff, reason: REASON });
  if (!cancelled.ok) throw new Error(cancelled.message);
  return placed.order;
}

test("a paid order cancelled onto the account: credited, never Paid; the reason, and the button to ask for the money", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  const customer = await login({ name: "Wanda Words" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 500 });
  const order = await cancelledPaidOrder(customer.id, part.id, "bank-transfer");

  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${order.id}`);
  await expect(row.getByTestId("status")).toHaveText("Cancelled · credited");
  await expect(row).not.toContainText("Paid");

  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByTestId("order-status")).toHaveText("Cancelled · credited");
  await expect(page.getByTestId("cancelled-money")).toHaveText(
    `Cancelled, ${formatCents(order.totalCents)} credited to your account: it comes off your next order, or ask us to pay it out.`,
  );
  await expect(page.getByTestId("cancel-reason")).toHaveText(`Why we cancelled it: ${REASON}`);
  await expect(page.getByTestId("credit-note-settlement")).toContainText("(it comes off your next order)");
  await expect(page.getByText("it comes off what you owe us")).toHaveCount(0);
  // One button on the page: the one by the sentence (not again under the credit note).
  const ask = page.getByRole("button", { name: "Ask us to pay it out" });
  await expect(ask).toHaveCount(1);
  await checkA11y();

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(ask).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  await ask.click();
  await expect(page).toHaveURL(/\/dashboard\/statement$/);
  await expect(page.getByTestId("toast")).toContainText("We have your request");
});

test("a paid order cancelled back to the card: refunded, with no button to ask for anything", async ({
  page,
  login,
  createPart,
}) => {
  const customer = await login({ name: "Rufus Refund" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 500 });
  const order = await cancelledPaidOrder(customer.id, part.id, "card");

  await page.goto("/dashboard/orders");
  const row = page.getByTestId(`order-${order.id}`);
  await expect(row.getByTestId("status")).toHaveText("Cancelled · refunded");
  await expect(row).not.toContainText("Paid");

  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByTestId("order-status")).toHaveText("Cancelled · refunded");
  await expect(page.getByTestId("cancelled-money")).toHaveText(
    new RegExp(`^Cancelled, \\${formatCents(order.totalCents)} (being )?refunded to your card\\.$`),
  );
  await expect(page.getByTestId("cancel-reason")).toHaveText(`Why we cancelled it: ${REASON}`);
  await expect(page.getByRole("button", { name: "Ask us to pay it out" })).toHaveCount(0);

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByTestId("cancelled-money")).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
});
