import { User } from "~/models/user.server";
import { expect, test } from "./fixtures";

test("a buyer enters company details and delivery addresses on My Profile", async ({ page, login, checkA11y }) => {
  test.slow();
  const user = await login({ name: "Tara Trade" });
  await page.goto("/dashboard");

  // Company details: a tax number that does not fit the country is refused by the field, then corrected.
  await page.getByLabel("Company name").fill("Gearhaus GmbH");
  await page.getByLabel("Country").selectOption("DE");
  await page.getByLabel("VAT or tax number").fill("DE12");
  await page.getByLabel("Billing address").fill("Hauptstrasse 1\n10115 Berlin");
  await page.getByRole("button", { name: "Save company details" }).click();
  await expect(page.getByText(/not a valid Germany VAT or tax number/)).toBeVisible();
  expect((await User.findById(user.id).lean())?.companyName).toBeUndefined();
  await page.getByLabel("VAT or tax number").fill("DE 123456789");
  await page.getByRole("button", { name: "Save company details" }).click();
  await expect(page.getByTestId("toast")).toContainText("Company details saved");
  const details = page.getByTestId("profile-details");
  await expect(details).toContainText("Gearhaus GmbH");
  await expect(details).toContainText("DE123456789 (Germany)");

  // Address book: add two, make the second the default, edit it, delete the first.
  const section = page.getByRole("region", { name: "Address book" });
  const book = page.getByTestId("address-book");
  await page.getByLabel("Name of the address").fill("Plant");
  await section.getByLabel("Address", { exact: true }).fill("1 Plant Road\nFlint");
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(page.getByTestId("toast")).toContainText("Address added");
  await expect(book).toContainText("Plant");
  await page.getByLabel("Name of the address").fill("Depot");
  await section.getByLabel("Address", { exact: true }).fill("2 Depot Lane");
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(book.getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: "Make Depot the default" }).click();
  await expect(book.getByRole("listitem").filter({ hasText: "Depot" })).toContainText("Default");
  await page.getByRole("link", { name: "Edit Depot" }).click();
  // The form is the address's own once it holds it (with JavaScript the link re-renders it in place).
  await expect(section.getByLabel("Address", { exact: true })).toHaveValue("2 Depot Lane");
  await section.getByLabel("Address", { exact: true }).fill("3 Depot Lane");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(book).toContainText("3 Depot Lane");
  await page.getByRole("button", { name: "Delete Plant" }).click();
  await expect(book.getByRole("listitem")).toHaveCount(1);
  await checkA11y();

  const stored = await User.findById(user.id).lean();
  expect(stored?.addresses?.map((entry) => entry.address)).toEqual(["3 Depot Lane"]);
  expect(String(stored?.defaultAddressId)).toBe(String(stored?.addresses?.[0]._id));
});
