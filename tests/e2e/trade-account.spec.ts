import { Order } from "~/orders/model/schema.server";
import { User } from "~/models/user.server";
import { EMPTY_ADDRESS, formatAddress } from "~/domain/address";
import { addressKey } from "~/models/address-book.server";
import { storedCustomer, updateCompanyOf } from "../setup/factories";
import { DETROIT, TOLEDO } from "../fixtures/addresses";
import { fillDeliveryAddress } from "./delivery-address";
import { expect, test } from "./fixtures";

const PLANT = { ...DETROIT, company: "", line1: "1 Plant Road", city: "Flint", postalCode: "48502" };
const DEPOT = { ...TOLEDO, line1: "2 Depot Lane" };
const BERLIN = {
  ...EMPTY_ADDRESS,
  line1: "Industriestrasse 5",
  line2: "Gearhaus Plant 2",
  city: "Berlin",
  postalCode: "10115",
  country: "DE",
};
/** A German billing address: no region, a five-digit postcode. */
const BILLING = { ...EMPTY_ADDRESS, line1: "Hauptstrasse 1", city: "Berlin", postalCode: "10115", country: "DE" };
const SITE = { ...DETROIT, company: "", line1: "Site office", line2: "Gate 4" };

test("a buyer enters company details and delivery addresses on My Profile", async ({
  page,
  login,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow();
  const user = await login({ name: "Tara Trade" });
  await page.goto("/dashboard");
  // Typing before the forms hydrate can be lost: wait for the page's scripts first.
  if (javaScriptEnabled) await page.waitForLoadState("networkidle");

  // Company details: a tax number that does not fit the country and a postcode that does not fit the
  // billing address's country are refused at their fields, then corrected.
  const companyForm = page.getByRole("region", { name: "Save company details" });
  await page.getByLabel("Company name").fill("Gearhaus GmbH");
  await companyForm.getByLabel("Country of the tax number").selectOption("DE");
  await page.getByLabel("VAT or tax number").fill("DE12");
  await fillDeliveryAddress(companyForm, { ...BILLING, postalCode: "1011" }, "Billing address (optional)");
  await page.getByRole("button", { name: "Save company details" }).click();
  await expect(page.getByText(/not a valid Germany VAT or tax number/)).toBeVisible();
  await expect(companyForm.getByText("1011 is not a postal code of Germany")).toBeVisible();
  expect((await storedCustomer(user.id))?.companyName).toBeUndefined();
  await page.getByLabel("VAT or tax number").fill("DE 123456789");
  await companyForm.getByLabel("Postal code").fill(BILLING.postalCode);
  await page.getByRole("button", { name: "Save company details" }).click();
  await expect(page.getByTestId("toast")).toContainText("Company details saved");
  const details = page.getByTestId("profile-details");
  await expect(details).toContainText("Gearhaus GmbH");
  await expect(details).toContainText("DE123456789 (Germany)");
  await expect(details).toContainText("Hauptstrasse 1");
  await expect(details).toContainText("10115 Berlin");
  // The saved fields come back into the form.
  await expect(companyForm.getByLabel("City")).toHaveValue("Berlin");
  await expect(companyForm.getByLabel("Country", { exact: true })).toHaveValue("DE");

  // Address book: add two, make the second the default, edit it, delete the first.
  const section = page.getByRole("region", { name: "Address book" });
  const book = page.getByTestId("address-book");
  const street = section.getByLabel("Street address");
  await page.getByLabel("Name of the address").fill("Plant");
  await fillDeliveryAddress(section, PLANT, "Address");
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(page.getByTestId("toast")).toContainText("Address added");
  await expect(book).toContainText("Plant");
  await page.getByLabel("Name of the address").fill("Depot");
  await fillDeliveryAddress(section, DEPOT, "Address");
  await page.getByRole("button", { name: "Add address" }).click();
  await expect(book.getByRole("listitem")).toHaveCount(2);
  // After an address is added the form starts empty again.
  await expect(street).toHaveValue("");
  await page.getByRole("button", { name: "Make default: Depot" }).click();
  await expect(book.getByRole("listitem").filter({ hasText: "Depot" })).toContainText("Default");
  await page.getByRole("link", { name: "Edit Depot" }).click();
  // The form is the address's own once it says so and holds it (with JavaScript the link re-renders it in place).
  await expect(page.getByRole("button", { name: "Save address" })).toBeVisible();
  await expect(street).toHaveValue("2 Depot Lane");
  await expect(section.getByLabel("City")).toHaveValue("Toledo");
  // Made the same as another saved address, the edit is refused at the field and the form stays this address's.
  await fillDeliveryAddress(section, { ...PLANT, line1: "1 plant  ROAD" }, "Address");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(section.getByText("This address is already in your address book")).toBeVisible();
  await expect(book).toContainText("2 Depot Lane");
  await fillDeliveryAddress(section, { ...DEPOT, line1: "3 Depot Lane" }, "Address");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(book).toContainText("3 Depot Lane");
  await page.getByRole("button", { name: "Delete Plant" }).click();
  await expect(book.getByRole("listitem")).toHaveCount(1);
  await checkA11y();

  const stored = await storedCustomer(user.id);
  expect(stored?.addresses?.map((entry) => entry.postal)).toEqual([{ ...DEPOT, line1: "3 Depot Lane" }]);
  expect(String(stored?.defaultAddressId)).toBe(String(stored?.addresses?.[0]._id));
});

test("orders start from the profile's phone and default address, save a new address and carry a PO number", async ({
  page,
  login,
  createPart,
  checkA11y,
  javaScriptEnabled,
}) => {
  test.slow();
  const user = await login({ name: "Pia Purchase" });
  // A profile's own address is free text; the order form reads it into fields.
  await User.updateOne(
    { _id: user.id },
    { $set: { number: "+49 30 123456", address: "Old Street 1\nDetroit, MI 48209" } },
  );
  const part = await createPart({ priceCents: 500, minOrderQuantity: 100, availableQuantity: 1000 });
  // Without JavaScript the page shows the total for the address last sent: bring it up to date before ordering.
  const updateTotal = async () => {
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Update total" }).click();
  };

  // The part page: phone and address from the profile, the address book box ticked.
  await page.goto(`/parts/${part.id}`);
  const phone = page.getByLabel("Phone");
  const delivery = page.getByRole("group", { name: "Delivery address" });
  const street = delivery.getByLabel("Street address");
  const save = page.getByLabel("Save to my address book");
  const po = page.getByLabel("PO number (optional)");
  await expect(phone).toHaveValue("+49 30 123456");
  await expect(street).toHaveValue("Old Street 1");
  await expect(delivery.getByLabel("City")).toHaveValue("Detroit");
  await expect(delivery.getByLabel("ZIP code")).toHaveValue("48209");
  await expect(delivery.getByLabel("Country")).toHaveValue("US");
  await expect(save).toBeChecked();
  await checkA11y();

  // A PO number with HTML is refused by its field; nothing is ordered.
  await fillDeliveryAddress(page, BERLIN);
  await updateTotal();
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
  await expect(street).toHaveValue("Industriestrasse 5");
  await expect(delivery.getByLabel("Postal code")).toHaveValue("10115");
  await expect(delivery.getByLabel("Country")).toHaveValue("DE");

  // Checkout from the cart: pre-filled the same way; unticked, the changed address is not kept.
  await page.getByLabel("Units for the cart").fill("100");
  await page.getByRole("button", { name: `Add to cart ${part.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText("added to your cart");
  const site = formatAddress(SITE);
  await updateCompanyOf(user.id, {
    $push: { addresses: { label: "Site", address: site, key: addressKey(site), postal: SITE } },
  });
  await page.goto("/dashboard/cart");
  await expect(phone).toHaveValue("+49 30 123456");
  await expect(street).toHaveValue("Industriestrasse 5");
  // Another saved address, chosen from the book (a link: the same without JavaScript).
  await page.getByText("Deliver to another saved address").click();
  await page.getByRole("link", { name: `Site: ${site.replace(/\n/g, ", ")}` }).click();
  await expect(street).toHaveValue("Site office");
  await expect(delivery.getByLabel("Address line 2 (optional)")).toHaveValue("Gate 4");
  await delivery.getByLabel("Address line 2 (optional)").fill("Gate 5");
  await updateTotal();
  await save.uncheck();
  await po.fill("CART-7");
  await page.getByRole("button", { name: /^Place the order/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\//);
  await expect(page.getByTestId("toast")).toContainText("Your Order is Placed");

  const orders = await Order.find({ userId: user.id }).sort({ createdAt: 1, _id: 1 }).lean();
  expect(orders.map((order) => [order.poNumber, order.deliveryAddress])).toEqual([
    ["PO-4500/17", BERLIN],
    ["CART-7", { ...SITE, line2: "Gate 5" }],
  ]);
  const stored = await storedCustomer(user.id);
  expect(stored?.addresses?.map((entry) => entry.postal)).toEqual([BERLIN, SITE]);
  expect(stored?.number).toBe("+49 30 123456");
});
