import { Order } from "~/orders/model/schema.server";
import { User } from "~/models/user.server";
import { storedCustomer, updateCompanyOf } from "../setup/factories";
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
  expect((await storedCustomer(user.id))?.companyName).toBeUndefined();
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
  // After an address is added the form starts empty again.
  await expect(section.getByLabel("Address", { exact: true })).toHaveValue("");
  await page.getByRole("button", { name: "Make Depot the default" }).click();
  await expect(book.getByRole("listitem").filter({ hasText: "Depot" })).toContainText("Default");
  await page.getByRole("link", { name: "Edit Depot" }).click();
  // The form is the address's own once it says so and holds it (with JavaScript the link re-renders it in place).
  await expect(page.getByRole("button", { name: "Save address" })).toBeVisible();
  await expect(section.getByLabel("Address", { exact: true })).toHaveValue("2 Depot Lane");
  // Made the same as another saved address, the edit is refused at the field and the form stays this address's.
  await section.getByLabel("Address", { exact: true }).fill("1 plant road flint");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(section.getByText("This address is already in your address book")).toBeVisible();
  await expect(book).toContainText("2 Depot Lane");
  await section.getByLabel("Address", { exact: true }).fill("3 Depot Lane");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(book).toContainText("3 Depot Lane");
  await page.getByRole("button", { name: "Delete Plant" }).click();
  await expect(book.getByRole("listitem")).toHaveCount(1);
  await checkA11y();

  const stored = await storedCustomer(user.id);
  expect(stored?.addresses?.map((entry) => entry.address)).toEqual(["3 Depot Lane"]);
  expect(String(stored?.defaultAddressId)).toBe(String(stored?.addresses?.[0]._id));
});

test("orders start from the profile's phone and default address, save a new address and carry a PO number", async ({
  page,
  login,
  createPart,
  checkA11y,
}) => {
  test.slow();
  const user = await login({ name: "Pia Purchase" });
  await User.updateOne({ _id: user.id }, { $set: { number: "+49 30 123456", address: "Old Street 1" } });
  const part = await createPart({ priceCents: 500, minOrderQuantity: 100, availableQuantity: 1000 });

  // The part page: phone and address from the profile, the address book box ticked.
  await page.goto(`/parts/${part.id}`);
  const phone = page.getByLabel("Phone");
  const address = page.getByLabel("Address", { exact: true });
  const save = page.getByLabel("Save to my address book");
  const po = page.getByLabel("PO number (optional)");
  await expect(phone).toHaveValue("+49 30 123456");
  await expect(address).toHaveValue("Old Street 1");
  await expect(save).toBeChecked();
  await checkA11y();

  // A PO number with HTML is refused by its field; nothing is ordered.
  await address.fill("Gearhaus Plant 2\nIndustriestrasse 5\n10115 Berlin");
  await po.fill("<b>PO</b>");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(po).toHaveAccessibleDescription(/Use plain text/);
  expect(await Order.countDocuments({ userId: user.id })).toBe(0);

  await po.fill("PO-4500/17");
  await page.getByRole("button", { name: "Buy", exact: true }).click();
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");
  const row = page.getByRole("row").filter({ hasText: part.name });
  await expect(row).toContainText("PO PO-4500/17");
  await row.getByRole("link", { name: /^SO-\d+$/ }).click();
  await expect(page.getByTestId("po-number")).toHaveText("Your PO number: PO-4500/17");

  // The new address joined the address book as its first (so default) entry; the next order starts from it.
  await page.goto("/dashboard");
  await expect(page.getByTestId("address-book")).toContainText("Industriestrasse 5");
  await page.goto(`/parts/${part.id}`);
  await expect(address).toHaveValue("Gearhaus Plant 2\nIndustriestrasse 5\n10115 Berlin");

  // Checkout from the cart: pre-filled the same way; unticked, the typed address is not kept.
  await page.getByLabel("Units for the cart").fill("100");
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
  await updateCompanyOf(user.id, {
    $push: { addresses: { label: "Site", address: "Site office, Gate 4", key: "site office, gate 4" } },
  });
  await page.goto("/dashboard/cart");
  await expect(phone).toHaveValue("+49 30 123456");
  await expect(address).toHaveValue("Gearhaus Plant 2\nIndustriestrasse 5\n10115 Berlin");
  // Another saved address, chosen from the book (a link: the same without JavaScript).
  await page.getByText("Deliver to another saved address").click();
  await page.getByRole("link", { name: "Site: Site office, Gate 4" }).click();
  await expect(address).toHaveValue("Site office, Gate 4");
  await address.fill("Site office, Gate 5");
  await save.uncheck();
  await po.fill("CART-7");
  await page.getByRole("button", { name: /^Place the order/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\//);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");

  const orders = await Order.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
  expect(orders.map((order) => [order.poNumber, order.address])).toEqual([
    ["PO-4500/17", "Gearhaus Plant 2\nIndustriestrasse 5\n10115 Berlin"],
    ["CART-7", "Site office, Gate 5"],
  ]);
  const stored = await storedCustomer(user.id);
  expect(stored?.addresses?.map((entry) => entry.address)).toEqual([
    "Gearhaus Plant 2\nIndustriestrasse 5\n10115 Berlin",
    "Site office, Gate 4",
  ]);
  expect(stored?.number).toBe("+49 30 123456");
});
