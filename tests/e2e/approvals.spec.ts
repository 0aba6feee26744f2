/**
 * An owner decides on orders over a buyer's limit from each order's page, on a 360 px phone: approves
 * one with a note, declines another with a reason through its confirmation (a modal with JavaScript,
 * a page without); the buyer's page then says who decided and when. JavaScript on and off.
 */
import { placeCustomerOrder } from "~/orders/service.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { DETROIT } from "../fixtures/addresses";
import { expect, test } from "./fixtures";
import { layoutProblems } from "./layout";

test("an owner approves one order from its page and declines another with a reason; the buyer reads who decided", async ({
  page,
  login,
  createPart,
  browser,
  baseURL,
  javaScriptEnabled,
}) => {
  const owner = await login({ name: "Olga Owner" });
  const buyer = await createUser({
    name: "Ben Buyer",
    company: { id: owner.companyId, role: "buyer" },
    spendingLimitCents: 1000,
  });
  const part = await createPart({ priceCents: 500, availableQuantity: 1000, minOrderQuantity: 1 });
  const place = async () => {
    const placed = await placeCustomerOrder({
      user: { id: buyer.id },
      lines: [{ partId: part.id, quantity: 10 }],
      phone: "+1 555 0170",
      delivery: { ...DETROIT, line1: "3 Approval Row" },
      payment: "card",
    });
    if (!placed.ok || placed.order.status !== "approval") throw new Error("not waiting for approval");
    return placed.order;
  };
  const first = await place();
  const second = await place();
  await page.setViewportSize({ width: 360, height: 800 });

  // Approve and Decline share a row on a phone, one at each end.
  await page.goto(`/dashboard/orders/${first.id}`);
  const decision = page.getByTestId("approval-decision");
  const approve = decision.getByRole("button", { name: `Approve ${first.number}` });
  const approveBox = (await approve.boundingBox())!;
  const declineBox = (await decision.getByRole("link", { name: `Decline ${first.number}` }).boundingBox())!;
  expect(Math.abs(approveBox.y - declineBox.y)).toBeLessThan(4);
  expect(declineBox.x - (approveBox.x + approveBox.width)).toBeGreaterThan(24);
  expect(await layoutProblems(page)).toEqual([]);
  await decision.getByLabel("Note for Ben Buyer (optional)").fill("Fine this once");
  await approve.click();
  await expect(page.getByTestId("toast")).toContainText(`${first.number} approved`);
  await expect(page.getByTestId("order-timeline")).toContainText("Approved by Olga Owner: “Fine this once”");

  // Decline asks for its confirmation and a reason first.
  await page.goto(`/dashboard/orders/${second.id}`);
  await page.getByRole("link", { name: `Decline ${second.number}` }).click();
  const confirmation = javaScriptEnabled ? page.getByRole("dialog", { name: `Decline ${second.number}?` }) : page;
  if (!javaScriptEnabled) await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${second.id}/decline$`));
  await expect(confirmation.getByText(`Declining cancels ${second.number} from Ben Buyer`)).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  const reason = confirmation.getByLabel("Reason for Ben Buyer");
  // Spaces only pass the browser's own check; the reason is still missing.
  await reason.fill("   ");
  await confirmation.getByRole("button", { name: `Decline ${second.number}` }).click();
  await expect(confirmation.getByText("Give the buyer a reason for declining")).toBeVisible();
  await confirmation.getByLabel("Reason for Ben Buyer").fill("Order it in May");
  await confirmation.getByRole("button", { name: `Decline ${second.number}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`${second.number} declined`);
  await expect(page).toHaveURL(new RegExp(`/dashboard/orders/${second.id}$`));
  await expect(page.getByTestId("order-timeline")).toContainText("Declined by Olga Owner, reason: “Order it in May”");

  // The buyer's page says who approved and when; the timeline keeps "you" for the buyer.
  const buyerContext = await browser.newContext({ baseURL, javaScriptEnabled });
  const { value } = await sessionCookieValue(buyer.id);
  await buyerContext.addCookies([{ name: "__session", value, url: baseURL! }]);
  const buyerPage = await buyerContext.newPage();
  await buyerPage.goto(`/dashboard/orders/${first.id}`);
  await expect(buyerPage.getByTestId("approval-reason")).toContainText(
    /Approved by Olga Owner on .+: “Fine this once”/,
  );
  await expect(buyerPage.getByTestId("order-timeline").locator('[data-event="placed"]')).toContainText("by you");
  await expect(buyerPage.getByTestId("approval-decision")).toHaveCount(0);
  await buyerContext.close();
});
