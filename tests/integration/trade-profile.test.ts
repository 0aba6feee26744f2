/** My Profile's trade account: company details (tax number by country format) and the address book. */
import { describe, expect, test } from "vitest";
import { action, loader } from "~/routes/dashboard._index";
import { createUser, sessionCookieHeader, storedCustomer } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
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

describe("company details", () => {
  test("are saved with the tax number in its country's format, normalised", async () => {
    const { user, cookie } = await signedIn();
    const response = await post(cookie, {
      intent: "company",
      companyName: "Gearhaus GmbH",
      country: "DE",
      taxId: "de 123 456 789",
      billingAddress: "Hauptstrasse 1\n10115 Berlin",
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
    [
      { billingAddress: Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n") },
      "billingAddress",
      /6 lines or fewer/,
    ],
  ])("refuses %o with a message and changes nothing", async (input, field, message) => {
    const { user, cookie } = await signedIn();
    const response = await post(cookie, { intent: "company", companyName: "Before", ...input });
    expect(response.status).toBe(400);
    expect((await errors(response))[field]?.join(" ")).toMatch(message);
    expect((await stored(user.id))?.companyName).toBeUndefined();
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
