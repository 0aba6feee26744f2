/**
 * A buyer asks for a quote from the cart (a wanted date, a target price, a note; a quantity under
 * the part's minimum said at its field), reads version 1 and asks for a revision, then accepts
 * version 2: the order is placed at the quoted prices and links its quote; a second page still
 * showing the form is refused. Staff's answers go through the service. JavaScript on and off.
 */
import { addLinesToCart } from "~/models/cart.server";
import { Quote } from "~/orders/model/quote-schema.server";
import { sendQuoteVersion } from "~/orders/quotes.server";
import type { Page } from "@playwright/test";
import { createUser } from "../setup/factories";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test("a buyer requests a quote from the cart, asks for a revision and accepts version 2 at its prices, once", async ({
  page,
  context,
  login,
  createPart,
}) => {
  const buyer = await login({ name: "Bea Buyer" });
  const staff = await createUser({ role: "admin", name: "Sam Staff" });
  const [pads, discs] = await Promise.all([
    createPart({ name: "Quote Pads", priceCents: 1250, minOrderQuantity: 100, availableQuantity: 5000 }),
    createPart({ name: "Quote Discs", priceCents: 4000, minOrderQuantity: 10, availableQuantity: 500 }),
  ]);
  await addLinesToCart(buyer.id, [
    { partId: pads.id, quantity: 200 },
    { partId: discs.id, quantity: 20 },
  ]);

  await page.goto("/dashboard/cart");
  await page.getByRole("link", { name: "Request a quote" }).click();
  await expect(page).toHaveURL(/\/dashboard\/quotes\/new\?from=cart$/);
  await expect(page.getByLabel("Part number, line 1")).toHaveValue(pads.partNumber);
  await expect(page.getByLabel("Part number, line 2")).toHaveValue(discs.partNumber);

  // Under the part's minimum: said at the quantity of its row, and nothing asked.
  const quantity = page.getByTestId("quote-request-rows").getByLabel("Quantity").first();
  await quantity.fill("50");
  await page.getByLabel("Target price ($)").first().fill("10.50");
  await page.getByLabel("Delivery wanted by (optional)").fill(day(20));
  await page.getByLabel("Note (optional)").fill("For the spring service");
  await page.getByRole("button", { name: "Request the quote" }).click();
  await expect(page.getByText(`The minimum order of ${pads.partNumber} is 100 units`)).toBeVisible();
  await expect(quantity).toHaveAttribute("aria-invalid", "true");
  expect(await Quote.countDocuments({ userId: buyer.id })).toBe(0);

  await quantity.fill("200");
  await page.getByRole("button", { name: "Request the quote" }).click();
  await expect(page.getByTestId("toast")).toContainText(/Quote Q-\d+ requested: we answer within a working day/);
  await expect(page).toHaveURL(/\/dashboard\/quotes\/[a-f0-9]{24}$/);
  const quote = (await Quote.findOne({ userId: buyer.id }).lean())!;
  const label = `Q-${quote.number}`;
  await expect(page.getByTestId("quote-request-lines")).toContainText("$10.50");
  await expect(page.getByTestId("quote-messages")).toContainText("For the spring service");

  const send = async (expectedVersions: number, padsPrice: string) => {
    const sent = await sendQuoteVersion(staff, String(quote._id), {
      intent: "send",
      expectedVersions,
      lines: [
        { partId: pads.id, unitPrice: padsPrice, leadTimeDays: 0, belowFloor: true },
        { partId: discs.id, unitPrice: "38.00", leadTimeDays: 5, belowFloor: true },
      ],
      validUntil: day(14),
      terms: "Net 30",
    });
    if (!sent.ok) throw new Error(JSON.stringify(sent.errors));
  };

  // Version 1 is read, and a revision asked with a message kept on the quote.
  await send(0, "11.00");
  await page.reload();
  await expect(page.getByTestId("quote-version-1")).toContainText("$11.00");
  await page.getByLabel("What should change").fill("Can you do 10.50 on the pads?");
  await page.getByRole("button", { name: "Ask for a revision" }).click();
  await expect(page.getByTestId("toast")).toContainText(`Revision of ${label} asked`);
  await expect(page.getByTestId("quote-messages")).toContainText("Can you do 10.50 on the pads?");

  // Version 2, accepted from this page; a second page still showing the form is refused afterwards.
  await send(1, "10.50");
  const stale = await context.newPage();
  for (const one of [page, stale]) await one.goto(`/dashboard/quotes/${quote._id}`);
  const placeAt = (one: Page) => one.getByRole("button", { name: /^Place the order at the quoted prices/ });
  const fillAccept = async (one: Page) => {
    await one.getByLabel("Phone").fill("+1 313 555 0100");
    await fillDeliveryAddress(one);
    await one.getByLabel(/^Bank transfer/).check();
  };
  await expect(page.getByTestId("quote-version-2")).toContainText("$10.50");
  await expect(page.getByTestId("accept-note").first()).toContainText("200 in stock");
  await fillAccept(page);
  await placeAt(page).click();
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");

  const accepted = (await Quote.findById(quote._id).lean())!;
  expect(accepted.status).toBe("accepted");
  await page.goto(`/dashboard/orders/${accepted.orderId}`);
  await expect(page.getByTestId("order-quote")).toContainText(`${label}-2`);
  await expect(page.getByTestId("order-line").filter({ hasText: pads.partNumber })).toContainText("$10.50");
  await page.getByTestId("order-quote").getByRole("link").click();
  await expect(page.getByTestId("quote-closed")).toContainText(`${label} is already accepted`);

  await fillAccept(stale);
  await placeAt(stale).click();
  // With JavaScript under the form as it stood; without, above the page read again (the form gone).
  await expect(stale.getByText(`${label} is already accepted: see order`).first()).toBeVisible();
  expect((await Quote.findById(quote._id).lean())!.orderId).toEqual(accepted.orderId);
});
