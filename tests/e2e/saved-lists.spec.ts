import { randomUUID } from "node:crypto";
import { addLinesToCart } from "~/models/cart.server";
import { createUser, sessionCookieValue } from "../setup/factories";
import { expect, test } from "./fixtures";

test("a buyer saves the cart as a shared list, and a colleague fills their cart from it in one step", async ({
  page,
  context,
  baseURL,
  login,
  createPart,
}) => {
  const buyer = await login({ name: "Lena List" });
  const tag = `Listkit${randomUUID().slice(0, 6)}`;
  const [pads, filter] = await Promise.all([
    createPart({ name: `${tag} Brake Pads`, minOrderQuantity: 100, availableQuantity: 1000 }),
    createPart({ name: `${tag} Oil Filter`, minOrderQuantity: 50, availableQuantity: 1000 }),
  ]);
  await addLinesToCart(buyer.id, [
    { partId: pads.id, quantity: 200 },
    { partId: filter.id, quantity: 50 },
  ]);

  await page.goto("/dashboard/cart");
  await page.getByText("Save cart as a list").click();
  await page.getByLabel("Or start a list called").fill(`${tag} restock`);
  await page.getByLabel("Share a new list with my company").check();
  await page.getByRole("button", { name: "Save to the list" }).click();
  await expect(page.getByTestId("toast")).toContainText(`2 lines saved to your list “${tag} restock”`);

  // A colleague of the same company, signed in on this browser.
  const colleague = await createUser({ name: "Colin Colleague", company: { id: buyer.companyId, role: "buyer" } });
  const { value } = await sessionCookieValue(colleague.id);
  await context.addCookies([{ name: "__session", value, url: baseURL! }]);
  await page.goto("/dashboard/lists");
  await expect(page.getByTestId(`list-${tag} restock`)).toContainText("Lena List");
  await page.getByRole("link", { name: `${tag} restock` }).click();
  await page.getByRole("button", { name: "Add all to cart" }).click();
  await expect(page).toHaveURL(/\/dashboard\/cart$/);
  await expect(page.getByTestId("toast")).toContainText("2 lines added to your cart");
  await expect(page.getByTestId(`cart-line-${pads.partNumber}`)).toBeVisible();
  await expect(page.getByTestId(`cart-line-${filter.partNumber}`)).toBeVisible();
});
