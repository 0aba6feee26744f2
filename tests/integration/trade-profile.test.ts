/** My Profile's trade account: company details (tax number by country format) and the address book. */
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { EMPTY_ADDRESS } from "~/domain/address";
import { Company } from "~/models/company.server";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { OrderDocument } from "~/components/order-document";
import { action, loader } from "~/routes/dashboard._index/route";
import { loader as documentLoader } from "~/routes/documents.$id.$kind";
import { up as migrateBilling } from "../../scripts/migrations/20261127180000-structured-billing.js";
import { createUser, sessionCookieHeader, storedCustomer, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, pageText, postRequest, settle } from "../setup/requests";
import { addressForm, DETROIT } from "../fixtures/addresses";

async function signedIn() {
  const user = await createUser();
  return { user, cookie: await sessionCookieHeader(user.id) };
}
const post = (cookie: string, fields: Record<string, string>) =>
  settle(action(actionArgs(postRequest("/dashboard?index", fields, { cookie }))));
const errors = async (response: Response) =>
  ((await response.json()) as { error?: Record<string, string[] | null> }).error ?? {};
const stored = (id: string) => storedCustomer(id);
/** A document's page (invoice, pro-forma) through its loader, rendered as the page renders it, as text. */
async function documentText(orderId: string, kind: string, cookie: string) {
  const response = await settle(
    documentLoader(loaderArgs(getRequest(`/documents/${orderId}/${kind}`, { cookie }), { id: orderId, kind })),
  );
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: Parameters<typeof OrderDocument>[0]["data"] };
  return pageText(new Response(renderToStaticMarkup(createElement(OrderDocument, { data }))));
}
/** A German billing address: no region, a five-digit postcode. */
const BERLIN = { ...EMPTY_ADDRESS, line1: "Hauptstrasse 1", city: "Berlin", postalCode: "10115", country: "DE" };
const billingForm = (address: typeof BERLIN) => addressForm(address, "billing");

describe("company details", () => {
  test("are saved with the tax number in its country's format, normalised", async () => {
    const { user, cookie } = await signedIn();
    const response = await post(cookie, {
      intent: "company",
      companyName: "Gearhaus GmbH",
      country: "DE",
      taxId: "de 123 456 789",
      ...addressForm(BERLIN, "billing"),
    });
    expect(response.status).toBe(302);
    expect(await stored(user.id)).toMatchObject({ companyName: "Gearhaus GmbH", country: "DE", taxId: "DE123456789" });
    const page = await (await settle(loader(loaderArgs(getRequest("/dashboard", { cookie }))))).json();
    expect(page.profile.company).toMatchObject({ companyName: "Gearhaus GmbH", taxId: "DE123456789" });
  });

  test.each([
    [{ country: "DE", taxId: "DE12345" }, "taxId", /not a valid Germany VAT or tax number/],
    [{ country: "US", taxId: "12-345" }, "taxId", /not a valid United States/],
    [{ country: "GB", taxId: "<b>GB123456789</b>" }, "taxId", /plain text/],
    // The billing address is checked as a delivery address is, field by field.
    [billingForm({ ...BERLIN, postalCode: "48209-1234" }), "billing.postalCode", /not a postal code of Germany/],
    [billingForm({ ...DETROIT, region: "" }), "billing.region", /^Choose a state$/],
    [billingForm({ ...DETROIT, region: "BY" }), "billing.region", /BY is not a state of United States/],
    [billingForm({ ...BERLIN, region: "BY" }), "billing.region", /not a region of Germany/],
    [billingForm({ ...BERLIN, country: "" }), "billing.country", /Choose a country/],
    [billingForm({ ...BERLIN, line1: "x".repeat(2000) }), "billing.line1", /100 characters or fewer/],
    [billingForm({ ...BERLIN, line1: "Hauptstrasse 1\u0007" }), "billing.line1", /control characters/],
    [billingForm({ ...BERLIN, city: "" }), "billing.city", /City is Required/],
  ])("refuses %o with a message at the field and changes nothing", async (input, field, message) => {
    const { user, cookie } = await signedIn();
    const before = await Company.findById(user.companyId).lean();
    const response = await post(cookie, { intent: "company", companyName: "Before", ...input });
    expect(response.status).toBe(400);
    expect((await errors(response))[field]?.join(" ")).toMatch(message);
    expect(await Company.findById(user.companyId).lean()).toEqual(before);
  });

  test("a bad tax number and a bad billing postcode are both told at once, at their fields", async () => {
    const { user, cookie } = await signedIn();
    const before = await Company.findById(user.companyId).lean();
    const response = await post(cookie, {
      intent: "company",
      country: "DE",
      taxId: "DE12",
      ...billingForm({ ...BERLIN, postalCode: "1011" }),
    });
    expect(response.status).toBe(400);
    const fields = await errors(response);
    expect(fields.taxId?.join(" ")).toMatch(/not a valid Germany VAT or tax number/);
    expect(fields["billing.postalCode"]).toEqual(["1011 is not a postal code of Germany"]);
    expect(await Company.findById(user.companyId).lean()).toEqual(before);
  });

  test("the billing address is stored field by field; the invoice prints it from the fields; emptied, it is gone", async () => {
    const { user, cookie } = await signedIn();
    const billing = { ...DETROIT, name: "Accounts payable", company: "Gearhaus Inc", line2: "Suite 4" };
    expect(
      (await post(cookie, { intent: "company", companyName: "Gearhaus Inc", ...billingForm(billing) })).status,
    ).toBe(302);
    const company = await Company.findById(user.companyId).lean();
    expect(company?.billing).toMatchObject(billing);
    const page = await (await settle(loader(loaderArgs(getRequest("/dashboard", { cookie }))))).json();
    expect(page.profile.company).toMatchObject({
      billing,
      billingToConfirm: false,
      billingAddress: "Accounts payable\nGearhaus Inc\n12 Gear Lane\nSuite 4\nDetroit, MI 48209\nUnited States",
    });

    // The invoice of a paid order and the pro-forma of an unpaid one print it, field by field.
    for (const [status, kind] of [
      ["paid", "invoice"],
      ["unpaid", "pro-forma"],
    ] as const) {
      const order = await createOrder({ user, status });
      const text = await documentText(order.id, kind, cookie);
      expect(text).toMatch(/Bill to/);
      expect(text).toMatch(/Accounts payable Gearhaus Inc 12 Gear Lane Suite 4 Detroit, MI 48209 United States/);
    }

    // Every billing field left empty: no billing address (it is optional).
    const cleared = Object.fromEntries(Object.keys(billingForm(billing)).map((key) => [key, ""]));
    expect((await post(cookie, { intent: "company", companyName: "Gearhaus Inc", ...cleared })).status).toBe(302);
    const after = await Company.findById(user.companyId).lean();
    expect([after?.billing, after?.billingAddress]).toEqual([undefined, undefined]);
  });

  test("free-text billing addresses are migrated: read into fields where certain, else kept and flagged for an owner to confirm", async () => {
    const { user: certain } = await signedIn();
    const { user: unsure, cookie } = await signedIn();
    await updateCompanyOf(certain.id, {
      $set: {
        companyName: "Mill Road Garage",
        billingAddress: "Mill Road Garage\n48 Mill Road\nDetroit, MI 48209\nUSA",
      },
    });
    await updateCompanyOf(unsure.id, { $set: { billingAddress: "Hauptstr. 5\n10115 Berlin" } });
    const db = mongoose.connection.db!;
    await migrateBilling(db);
    const once = await Company.find({ _id: { $in: [certain.companyId, unsure.companyId] } }).lean();
    await migrateBilling(db); // a second run changes nothing
    expect(await Company.find({ _id: { $in: [certain.companyId, unsure.companyId] } }).lean()).toEqual(once);

    expect((await Company.findById(certain.companyId).lean())?.billing).toEqual({
      ...EMPTY_ADDRESS,
      company: "Mill Road Garage",
      line1: "48 Mill Road",
      city: "Detroit",
      region: "MI",
      postalCode: "48209",
      country: "US",
    });
    const flagged = (await Company.findById(unsure.companyId).lean())!;
    expect([flagged.billing, flagged.billingNeedsConfirmation, flagged.billingAddress]).toEqual([
      undefined,
      true,
      "Hauptstr. 5\n10115 Berlin",
    ]);
    // The owner sees the text and what could be read, completes the fields and saves: confirmed.
    const page = await (await settle(loader(loaderArgs(getRequest("/dashboard", { cookie }))))).json();
    expect(page.profile.company).toMatchObject({ billingToConfirm: true, billingAddress: "Hauptstr. 5\n10115 Berlin" });
    expect((await post(cookie, { intent: "company", ...billingForm(BERLIN) })).status).toBe(302);
    const confirmed = (await Company.findById(unsure.companyId).lean())!;
    expect(confirmed).toMatchObject({ billing: BERLIN, billingAddress: "Hauptstrasse 1\n10115 Berlin\nGermany" });
    expect(confirmed.billingNeedsConfirmation).toBeUndefined();
  });

  test("a US EIN with its dash is accepted", async () => {
    const { user, cookie } = await signedIn();
    expect((await post(cookie, { intent: "company", country: "US", taxId: "12-3456789" })).status).toBe(302);
    expect((await stored(user.id))?.taxId).toBe("123456789");
  });
});

/** An address-book entry in Detroit with this street (lines split on line breaks), as the form posts it. */
const at = (street: string) => {
  const [line1, line2 = ""] = street.split("\n");
  return addressForm({ ...DETROIT, company: "", line1, line2 }, "postal");
};
const printed = (street: string) => `${street}\nDetroit, MI 48209\nUnited States`;

describe("address book", () => {
  test("add, edit, make default and delete; the first address is the default", async () => {
    const { user, cookie } = await signedIn();
    expect((await post(cookie, { intent: "address-save", label: "Plant", ...at("1 Plant Road\nFlint") })).status).toBe(
      302,
    );
    expect((await post(cookie, { intent: "address-save", label: "Depot", ...at("2 Depot Lane") })).status).toBe(302);
    let page = await (await settle(loader(loaderArgs(getRequest("/dashboard", { cookie }))))).json();
    expect(page.profile.addresses).toMatchObject([
      { label: "Plant", address: printed("1 Plant Road\nFlint"), isDefault: true },
      { label: "Depot", address: printed("2 Depot Lane"), isDefault: false },
    ]);
    const [plant, depot] = page.profile.addresses;

    expect(
      (await post(cookie, { intent: "address-save", addressId: depot.id, label: "Depot", ...at("3 Depot Lane") }))
        .status,
    ).toBe(302);
    expect((await post(cookie, { intent: "address-default", addressId: depot.id })).status).toBe(302);
    expect((await post(cookie, { intent: "address-delete", addressId: plant.id })).status).toBe(302);
    page = await (await settle(loader(loaderArgs(getRequest(`/dashboard?edit=${depot.id}`, { cookie }))))).json();
    expect(page.profile.addresses).toMatchObject([
      { id: depot.id, label: "Depot", address: printed("3 Depot Lane"), isDefault: true },
    ]);
    expect(page.editing).toMatchObject({ id: depot.id });
    expect((await stored(user.id))?.addresses).toHaveLength(1);
  });

  test("an edit that makes an address the same as another saved one is refused at the field, nothing changed", async () => {
    const { user, cookie } = await signedIn();
    await post(cookie, { intent: "address-save", label: "Plant", ...at("1 Plant Road\nFlint"), makeDefault: "on" });
    await post(cookie, { intent: "address-save", label: "Depot", ...at("2 Depot Lane") });
    const before = await stored(user.id);
    const [plant, depot] = before!.addresses!.map((entry) => String(entry._id));

    // The same address with other capitals, spacing and line breaks, and asking to become the default.
    const edit = { intent: "address-save", addressId: depot, label: "Depot" };
    const response = await post(cookie, { ...edit, ...at("1 plant road flint"), makeDefault: "on" });
    expect(response.status).toBe(409);
    expect((await errors(response))["postal.line1"]).toEqual(["This address is already in your address book"]);
    expect(await stored(user.id)).toEqual(before);

    // An entry keeps its own address when only its name changes, and another address is still saved.
    expect(
      (await post(cookie, { ...edit, label: "Main plant", addressId: plant, ...at("1 Plant Road\nFlint") })).status,
    ).toBe(302);
    expect((await post(cookie, { ...edit, ...at("2 Depot Lane, Gate 3") })).status).toBe(302);
    expect((await stored(user.id))?.addresses?.map(({ label, address }) => ({ label, address }))).toEqual([
      { label: "Main plant", address: printed("1 Plant Road\nFlint") },
      { label: "Depot", address: printed("2 Depot Lane, Gate 3") },
    ]);
  });

  test("bad input answers a message and changes nothing; the book holds at most 20", async () => {
    const { user, cookie } = await signedIn();
    for (const [input, message] of [
      [{ ...at("x"), "postal.line1": "<script>alert(1)</script>" }, /plain text/],
      [{ ...at("x"), "postal.line1": "" }, /Street address is Required/],
      [{ ...at("x"), "postal.line1": "x".repeat(2000) }, /100 characters or fewer/],
      [{ ...at("x"), "postal.line1": "1 Dock\u0000Road" }, /control characters/],
    ] as const) {
      const response = await post(cookie, { intent: "address-save", ...input });
      expect(response.status).toBe(400);
      expect((await errors(response))["postal.line1"]?.join(" ")).toMatch(message);
    }
    expect((await stored(user.id))?.addresses ?? []).toHaveLength(0);

    for (let i = 0; i < 20; i++)
      expect((await post(cookie, { intent: "address-save", ...at(`${i} Full Street`) })).status).toBe(302);
    const full = await post(cookie, { intent: "address-save", ...at("21 Full Street") });
    expect(full.status).toBe(409);
    expect((await errors(full))["postal.line1"]).toEqual(["Your address book is full (20 addresses)"]);
    expect((await stored(user.id))?.addresses).toHaveLength(20);

    // Someone else's address id is not found and changes nothing.
    const other = await signedIn();
    const id = String((await stored(user.id))!.addresses![0]._id);
    expect((await post(other.cookie, { intent: "address-delete", addressId: id })).status).toBe(404);
    expect((await stored(user.id))?.addresses).toHaveLength(20);
  });
});
