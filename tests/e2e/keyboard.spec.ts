import type { Locator, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { Company } from "~/models/company.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { expect, test } from "./fixtures";

/**
 * The flows that matter most, with the keyboard alone (Tab, Shift+Tab, Enter, Space, typing, and the
 * arrow keys inside a radio group): a buyer places an order from the cart, the owner approves it,
 * staff record the payment. Every control on the way is reached with Tab and shows where the focus
 * is; after a submit the focus is on the first field in error, or (JavaScript on) on the result.
 * Without JavaScript a submit loads a new page, which starts at its top as any page does.
 */

/**
 * What has the focus, whether it shows it (an outline or a ring), and whether it is `target`: one
 * call into the page per key press (a press and this are all a Tab costs the test).
 */
function focusStop(target: Locator) {
  return target.evaluate((target) => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: "the page itself", visible: false, body: true, reached: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== "none";
    // A visually hidden radio or checkbox shows its focus on its label (the review's stars).
    const label = el.id ? document.querySelector<HTMLElement>(`label[for="${el.id}"]`) : null;
    const labelStyle = label ? getComputedStyle(label) : null;
    const labelShows = labelStyle
      ? labelStyle.outlineStyle !== "none" && parseFloat(labelStyle.outlineWidth) > 0
      : false;
    const words = el.getAttribute("aria-label") || el.textContent || el.getAttribute("name") || el.id;
    const name = `${el.tagName.toLowerCase()} "${words.trim().replace(/\s+/g, " ").slice(0, 50)}"`;
    // A date field's parts (day, month, year, the calendar button) show their focus inside the control.
    const dateParts = el.matches("input[type=date]");
    return { name, visible: outline || ring || labelShows || dateParts, body: false, reached: el === target };
  });
}

/** Presses Tab (or Shift+Tab) until `target` has the focus; every stop on the way must show its focus. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let press = 0; press < max; press++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const stop = await focusStop(target);
    if (!stop.body) expect(stop.visible, `the focus shows on ${stop.name}`).toBe(true);
    if (stop.reached) return;
  }
  throw new Error(`${target} is not reached with ${back ? "Shift+Tab" : "Tab"} in ${max} presses`);
}

test("a buyer orders from the cart, the owner approves and staff record the payment, by keyboard alone", async ({
  page,
  baseURL,
  javaScriptEnabled,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow(); // three people's journeys
  const owner = await login({ name: "Keira Keys" });
  await Company.updateOne(
    { _id: owner.companyId },
    {
      $set: {
        companyName: `Keyboard Fleet ${randomUUID().slice(0, 6)}`,
        account: { termsDays: 30, creditLimitCents: 10_000_000 },
      },
    },
  );
  const buyer = await createUser({
    name: "Kofi Buyer",
    company: { id: owner.companyId!, role: "buyer" },
    spendingLimitCents: 10_000,
  });
  const part = await createPart({ name: `Keyboard Kit ${randomUUID().slice(0, 6)}`, priceCents: 500 });
  // One browser, passed from person to person: each signs in (a session of their own) where the last left off.
  const signInAs = async (userId: string) => {
    const { value } = await sessionCookieValue(userId);
    await page.context().addCookies([{ name: "__session", value, url: baseURL! }]);
  };

  let orderPath = "";
  await test.step("the buyer puts the part in the cart and places the order", async () => {
    await signInAs(buyer.id);
    await page.goto(`/parts/${part.id}`);
    await tabTo(page, page.getByRole("button", { name: `Add to cart ${part.name}` }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toContainText(`100 × ${part.name} added to your cart`);

    await page.goto("/dashboard/cart");
    const phone = page.getByLabel("Phone");
    const place = page.getByRole("button", { name: /^Place the order/ });
    // Submitted with the phone left empty: the focus goes to it, with its message.
    await phone.fill("");
    await tabTo(page, place);
    await page.keyboard.press("Enter");
    await expect(phone).toBeFocused();
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await page.keyboard.type("+1 313 555 0144");
    // The delivery address field by field; a list takes the typed start of its option's name.
    const delivery = page.getByRole("group", { name: "Delivery address" });
    for (const [label, text] of [
      ["Street address", "9 Key Street"],
      ["City", "Detroit"],
      [/^(ZIP|Postal) code$/, "48209"],
    ] as const) {
      await tabTo(page, delivery.getByLabel(label));
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.type(text);
    }
    await tabTo(page, delivery.getByLabel("Country"));
    await page.keyboard.type("United States");
    await expect(delivery.getByLabel("Country")).toHaveValue("US");
    await tabTo(page, delivery.getByLabel("State"));
    await page.keyboard.type("Michigan");
    await expect(delivery.getByLabel("State")).toHaveValue("MI");
    // The payment choice is a radio group: Tab reaches the chosen one, an arrow key moves the choice.
    const onAccount = page.getByLabel(/On account \(net 30 days\)/);
    await tabTo(page, page.getByRole("radio", { checked: true }));
    for (let press = 0; press < 3 && !(await onAccount.isChecked()); press++) {
      await page.keyboard.press("ArrowDown");
    }
    await expect(onAccount).toBeChecked();
    await tabTo(page, place);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toContainText("waits for an owner's approval");
    await expect(page).toHaveURL(/\/dashboard\/orders\/[0-9a-f]{24}/);
    orderPath = new URL(page.url()).pathname;
    if (javaScriptEnabled) await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  });
  const orderId = orderPath.split("/").pop()!;

  await test.step("the owner approves it from the company page", async () => {
    await signInAs(owner.id);
    await page.goto("/dashboard/company");
    const waiting = page.getByTestId("awaiting-approval").filter({ hasText: "Kofi Buyer" });
    const number = (await waiting.getByRole("link").first().textContent())!.trim();
    await tabTo(page, waiting.getByRole("textbox", { name: /Note for Kofi Buyer/ }));
    await page.keyboard.type("Fine for the fleet job");
    await tabTo(page, waiting.getByRole("button", { name: `Approve ${number}` }));
    await page.keyboard.press("Space");
    await expect(page.getByTestId("toast")).toContainText(`${number} approved`);
    if (javaScriptEnabled) await expect(page.getByRole("heading", { name: "Orders awaiting approval" })).toBeFocused();
  });

  await test.step("staff record the bank transfer on Manage Orders' order page", async () => {
    await login({ role: "admin" });
    await page.goto(`/dashboard/manageOrders/${orderId}`);
    const amount = page.getByLabel("Amount received (USD)");
    const record = page.getByRole("button", { name: "Record payment" });
    // Recorded without an amount: the focus goes to the amount, with its message.
    await tabTo(page, record);
    await page.keyboard.press("Enter");
    await expect(amount).toBeFocused();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await page.keyboard.type("530");
    await tabTo(page, page.getByLabel("Reference"));
    await page.keyboard.type("KEY-TRANSFER-1");
    await tabTo(page, record);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast")).toContainText("is paid; the receipt is emailed");
    await expect(page.getByTestId("recorded-payments")).toContainText("reference KEY-TRANSFER-1");
    if (javaScriptEnabled) await expect(page.getByRole("heading", { name: /^Payments/ })).toBeFocused();
    await checkA11y();
  });
});
