import { Part } from "~/models/part.server";
import { placeOrder } from "~/orders/checkout.server";
import { getOrderById } from "~/orders/model/reads.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { getUserById } from "~/models/user.server";
import { sessionCookieValue } from "../setup/factories";
import { expect, test } from "./fixtures";
import { DETROIT } from "../fixtures/addresses";

const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };

test("a customer returns two damaged lines and prints the return label; staff receive one back to stock, one for inspection", async ({
  page,
  context,
  baseURL,
  javaScriptEnabled,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a long journey on a small shared machine
  const customer = await login({ name: "Rhea Return" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 100, availableQuantity: 500 });
  const other = await createPart({ priceCents: 2000, minOrderQuantity: 100, availableQuantity: 500 });
  const user = (await getUserById(customer.id))!;
  const placed = await placeOrder({
    lines: [
      { partId: part.id, quantity: 200 },
      { partId: other.id, quantity: 100 },
    ],
    phone: "+1 555 0160",
    delivery: { ...DETROIT, line1: "4 Return Row" },
    user,
  });
  if (!placed.ok) throw new Error("not placed");
  const orderId = placed.order.id;
  const number = placed.order.number;
  const paid = await recordPayment(
    orderId,
    { amountCents: placed.order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "RT-1" },
    staff,
  );
  expect(paid.ok).toBe(true);
  const shipped = await shipOrder(
    orderId,
    { carrier: "ups", trackingNumber: "1Z999RT" },
    {
      ...staff,
      current: await getOrderById(orderId),
    },
  );
  expect(shipped.ok).toBe(true);

  // The customer asks: more than shipped is refused at the line, then 20 damaged units go back.
  await page.goto(`/dashboard/orders/${orderId}`);
  await page.getByRole("link", { name: "Return parts" }).click();
  await expect(page.getByRole("heading", { name: `Return parts of ${number}` })).toBeVisible();
  const units = page.getByLabel(`Units of ${part.partNumber}`);
  // No reason chosen: refused at the select, which takes the focus (with JavaScript, and in the page sent back without).
  const reason = page.getByLabel("Why do they go back?");
  await units.fill("20");
  await reason.evaluate((select: HTMLSelectElement) => select.removeAttribute("required"));
  await page.getByRole("button", { name: "Ask to return" }).click();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  await expect(reason).toBeFocused();
  await units.fill("201");
  await page.getByLabel("Why do they go back?").selectOption("damaged");
  await page.getByLabel("Note (optional)").fill("Crushed in transit");
  // The browser's own check stops 201 before it is sent; the server's message is what a no-JS post without it gets.
  await units.evaluate((input: HTMLInputElement) => input.removeAttribute("max"));
  await page.getByRole("button", { name: "Ask to return" }).click();
  await expect(page.getByText("At most 200 units")).toBeVisible();
  await units.fill("20");
  await page.getByLabel(`Units of ${other.partNumber}`).fill("5");
  await page.getByRole("button", { name: "Ask to return" }).click();
  await expect(page.getByTestId("toast")).toContainText(`Your return request for ${number} is sent`);
  await expect(page.getByTestId("return-status")).toHaveText("Requested, waiting for the shop");
  await checkA11y();

  // Staff see it on Shop Today, approve it, then record the parts back to stock.
  await login({ role: "admin" });
  await page.goto("/dashboard/admin");
  await page
    .getByTestId("open-returns")
    .getByRole("link", { name: `Return request of ${number}` })
    .click();
  await page.getByRole("button", { name: "Approve the return" }).click();
  await expect(page.getByTestId("toast")).toContainText(/Return RMA-\d{6} approved/);
  await expect(page.getByTestId("return-status")).toHaveText("Approved, waiting for the parts");
  const rma = (await getOrderById(orderId))!.returns[0].number!;

  // The customer opens the RMA document from the order page: its number as a label, and where to send it.
  const staffCookies = await context.cookies();
  const { value } = await sessionCookieValue(customer.id);
  await context.addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByTestId("returns-address")).toContainText("Detroit, MI 48209");
  await page.getByRole("link", { name: `Return label and papers (${rma})` }).click();
  await expect(page.getByRole("heading", { name: `Return ${rma}` })).toBeVisible();
  await expect(page.getByTestId("rma-number")).toHaveText(rma);
  await expect(page.getByTestId("rma-label")).toContainText("200 Industrial Way");
  await expect(page.getByTestId("rma-label")).toContainText("Dock 4");
  await expect(page.getByRole("row").filter({ hasText: other.partNumber })).toContainText("5");
  if (javaScriptEnabled) {
    // The same markup as a PDF (printed once: it does not depend on the browser's JavaScript).
    const pdf = await page.request.get(`/documents/${orderId}/rma/${rma}/pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  }
  await context.addCookies(staffCookies);

  // Staff record each line in its own condition: damaged parts start at "inspect".
  await page.goto(`/dashboard/manageOrders/${orderId}`);
  await page.getByRole("link", { name: "Record what came back" }).click();
  await expect(page.getByLabel(`Units of ${part.partNumber} received`)).toHaveValue("20");
  await expect(page.getByLabel(`Condition of ${part.partNumber}`)).toHaveValue("inspect");
  await expect(page.getByLabel(`Condition of ${other.partNumber}`)).toHaveValue("inspect");
  await page.getByLabel(`Condition of ${part.partNumber}`).selectOption("restock");
  await page.getByRole("button", { name: "Record the return received" }).click();
  await expect(page.getByTestId("toast")).toContainText("each line as recorded (back to stock, held for inspection)");
  await expect(page.getByTestId("return-status")).toHaveText("Received");
  await expect(
    page.getByText(/Return RMA-\d{6} received: 20 × .* \(back to stock\); 5 × .* \(held for inspection\)/),
  ).toBeVisible();
  await checkA11y();
  expect((await Part.findById(part.id).lean())!).toMatchObject({ availableQuantity: 320, onHand: 320 });
  // The damaged line is not back on sale.
  expect((await Part.findById(other.id).lean())!).toMatchObject({ availableQuantity: 400 });
});
