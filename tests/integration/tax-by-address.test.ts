/**
 * Tax follows the delivery address's fields, never its text: the crafted addresses of the security
 * audit (a Detroit, MI 48209 address with a line "Dock door OR 97201", lines naming Mexico or
 * Switzerland, a company whose own country is CH) all pay Michigan's tax, through the part page, the
 * cart and the API. Bad addresses are refused at the field with nothing written; the order is placed
 * only at the total the buyer was shown; free-text addresses of the address book are migrated.
 */
import { describe, expect, test } from "vitest";
import mongoose from "mongoose";
import { parseLegacyAddress } from "~/domain/address";
import { createApiKey } from "~/models/api-key.server";
import { updateCompany } from "~/models/address-book.server";
import { addToCart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { getUserById } from "~/models/user.server";
import { Order } from "~/orders/model/schema.server";
import { action as apiOrdersAction } from "~/routes/api.v1.orders._index";
import { action as cartAction } from "~/routes/dashboard.cart";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as quickOrderAction } from "~/routes/dashboard.quick-order";
import { action as orderAction } from "~/routes/parts.$id";
import { deliveryDefaults } from "~/models/address-book.server";
import { up as migrateAddresses } from "../../scripts/migrations/20261127150000-structured-addresses.js";
import { createPart } from "../setup/factories";
import { actionArgs, postRequest, settle } from "../setup/requests";
import { addressForm, DETROIT, TOLEDO } from "../fixtures/addresses";
import { expectFieldError, signedIn, snapshot } from "./ordering.helpers";

const MICHIGAN = { kind: "sales-tax", label: "MI sales tax 6%", rate: 6 };

/** The audit's crafted addresses: each is structurally Detroit, MI; its text names other places. */
const CRAFTED: [string, typeof DETROIT][] = [
  ["a line “Dock door OR 97201”", { ...DETROIT, line2: "Dock door OR 97201" }],
  ["a line naming Mexico", { ...DETROIT, line2: "Mexico" }],
  ["a line naming Switzerland", { ...DETROIT, line2: "Switzerland" }],
  ["a company line naming Zürich, Switzerland", { ...DETROIT, company: "Zürich, Switzerland" }],
  ["a city line ending in a ZIP of Oregon", { ...DETROIT, line1: "1 Main St, Portland, OR 97201" }],
];

function postOrder(partId: string, fields: Record<string, string>, cookie: string) {
  return settle(orderAction(actionArgs(postRequest(`/parts/${partId}`, fields, { cookie }), { id: partId })));
}

async function lastOrderOf(userId: string) {
  return Order.findOne({ userId }).sort({ _id: -1 }).lean();
}

describe("the tax of the crafted addresses is the delivery region's", () => {
  test.each(CRAFTED)("part page: %s pays Michigan's tax", async (_name, address) => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const response = await postOrder(
      part.id,
      { phone: "+1 313 555 0100", quantity: "100", ...addressForm(address) },
      cookie,
    );
    expect(response.status).toBe(302);
    const order = await lastOrderOf(user.id);
    expect(order?.taxLines?.[0]).toMatchObject({ ...MICHIGAN, amountCents: 60_000 });
    expect(order?.taxCents).toBe(60_000);
    expect(order?.deliveryAddress).toMatchObject({ country: "US", region: "MI", line2: address.line2 });
  });

  test("a company whose own country is CH (set by its customer) pays Michigan's tax on a Detroit delivery", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    expect(await updateCompany(user.id, { country: "CH", companyName: "Zürich Trading AG" })).toBeTruthy();
    expect((await getUserById(user.id))?.company.country).toBe("CH");
    const response = await postOrder(
      part.id,
      { phone: "+1 313 555 0100", quantity: "100", ...addressForm(DETROIT) },
      cookie,
    );
    expect(response.status).toBe(302);
    expect((await lastOrderOf(user.id))?.taxLines?.[0]).toMatchObject({ ...MICHIGAN, amountCents: 60_000 });
  });

  test("cart checkout: Dock door OR 97201 in a Detroit address pays Michigan's tax", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    expect((await addToCart(user.id, part.id, 100)).ok).toBe(true);
    const fields = {
      intent: "checkout",
      phone: "+1 313 555 0100",
      ...addressForm({ ...DETROIT, line2: "Dock door OR 97201" }),
    };
    const response = await settle(cartAction(actionArgs(postRequest("/dashboard/cart", fields, { cookie }))));
    expect(response.status).toBe(302);
    expect((await lastOrderOf(user.id))?.taxLines?.[0]).toMatchObject({ ...MICHIGAN, amountCents: 60_000 });
  });

  test("API: a crafted deliveryAddress pays Michigan's tax; one without fields is a 422 at the field", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user } = await signedIn();
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "ERP",
      scopes: ["read", "order"],
    });
    const call = (body: unknown) =>
      settle(
        apiOrdersAction(
          actionArgs(
            new Request("http://localhost/api/v1/orders", {
              method: "POST",
              headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
              body: JSON.stringify(body),
            }),
          ),
        ),
      );
    const lines = [{ partNumber: part.partNumber, quantity: 100 }];
    const placed = await call({ lines, phone: "555-0100", deliveryAddress: { ...DETROIT, line2: "Switzerland" } });
    expect(placed.status).toBe(201);
    const json = await placed.json();
    expect(json.taxLines[0]).toMatchObject({ label: "MI sales tax 6%" });
    expect(json.deliveryAddress).toMatchObject({ region: "MI", country: "US", line2: "Switzerland" });
    const before = await snapshot({ partIds: [part.id] });
    const text = await call({ lines, phone: "555-0100", address: "Detroit, MI 48209\nMexico" });
    expect(text.status).toBe(422);
    const missing = await call({ lines, phone: "555-0100", deliveryAddress: { ...DETROIT, country: undefined } });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(await missing.json())).toContain("deliveryAddress.country");
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });
});

describe("a bad address is refused at its field, 400, nothing written", () => {
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ["missing country", { "delivery.country": "" }, "delivery.country", /Choose a country/],
    ["a region not of the country", { "delivery.country": "DE", "delivery.postalCode": "20457" }, "delivery.region", /MI is not a region of Germany/],
    ["a US state under Canada", { "delivery.country": "CA", "delivery.postalCode": "M5V 2T6" }, "delivery.region", /MI is not a province of Canada/],
    ["a US ZIP in a British address", { "delivery.country": "GB", "delivery.region": "" }, "delivery.postalCode", /48209 is not a postal code of United Kingdom/],
    ["a US ZIP in a Swiss address", { "delivery.country": "CH", "delivery.region": "" }, "delivery.postalCode", /48209 is not a postal code of Switzerland/],
    ["a 2,000-character line", { "delivery.line2": "y".repeat(2000) }, "delivery.line2", /100 characters or fewer/],
    ["control characters", { "delivery.line1": "12 Gear Lane\u0007\u0000" }, "delivery.line1", /control characters/],
    ["a line break in a line", { "delivery.line2": "Dock door\r\nOR 97201" }, "delivery.line2", /line breaks/],
    ["a Michigan ZIP code under Oregon", { "delivery.region": "OR", "delivery.postalCode": "48243" }, "delivery.postalCode", /^48243 is a ZIP code in Michigan, not in Oregon$/],
    ["a Toronto postal code under Quebec", { "delivery.country": "CA", "delivery.region": "QC", "delivery.postalCode": "M5V 2T6" }, "delivery.postalCode", /^M5V 2T6 is a postal code in Ontario, not in Quebec$/],
    ["a Sydney postcode under Victoria", { "delivery.country": "AU", "delivery.region": "VIC", "delivery.postalCode": "2000" }, "delivery.postalCode", /^2000 is a postal code in New South Wales, not in Victoria$/],
  ]; // prettier-ignore
  test.each(cases)("%s", async (_name, change, field, message) => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { cookie } = await signedIn();
    const before = await snapshot({ partIds: [part.id] });
    const fields = { phone: "+1 313 555 0100", quantity: "100", ...addressForm(DETROIT), ...change };
    await expectFieldError(await postOrder(part.id, fields, cookie), field, message);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });
});

/**
 * The audit's "Detroit, OR 48243": a Michigan ZIP code with Oregon (no sales tax) as the state. Every form
 * that takes a structured address, and the API, refuse it at the postal code; nothing is written.
 */
describe("a ZIP code of another state is refused at the field", () => {
  const DETROIT_OR = { ...DETROIT, line1: "1 Renaissance Center", region: "OR", postalCode: "48243" };
  const MESSAGE = "48243 is a ZIP code in Michigan, not in Oregon";
  const fieldErrorsOf = async (response: Response) => {
    const body = await response.json();
    return ("result" in body ? body.result : body).error ?? {};
  };

  test("API: POST /api/v1/orders answers 422 with deliveryAddress.postalCode, and places no order", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user } = await signedIn();
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "ERP",
      scopes: ["read", "order"],
    });
    const before = await snapshot({ partIds: [part.id] });
    const response = await settle(
      apiOrdersAction(
        actionArgs(
          new Request("http://localhost/api/v1/orders", {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({
              lines: [{ partNumber: part.partNumber, quantity: 100 }],
              phone: "555-0100",
              deliveryAddress: DETROIT_OR,
            }),
          }),
        ),
      ),
    );
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual([{ field: "deliveryAddress.postalCode", message: MESSAGE }]);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
  });

  test("part page, cart and quick-order pad: 400 at delivery.postalCode, no order", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    expect((await addToCart(user.id, part.id, 100)).ok).toBe(true);
    const before = await snapshot({ partIds: [part.id] });
    const delivery = { phone: "+1 313 555 0100", ...addressForm(DETROIT_OR) };
    const answers = [
      await postOrder(part.id, { quantity: "100", ...delivery }, cookie),
      await settle(
        cartAction(actionArgs(postRequest("/dashboard/cart", { intent: "checkout", ...delivery }, { cookie }))),
      ),
      await settle(
        quickOrderAction(
          actionArgs(
            postRequest(
              "/dashboard/quick-order",
              { intent: "order", lines: `${part.partNumber} 100`, ...delivery },
              { cookie },
            ),
          ),
        ),
      ),
    ];
    for (const response of answers) await expectFieldError(response, "delivery.postalCode", MESSAGE);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
  });

  test("address book and company billing address: 400 at the postal code, nothing saved", async () => {
    const { user, cookie } = await signedIn();
    const post = (fields: Record<string, string>) =>
      settle(profileAction(actionArgs(postRequest("/dashboard?index", fields, { cookie }))));
    const before = await Company.findById(user.companyId).lean();

    const saved = await post({ intent: "address-save", label: "Plant", ...addressForm(DETROIT_OR, "postal") });
    expect(saved.status).toBe(400);
    expect((await fieldErrorsOf(saved))["postal.postalCode"]).toEqual([MESSAGE]);

    const billing = await post({
      intent: "company",
      companyName: "Test Garage",
      ...addressForm(DETROIT_OR, "billing"),
    });
    expect(billing.status).toBe(400);
    expect((await fieldErrorsOf(billing))["billing.postalCode"]).toEqual([MESSAGE]);

    expect(await Company.findById(user.companyId).lean()).toEqual(before);
    // The same address with its own state is saved.
    const fixed = await post({
      intent: "address-save",
      label: "Plant",
      ...addressForm({ ...DETROIT_OR, region: "MI" }, "postal"),
    });
    expect(fixed.status).toBe(302);
  });

  test("a free-text address whose ZIP code is of another state is not read as certain", () => {
    expect(parseLegacyAddress("1 Renaissance Center\nDetroit, OR 48243").certain).toBe(false);
    expect(parseLegacyAddress("1 Renaissance Center\nDetroit, MI 48243").certain).toBe(true);
  });
});

describe("the total shown is the total paid", () => {
  test("an Ohio address posted with Michigan's total is not placed (409, the new total said); at Ohio's total it is", async () => {
    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const before = await snapshot({ partIds: [part.id] });
    const ohio = { phone: "+1 419 555 0100", quantity: "100", ...addressForm(TOLEDO) };
    const stale = await postOrder(part.id, { ...ohio, quotedTotalCents: String(1_000_000 + 60_000) }, cookie);
    expect(stale.status).toBe(409);
    expect(JSON.stringify(await stale.json())).toContain("For delivery to OH");
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    const placed = await postOrder(part.id, { ...ohio, quotedTotalCents: String(1_000_000 + 57_500) }, cookie);
    expect(placed.status).toBe(302);
    const order = await lastOrderOf(user.id);
    expect(order).toMatchObject({ netCents: 1_000_000, taxCents: 57_500, totalCents: 1_057_500 });
    expect(order?.taxLines?.[0]).toMatchObject({ label: "OH sales tax 5.75%" });
  });
});

describe("free-text addresses of the address book", () => {
  test("read where certain; otherwise flagged, and the first order to it confirms it", async () => {
    expect(parseLegacyAddress("Northside Fleet Garage\n48 Mill Road\nDetroit, MI 48209")).toMatchObject({
      certain: true,
      address: {
        line1: "Northside Fleet Garage",
        line2: "48 Mill Road",
        city: "Detroit",
        region: "MI",
        postalCode: "48209",
        country: "US",
      },
    });
    expect(parseLegacyAddress("Hafenstraße 12\n20457 Hamburg\nGermany").certain).toBe(false);
    expect(parseLegacyAddress("1 Dock St\nDetroit, MI 48209\nDock door OR 97201").certain).toBe(false);

    const part = await createPart({ priceCents: 10_000, minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const certainId = new mongoose.Types.ObjectId();
    const unsureId = new mongoose.Types.ObjectId();
    await Company.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(user.companyId!) },
      {
        $set: {
          addresses: [
            { _id: certainId, address: "48 Mill Road\nDetroit, MI 48209", key: "48 mill road detroit, mi 48209" },
            { _id: unsureId, address: "Yard 2\nbehind the Toledo depot", key: "yard 2 behind the toledo depot" },
          ],
        },
      },
    );
    await migrateAddresses(mongoose.connection.db!);
    await migrateAddresses(mongoose.connection.db!); // a second run changes nothing
    const stored = await Company.findById(user.companyId).lean();
    expect(stored?.addresses?.[0]).toMatchObject({ postal: { city: "Detroit", region: "MI", country: "US" } });
    expect(stored?.addresses?.[0].needsConfirmation).toBeUndefined();
    expect(stored?.addresses?.[1]).toMatchObject({ needsConfirmation: true });

    const viewer = (await getUserById(user.id))!;
    expect(deliveryDefaults(viewer, String(unsureId))).toMatchObject({
      confirmAddress: "Yard 2\nbehind the Toledo depot",
      delivery: { line1: "Yard 2", line2: "behind the Toledo depot", country: "" },
    });
    // The buyer completes the fields and orders: the entry is confirmed with them.
    const response = await postOrder(
      part.id,
      { phone: "+1 419 555 0100", quantity: "100", addressId: String(unsureId), ...addressForm(TOLEDO) },
      cookie,
    );
    expect(response.status).toBe(302);
    const after = await Company.findById(user.companyId).lean();
    expect(after?.addresses?.[1]).toMatchObject({ needsConfirmation: false, postal: { city: "Toledo", region: "OH" } });
  });
});
