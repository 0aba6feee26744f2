import { readFile } from "node:fs/promises";
import { formatCents } from "~/format";
import { getUserById } from "~/models/user.server";
import { placeOrder } from "~/orders/checkout.server";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { recordPayment } from "~/orders/service.server";
import { DETROIT } from "../fixtures/addresses";
import { expect, test } from "./fixtures";
import { layoutProblems } from "./layout";

const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };

test("a customer in credit reads 'We owe you', downloads the statement as PDF and CSV, and asks us to pay it out; staff see the same statement", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // a PDF is printed on a small shared machine
  const customer = await login({ name: "Stella Statement" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 10, availableQuantity: 500 });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 30 }],
    phone: "+1 555 0181",
    delivery: { ...DETROIT, line1: "8 Statement Square" },
    user: (await getUserById(customer.id))!,
    bankTransfer: true,
  });
  if (!placed.ok) throw new Error("not placed");
  const { id: orderId, number, totalCents } = placed.order;
  const paid = await recordPayment(
    orderId,
    { amountCents: totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "ST-1" },
    staff,
  );
  expect(paid.ok).toBe(true);
  const cancelled = await cancelPaidOrderWithCredit(orderId, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not credited");
  const amount = formatCents(totalCents);

  // From My Orders, as every customer who reads the statement.
  await page.goto("/dashboard/orders");
  await page.getByRole("link", { name: "Statement of account" }).click();
  await expect(page.getByRole("heading", { name: "Statement of account" })).toBeVisible();
  await expect(page.getByTestId("statement-headline")).toHaveText(`We owe you ${amount}`);
  const lines = page.getByTestId("statement-line");
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText(/Invoice INV-\d{6}/);
  await expect(lines.nth(0)).toContainText("Paid");
  await expect(lines.nth(2)).toContainText(`Credit note ${cancelled.note.number}`);
  await expect(lines.nth(2)).toContainText(`${amount} in credit`);
  await expect(page.getByTestId("statement-terms")).not.toContainText("card only");
  await expect(page.locator("main")).not.toContainText(`− ${amount}`);
  await expect(page.locator("main")).not.toContainText("Pending");
  await checkA11y();

  // A 360 px phone reaches everything without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await layoutProblems(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  const csv = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the statement (CSV)" }).click();
  const csvFile = await csv;
  expect(csvFile.suggestedFilename()).toMatch(/^partsworks-statement-start-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await csvFile.path())!, "utf8");
  expect(text).toContain(number);
  expect(text).toContain(`Closing balance: We owe you ${amount}`);
  const pdf = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the statement (PDF)" }).click();
  const pdfFile = await pdf;
  expect(pdfFile.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await readFile((await pdfFile.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

  await page.getByRole("button", { name: "Ask us to pay it out" }).click();
  await expect(page.getByTestId("toast")).toContainText(`We have your request: we will pay the ${amount}`);

  // Staff: the company's record links to the same statement.
  await login({ role: "admin" });
  await page.goto(`/dashboard/companies/${customer.companyId}`);
  await page.getByRole("link", { name: "Its statement of account" }).click();
  await expect(page.getByTestId("statement-headline")).toHaveText(`We owe you ${amount}`);
  await expect(page.getByTestId("statement-line")).toHaveCount(3);
  await checkA11y();
});

test("the period filter: a bad date is told next to its field with a 400; a good period shows its entries", async ({
  page,
  login,
  createPart,
}) => {
  const customer = await login({ name: "Percy Period" });
  const part = await createPart({ priceCents: 1000, minOrderQuantity: 10, availableQuantity: 500 });
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 20 }],
    phone: "+1 555 0182",
    delivery: { ...DETROIT, line1: "9 Period Place" },
    user: (await getUserById(customer.id))!,
    bankTransfer: true,
  });
  if (!placed.ok) throw new Error("not placed");
  const paid = await recordPayment(
    placed.order.id,
    { amountCents: placed.order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "PP-1" },
    staff,
  );
  expect(paid.ok).toBe(true);

  const response = await page.goto("/dashboard/statement?from=2026-13-45");
  expect(response?.status()).toBe(400);
  await expect(page.getByLabel("From (UTC day)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a date such as 2026-01-31")).toBeVisible();
  await expect(page.getByTestId("statement-bad-period")).toBeVisible();

  // A period that ended before the order: nothing in it, nothing owed then.
  await page.getByLabel("From (UTC day)").fill("2020-01-01");
  await page.getByLabel("To (UTC day, included)").fill("2020-01-31");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/from=2020-01-01&to=2020-01-31/);
  await expect(page.getByTestId("statement-headline")).toHaveText("Nothing is owed either way");
  await expect(page.getByTestId("statement-no-entries")).toHaveText("No entries in this period.");
  await page.getByRole("link", { name: "Every entry" }).click();
  await expect(page.getByTestId("statement-line")).toHaveCount(2);
  await expect(page.getByTestId("statement-line").first()).toContainText("Paid");
});
