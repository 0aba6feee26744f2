import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext } from "@playwright/test";
import { Company } from "~/models/company.server";
import { Order } from "~/orders/model/schema.server";
import { Outbox } from "~/models/outbox.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { expect, test } from "./fixtures";
import { fillDeliveryAddress } from "./delivery-address";

/** The token of the invitation mailed to this address. */
async function invitationLink(email: string) {
  await expect
    .poll(async () => Boolean(await Outbox.exists({ to: email, subject: /an invitation to order for/ })))
    .toBe(true);
  const mail = await Outbox.findOne({ to: email, subject: /an invitation to order for/ }).lean();
  return /\/invitations\/[A-Za-z0-9_-]{43}/.exec(mail!.text ?? "")![0];
}

async function contextAs(browser: Browser, baseURL: string, javaScriptEnabled: boolean, userId?: string) {
  const context: BrowserContext = await browser.newContext({ baseURL, javaScriptEnabled });
  if (userId) {
    const { value } = await sessionCookieValue(userId);
    await context.addCookies([{ name: "__session", value, url: baseURL }]);
  }
  return context;
}

/**
 * A workshop's owner invites a buyer and a bookkeeper; the buyer orders over the limit; the owner
 * approves; accounts reads the invoice; the buyer, removed, is signed out. JavaScript on and off.
 */
test("a company's owner, buyer and accounts person work on one account", async ({
  page,
  login,
  createPart,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  test.slow();
  const owner = await login({ name: "Olga Owner" });
  const companyName = `Depot Works ${randomUUID().slice(0, 6)}`;
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName, account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
  );
  const bookkeeper = await createUser({ name: "Rita Ledger" });
  const buyerEmail = `ben-${randomUUID().slice(0, 8)}@example.com`;
  const part = await createPart({ name: `Approval Kit ${randomUUID().slice(0, 6)}`, priceCents: 500 });

  // The owner invites a new buyer and an existing account as accounts.
  await page.goto("/dashboard/company");
  await page.getByLabel("Their email").fill(buyerEmail);
  await page.getByLabel("Role", { exact: true }).selectOption("buyer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByTestId("toast")).toContainText(`Invitation sent to ${buyerEmail}`);
  await page.getByLabel("Their email").fill(bookkeeper.email);
  await page.getByLabel("Role", { exact: true }).selectOption("accounts");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByTestId("toast")).toContainText(`Invitation sent to ${bookkeeper.email}`);
  await expect(page.getByTestId("invitation")).toHaveCount(2);

  // The buyer has no account: the link creates one in the company.
  const buyerContext = await contextAs(browser, baseURL!, javaScriptEnabled);
  const buyerPage = await buyerContext.newPage();
  await buyerPage.goto(await invitationLink(buyerEmail));
  await buyerPage.getByLabel("Your name").fill("Ben Buyer");
  await buyerPage.getByLabel("Choose a password").fill("counter-sales-2026");
  await buyerPage.getByRole("button", { name: "Create my account and join" }).click();
  await expect(buyerPage).toHaveURL(/\/dashboard\/company/);
  await expect(buyerPage.getByTestId("toast")).toContainText(`Welcome to ${companyName}`);

  // The bookkeeper accepts while signed in to their account.
  const accountsContext = await contextAs(browser, baseURL!, javaScriptEnabled, bookkeeper.id);
  const accountsPage = await accountsContext.newPage();
  await accountsPage.goto(await invitationLink(bookkeeper.email));
  await accountsPage.getByRole("button", { name: `Join ${companyName}` }).click();
  await expect(accountsPage.getByTestId("toast")).toContainText(`You joined ${companyName}`);

  // The owner gives the buyer a limit of $100 an order.
  await page.goto("/dashboard/company");
  const buyerRow = page.getByTestId("member").filter({ hasText: buyerEmail });
  await buyerRow.getByLabel("Limit per order, $ (empty: none)").fill("100");
  await buyerRow.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByTestId("toast")).toContainText("limit is saved");

  // The buyer orders $500 on account: over the limit, it waits for approval.
  await buyerPage.goto(`/parts/${part.id}`);
  await buyerPage.getByLabel("Phone").fill("+1 313 555 0101");
  await fillDeliveryAddress(buyerPage);
  await buyerPage.getByLabel(/On account \(net 30 days\)/).check();
  await buyerPage.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(buyerPage.getByTestId("toast")).toContainText("waits for an owner's approval");
  const order = (await Order.findOne({ userEmail: buyerEmail }).lean())!;
  expect(order.status).toBe("approval");

  // The owner approves it from the company page.
  await page.goto("/dashboard/company");
  const waiting = page.getByTestId("awaiting-approval").filter({ hasText: `SO-${order.number}` });
  await waiting.getByLabel(/Note for Ben Buyer/).fill("Approved for the fleet job");
  await waiting.getByRole("button", { name: `Approve SO-${order.number}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`SO-${order.number} approved`);
  expect((await Order.findById(order._id).lean())?.status).toBe("account");

  // Accounts sees the order and reads its invoice.
  await accountsPage.goto("/dashboard/orders");
  await expect(accountsPage.getByText(`SO-${order.number}`).first()).toBeVisible();
  await accountsPage.goto(`/documents/${order._id}/invoice`);
  await expect(accountsPage.getByRole("heading", { name: /Invoice/ }).first()).toBeVisible();

  // The owner removes the buyer, who is signed out at once.
  await page.goto("/dashboard/company");
  const row = page.getByTestId("member").filter({ hasText: buyerEmail });
  await row.getByText("Remove Ben Buyer…").click();
  await row.getByRole("button", { name: "Remove Ben Buyer" }).click();
  await expect(page.getByTestId("toast")).toContainText("Ben Buyer was removed and signed out");
  await buyerPage.goto("/dashboard/orders");
  await expect(buyerPage).toHaveURL(/\/login|\/$/);
  expect(String((await Order.findById(order._id).lean())?.companyId)).toBe(owner.companyId);

  await buyerContext.close();
  await accountsContext.close();
});

test("an admin sets a company's terms, credit limit and caps on its record; a negative limit is refused at the field", async ({
  page,
  login,
  checkA11y,
}) => {
  const member = await createUser({ name: "Terry Terms" });
  const companyName = `Terms Works ${randomUUID().slice(0, 6)}`;
  // Its billing address was kept as text from before addresses had fields: the record says it waits for the company.
  await Company.updateOne(
    { _id: member.companyId },
    {
      $set: { companyName, billingAddress: "Terms Works\n9 Mill Lane\nLeeds LS1 4AB", billingNeedsConfirmation: true },
    },
  );
  await login({ role: "admin" });

  await page.goto(`/dashboard/companies/${member.companyId}`);
  await expect(page.getByRole("heading", { name: companyName, level: 1 })).toBeVisible();
  await expect(page.getByTestId("billing-to-confirm")).toContainText("until an owner confirms it");
  const limit = page.getByLabel("Credit limit (whole dollars)");
  await limit.fill("-5");
  await page.getByRole("button", { name: "Save terms" }).click();
  await expect(page.getByText("A credit limit cannot be negative")).toBeVisible();
  await expect(page.getByLabel("Credit limit (whole dollars)")).toHaveAttribute("aria-invalid", "true");
  expect((await Company.findById(member.companyId).lean())?.account?.creditLimitCents ?? 0).toBe(0);

  await page.getByLabel("Terms", { exact: true }).selectOption("30");
  await page.getByLabel("Credit limit (whole dollars)").fill("2500");
  await page.getByRole("button", { name: "Save terms" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${companyName}: Net 30 days, credit limit $2,500.00`);
  await expect(page.getByTestId("company-credit-limit")).toHaveText("$2,500.00");

  await page.getByLabel("Orders awaiting card payment (most at once)").fill("4");
  await page.getByRole("button", { name: "Save the caps" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${companyName} may hold unpaid: 4 orders`);
  expect(await Company.findById(member.companyId).lean()).toMatchObject({
    unpaidOrdersCap: 4,
    account: { termsDays: 30, creditLimitCents: 250_000 },
  });
  await checkA11y();

  // The member's record says where terms are set, and links there.
  await page.goto(`/dashboard/allUsers/${member.id}`);
  await expect(page.getByTestId("terms-on-company")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save terms" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "company's record" })).toHaveAttribute(
    "href",
    `/dashboard/companies/${member.companyId}`,
  );
});
