import { randomUUID } from "node:crypto";
import { cancelPaidOrderWithCredit } from "~/orders/credit-notes.server";
import { postOrderToLedger } from "~/orders/ledger.server";
import { LedgerEntry } from "~/orders/model/ledger.server";
import { getOrderById } from "~/orders/model/reads.server";
import { formatCents } from "~/format";
import { updateCompanyOf } from "../setup/factories";
import { paidOrder, staff } from "../setup/paid-orders";
import { expect, test } from "./fixtures";

test("staff see a customer's credit on their records and pay it out from Shop Today: the bank reference is required", async ({
  page,
  login,
  checkA11y,
}) => {
  test.slow(); // a journey over four screens on a small shared machine
  const { user, order } = await paidOrder(100, "bank-transfer");
  const companyName = `Payout Garage ${randomUUID().slice(0, 6)}`;
  await updateCompanyOf(user.id, { $set: { companyName, nameKey: companyName.toLowerCase() } });
  const cancelled = await cancelPaidOrderWithCredit(order.id, staff);
  if (!cancelled.ok || !cancelled.note) throw new Error("not cancelled with its credit note");
  const note = cancelled.note;
  await postOrderToLedger((await getOrderById(order.id))!);
  // Issued long ago: it leads Shop Today's list (the credit waiting longest first).
  await LedgerEntry.updateOne({ _id: `credit-note:${note.id}` }, { $set: { at: new Date(Date.UTC(1984, 0, 3)) } });
  const credit = formatCents(order.totalCents);
  await login({ role: "admin" });

  // The customer's record says what the shop owes them, and leads to where it is paid out.
  await page.goto(`/dashboard/allUsers/${user.id}`);
  await expect(page.getByTestId("open-balance")).toHaveText(`Owes us $0.00 · We owe them ${credit}`);
  await page.getByRole("link", { name: "Pay out their credit on the company's record" }).click();
  await expect(page.getByRole("heading", { name: companyName, level: 1 })).toBeVisible();
  await expect(page.getByTestId("company-balance")).toHaveText(`Owes us $0.00 · We owe them ${credit}`);
  await expect(page.getByTestId("held-credit")).toContainText(`${note.number} of ${order.number}`);
  await expect(page.getByRole("button", { name: `Pay out ${note.number}` })).toBeVisible();
  await checkA11y();

  // Shop Today lists the account with its credit note.
  await page.goto("/dashboard/admin");
  const section = page.getByTestId("credit-to-pay-out");
  await expect(section.getByRole("heading", { name: /^Credit to pay out \(\d[\d,]*\)$/ })).toBeVisible();
  const account = section.getByTestId("account-to-pay-out").filter({ hasText: companyName });
  await expect(account.getByTestId("account-owed")).toHaveText(`Owes us $0.00 · We owe them ${credit}`);
  await expect(account.getByTestId("held-credit-amount")).toHaveText(credit);
  await checkA11y();

  // Without a reference it is refused next to the field (the browser's own check taken off to reach it); nothing is written.
  const reference = account.getByLabel(`Bank transfer reference for ${note.number}`);
  await reference.evaluate((input: HTMLInputElement) => input.removeAttribute("required"));
  await account.getByRole("button", { name: `Pay out ${note.number}` }).click();
  const refused = page
    .getByTestId("account-to-pay-out")
    .filter({ hasText: companyName })
    .getByLabel(`Bank transfer reference for ${note.number}`);
  await expect(refused).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Give the bank transfer's reference")).toBeVisible();
  expect((await getOrderById(order.id))!.creditNotes[0].payout).toBeNull();

  await refused.fill("OUT-E2E-7");
  await page
    .getByTestId("account-to-pay-out")
    .filter({ hasText: companyName })
    .getByRole("button", { name: `Pay out ${note.number}` })
    .click();
  await expect(page.getByTestId("toast")).toContainText(`Payout of ${credit} recorded for credit note ${note.number}`);
  await expect(page.getByTestId("account-to-pay-out").filter({ hasText: companyName })).toHaveCount(0);
  expect((await getOrderById(order.id))!.creditNotes[0].payout).toMatchObject({ reference: "OUT-E2E-7" });

  // The company's record follows the ledger: nothing owed either way, nothing left to pay out.
  await page.goto(`/dashboard/companies/${user.companyId}`);
  await expect(page.getByTestId("company-balance")).toHaveText("Owes us $0.00 · We owe them $0.00");
  await expect(page.getByText("No credit note holds credit: nothing to pay out.")).toBeVisible();
});
