/**
 * Tasks that cross screens, on a desktop and a 360 px phone, with JavaScript on and off: a visitor's
 * Add to cart survives Create account and Google sign-in; a buyer with a limit sees the approval
 * it needs before placing and withdraws the order; an accounts member meets no ordering control and
 * no error page (on a desktop).
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { getCart } from "~/models/cart.server";
import { addToCart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { Part } from "~/models/part.server";
import { DETROIT } from "../fixtures/addresses";
import { fillDeliveryAddress } from "./delivery-address";
import { User } from "~/models/user.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { encodeMockUser, MOCK_USER_PARAM } from "../setup/oauth-server";
import { expect, test } from "./fixtures";

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };

async function shot(page: Page, name: string) {
  const info = test.info();
  await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: false });
}

async function signInAs(page: Page, baseURL: string, userId: string) {
  const { value } = await sessionCookieValue(userId);
  await page.context().addCookies([{ name: "__session", value, url: baseURL }]);
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`on a ${size}`, () => {
    test.use({ viewport });

    test("a visitor's Add to cart survives Create account: back on the catalogue with the line in the cart", async ({
      page,
      createPart,
    }) => {
      const tag = `Jrn${randomUUID().slice(0, 6)}`;
      const part = await createPart({ name: `${tag} Spark Plug`, availableQuantity: 5000 });
      await page.goto(`/parts?q=${tag}`);
      const card = page.getByRole("listitem").filter({ hasText: part.name });
      await card.getByLabel(`Quantity of ${part.name}`).fill("300");
      await card.getByRole("button", { name: `Add to cart ${part.name}` }).click();
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await page.getByRole("link", { name: "Create a new account" }).click();
      await expect(page).toHaveURL(new RegExp(`/signup\\?redirectTo=%2Fparts%3Fq%3D${tag}`));
      const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
      await page.getByLabel("Name").fill("Vic Visitor");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("a-long-secret-42");
      await page.getByRole("button", { name: "Sign Up", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}$`));
      await expect(page.getByRole("status").first()).toContainText(`300 × ${part.partNumber} ${part.name}`);
      await shot(page, `visitor-back-after-signup-${size}`);
      const user = await User.findOne({ email }).lean();
      expect((await getCart(String(user!._id))).lines.map((line) => line.quantity)).toEqual([300]);
    });

    test("a visitor's Add to cart survives Google sign-in", async ({ page, createPart }) => {
      const tag = `Ggl${randomUUID().slice(0, 6)}`;
      const part = await createPart({ name: `${tag} Oil Filter`, availableQuantity: 5000 });
      const email = `google-${randomUUID().slice(0, 8)}@example.com`;
      const google = new URL(process.env.GOOGLE_AUTHORIZATION_URL!);
      await page.context().addCookies([
        {
          name: MOCK_USER_PARAM,
          value: encodeMockUser({ sub: `jrn-${randomUUID()}`, email, email_verified: true, name: "Gia Google" }),
          url: google.origin,
        },
      ]);
      await page.goto(`/parts?q=${tag}`);
      const card = page.getByRole("listitem").filter({ hasText: part.name });
      await card.getByLabel(`Quantity of ${part.name}`).fill("250");
      await card.getByRole("button", { name: `Add to cart ${part.name}` }).click();
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await page.getByRole("button", { name: "Continue with Google" }).click();
      await expect(page).toHaveURL(new RegExp(`/parts\\?q=${tag}$`));
      await expect(page.getByRole("status").first()).toContainText(`250 × ${part.partNumber}`);
      const user = await User.findOne({ email }).lean();
      expect((await getCart(String(user!._id))).lines.map((line) => line.quantity)).toEqual([250]);
    });

    test("a buyer with a limit sees the approval it needs before placing, then withdraws the order", async ({
      page,
      baseURL,
      createPart,
    }) => {
      const owner = await createUser({ name: "Olga Owner" });
      await Company.updateOne({ _id: owner.companyId }, { $set: { companyName: `Works ${owner.id.slice(-5)}` } });
      const buyer = await createUser({
        name: "Ben Buyer",
        company: { id: owner.companyId, role: "buyer" },
        spendingLimitCents: 150_000,
      });
      const part = await createPart({ name: `Lim${randomUUID().slice(0, 6)} Brake Disc`, priceCents: 1000 });
      await addToCart(buyer.id, part.id, 200);
      await signInAs(page, baseURL!, buyer.id);
      await page.goto("/dashboard/cart");
      await expect(page.getByTestId("nav-user-role").first()).toHaveText("Buyer");
      const notices = page.getByTestId("limit-notice");
      await expect(notices.first()).toContainText("This order needs approval by Olga Owner");
      await expect(notices.first()).toContainText("$1,500.00");
      await page.getByLabel("Phone").fill("+1 555 0199");
      await fillDeliveryAddress(page, { ...DETROIT, line1: "3 Axle Street" });
      await shot(page, `buyer-checkout-over-limit-${size}`);
      await page.getByRole("button", { name: /^Place the order/ }).click();
      await expect(page.getByTestId("order-status")).toHaveText("Submitted for approval");
      await expect(page.getByTestId("approval-reason")).toContainText("needs approval by Olga Owner");
      await expect(page.getByTestId("approval-reason")).toContainText("Nothing is due until it is approved");
      await shot(page, `buyer-order-submitted-${size}`);
      expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(800);
      await page.getByRole("link", { name: "Withdraw the order" }).click();
      await expect(page.getByRole("heading", { name: /^Withdraw order SO-/ })).toBeVisible();
      await page.getByLabel("Type cancel to confirm").fill("cancel");
      await page.getByRole("button", { name: "Drop" }).click();
      await expect(page.getByRole("status").first()).toContainText("withdrawn: its stock is back on sale");
      expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
    });

    // On a desktop only: it looks for absent controls and for headings, nothing of the layout, so a
    // phone would prove no more (and less of the drawer's links, which are folded away there).
    if (size !== "desktop") return;
    test("an accounts member meets no ordering control and no error page", async ({ page, baseURL, createPart }) => {
      const owner = await createUser({ name: "Olga Owner" });
      const clerk = await createUser({ name: "Ann Accounts", company: { id: owner.companyId, role: "accounts" } });
      const part = await createPart({ name: `Acc${randomUUID().slice(0, 6)} Wiper Blade` });
      await signInAs(page, baseURL!, clerk.id);
      await page.goto(`/parts/${part.id}`);
      await expect(page.getByTestId("ask-a-buyer")).toContainText("Ask a buyer to order");
      await expect(page.getByRole("button", { name: "Buy" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Add to cart/ })).toHaveCount(0);
      await expect(page.getByTestId("nav-cart")).toHaveCount(0);
      await shot(page, `accounts-part-page-${size}`);
      for (const [path, what] of [
        ["/dashboard/cart", "The cart"],
        ["/dashboard/quick-order", "Quick order"],
      ] as const) {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole("heading", { name: `${what} is for buyers and owners` })).toBeVisible();
      }
      await expect(page.getByTestId("sidebar-role")).toHaveText("Accounts");
      await expect(page.getByRole("link", { name: "Quick Order" })).toHaveCount(0);
      await shot(page, `accounts-quick-order-${size}`);
    });
  });
}
