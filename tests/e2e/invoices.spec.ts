import { readFile } from "node:fs/promises";
import { Order } from "~/orders/model/schema.server";
import { createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { expect, test } from "./fixtures";

test("a customer opens the invoice of a paid order from its page, prints it without the shop's menus, and downloads the PDF", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a PDF printed by a second browser on a small shared machine
  const customer = await login({ name: "Ivy Invoiced" });
  const part = await createPart({ priceCents: 1999 });
  const order = await createOrder({ user: customer, part, quantity: 100, status: "paid" });

  await page.goto(`/dashboard/orders/${order.id}`);
  await page.getByRole("link", { name: "Invoice", exact: true }).click();
  await expect(page).toHaveURL(`/documents/${order.id}/invoice`);
  await expect(page.getByRole("heading", { level: 1, name: "Invoice" })).toBeVisible();
  const number = (await Order.findById(order.id).lean())?.invoiceNumber;
  const invoiceNumber = `INV-${String(number).padStart(6, "0")}`;
  await expect(page.getByTestId("invoice-number")).toHaveText(invoiceNumber);
  await expect(page.getByTestId("document-total")).toHaveText("$1,999.00");
  await expect(page.getByTestId("order-document")).toContainText("Ivy Invoiced");
  await checkA11y();

  // In print, only the document: no header, footer or links.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner").first()).toBeHidden();
  await expect(page.getByRole("contentinfo").first()).toBeHidden();
  await expect(page.getByTestId("download-pdf")).toBeHidden();
  await expect(page.getByTestId("invoice-number")).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-pdf").click()]);
  expect(download.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  // The invoice's e-invoice PDF carries its XML; the UBL twin downloads beside it.
  expect(bytes.toString("latin1")).toContain("factur-x.xml");
  const [ubl] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-ubl").click()]);
  expect(ubl.suggestedFilename()).toBe(`invoice-${invoiceNumber}.xml`);
  const xml = await readFile((await ubl.path())!, "utf8");
  expect(xml).toContain(`<cbc:ID>${invoiceNumber}</cbc:ID>`);
  // The order page offers it too.
  await page.goto(`/dashboard/orders/${order.id}`);
  await expect(page.getByRole("link", { name: "E-invoice (UBL XML)" })).toHaveAttribute(
    "href",
    `/documents/${order.id}/invoice/ubl`,
  );
});

test("an admin prints the packing slip of a paid order from the order page: parts and quantities, no prices", async ({
  page,
  login,
  createPart,
}) => {
  await login({ role: "admin" });
  const customer = await createUser({ name: "Pat Packer" });
  const part = await createPart({ priceCents: 2345 });
  const order = await createOrder({ user: customer, part, quantity: 140, status: "paid" });

  await page.goto(`/dashboard/manageOrders/${order.id}`);
  await page.getByRole("link", { name: "Packing slip", exact: true }).click();
  await expect(page).toHaveURL(`/documents/${order.id}/packing-slip`);
  const slip = page.getByTestId("order-document");
  await expect(slip).toContainText(part.name);
  await expect(slip).toContainText("140");
  await expect(slip).toContainText("1 Test Street, Springfield");
  await expect(slip).not.toContainText("$");
});
