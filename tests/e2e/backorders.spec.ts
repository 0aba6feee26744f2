import { Part } from "~/models/part.server";
import { Order } from "~/orders/model/schema.server";
import { recordPayment } from "~/orders/service.server";
import { sessionCookieValue } from "../setup/factories";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";

test("a customer orders beyond the shelf; staff ship what is there, restock, and ship the rest", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
  baseURL,
}) => {
  test.slow(); // a long journey on a small shared machine
  const customer = await login({ name: "Bo Backorder" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 300 });
  await Part.updateOne({ _id: part.id }, { $set: { backorderable: true, leadTimeDays: 10 } });

  // The quick-order pad says, for a line beyond the shelf, what comes now and what waits.
  await page.goto("/dashboard/quick-order");
  // Typing before the form hydrates can be lost: wait for the page's scripts first.
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await page.getByLabel("Part numbers and quantities").fill(`${part.partNumber} 500`);
  await page.getByRole("button", { name: "Check the lines" }).click();
  const padLine = page.getByTestId(`pad-line-${part.partNumber}`);
  await expect(padLine.getByTestId("pad-check")).toHaveText("OK");
  await expect(padLine.getByTestId("pad-backorder")).toContainText("300 now, 200 on backorder, expected");
  const padWords = await padLine.getByTestId("pad-backorder").innerText();

  // The part page says the same, before placing.
  await page.goto(`/parts/${part.id}`);
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("backorder-note")).toContainText("More on backorder, expected");
  const quantity = page.getByLabel(/^Quantity/);
  await quantity.fill("500");
  await page.getByLabel("Phone").fill("+1 555 0150");
  await fillDeliveryAddress(page);
  // Without JavaScript the page shows the total (and the split) of what was last sent: bring it up to date.
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  await expect(page.getByTestId("backorder-split")).toHaveText(padWords);
  await page.getByRole("button", { name: "Buy" }).click();
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");

  const order = (await Order.findOne({ userId: customer.id }).lean())!;
  const number = `SO-${order.number}`;
  await page.goto(`/dashboard/orders/${order._id}`);
  await expect(page.getByTestId("backorders")).toContainText(`200 × ${part.name} on backorder, expected`);
  await checkA11y();
  // Paid by bank transfer (staff record it), so it waits to ship.
  const paid = await recordPayment(
    String(order._id),
    { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "BO-1" },
    { actor: { id: "000000000000000000000000", email: "staff@example.com" } },
  );
  expect(paid.ok).toBe(true);

  // Staff ship the 300 on the shelf: part-shipped.
  await login({ role: "admin" });
  await page.goto(`/dashboard/manageOrders/${order._id}`);
  const units = page.getByLabel(`Units of ${part.partNumber}`);
  await expect(units).toHaveValue("300");
  await page.getByLabel("Carrier").selectOption("ups");
  await page.getByLabel("Tracking number").fill("1Z999AA1");
  await page.getByRole("button", { name: `Ship this parcel of ${number} and email the customer` }).click();
  await expect(page.getByTestId("toast")).toContainText(`Parcel 1 of ${number} is shipped`);
  await expect(page.getByTestId("order-status")).toHaveText("Part-shipped");
  await expect(page.getByTestId("parcels")).toContainText(`300 × ${part.name}`);
  // Nothing more can ship while the rest waits.
  await expect(units).toHaveValue("0");
  await checkA11y();

  // Stock arrives: the waiting order gets it first.
  await page.goto("/dashboard/manageProducts");
  const row = page.getByTestId(`part-row-${part.id}`);
  await row.getByLabel(/^Stock/).fill("250");
  await row.getByRole("button", { name: `Save price and stock of ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(
    `250 received: 200 allocated to 1 backorder (${number}), 50 now available`,
  );
  await expect(page.getByTestId(`part-row-${part.id}`).getByTestId("available")).toHaveText("50");

  await page.goto(`/dashboard/manageOrders/${order._id}`);
  await expect(units).toHaveValue("200");
  await page.getByLabel("Carrier").selectOption("dhl");
  await page.getByLabel("Tracking number").fill("JD0002");
  await page.getByRole("button", { name: `Ship this parcel of ${number} and email the customer` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${number} is shipped`);
  await expect(page.getByTestId("order-status")).toHaveText("Shipped");
  await expect(page.getByTestId("parcels").getByRole("listitem")).toHaveCount(2);
  expect((await Part.findById(part.id).lean())!).toMatchObject({ availableQuantity: 50, onHand: 50 });

  // The customer opens the second parcel's packing slip from their order page: its 200 units.
  const { value } = await sessionCookieValue(customer.id);
  await page.context().addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto(`/dashboard/orders/${order._id}`);
  await page.getByRole("link", { name: "Packing slip of parcel 2" }).click();
  await expect(page.getByTestId("order-document").getByRole("heading", { level: 1 })).toHaveText("Packing slip");
  const slip = page.getByTestId("packing-slip-lines");
  await expect(slip.locator("caption")).toHaveText("Parts in parcel 2");
  await expect(slip.getByRole("row", { name: part.name })).toContainText("200");
  await expect(page.getByTestId("document-shipment")).toContainText("JD0002");
});
