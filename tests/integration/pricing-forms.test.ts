/**
 * The forms of prices and tax refuse bad input at the field, with a 4xx, writing nothing: volume
 * breaks on Edit Product, a price group's discounts and net prices, a customer's VAT number; and a
 * customer's own price appears on the screens the admin's choices change.
 */
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Part } from "~/models/part.server";
import { Company } from "~/models/company.server";
import { PriceGroup } from "~/models/price-group.server";
import { User } from "~/models/user.server";
import { action as editProduct, loader as editProductPage } from "~/routes/dashboard.manageProducts_.$id.edit";
import { action as addProduct } from "~/routes/dashboard.addProduct";
import { action as priceGroupsAction, loader as priceGroupsPage } from "~/routes/dashboard.priceGroups";
import { action as customerAction } from "~/routes/dashboard.allUsers_.$id._index";
import { loader as partLoader } from "~/routes/parts.$id";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";

async function admin() {
  const user = await createUser({ role: "admin" });
  return sessionCookieHeader(user.id);
}

async function errorsOf(response: Response) {
  return JSON.stringify(await response.json());
}

describe("volume breaks on Edit Product", () => {
  test.each([
    ["1000:-10%;500:-5%", "smallest quantity up"],
    ["500:-5%;500:-8%", "overlap"],
    ["500:-150%", "below 100"],
    ["500:-3", "cannot be negative"],
    ["500:30", "above the list price"],
  ])("%s: a message at the field, 400, the part unchanged", async (breaks, message) => {
    const cookie = await admin();
    const part = await createPart({ priceCents: 2500 });
    const before = await Part.findById(part.id).lean();
    const response = await settle(
      editProduct(
        actionArgs(
          postRequest(
            `/dashboard/manageProducts/${part.id}/edit`,
            {
              name: part.name,
              description: part.description,
              img: part.img,
              price: "25",
              minOrderQuantity: "100",
              partNumber: part.partNumber,
              category: "brakes",
              brand: "PartsWorks",
              volumeBreaks: breaks,
            },
            { cookie },
          ),
          { id: part.id },
        ),
      ),
    );
    expect(response.status).toBe(400);
    const body = await errorsOf(response);
    expect(body).toContain("volumeBreaks");
    expect(body).toContain(message);
    expect(await Part.findById(part.id).lean()).toEqual(before);
  });

  test("valid breaks are saved sorted as typed, and the part page shows the table", async () => {
    const cookie = await admin();
    const part = await createPart({ priceCents: 2500, availableQuantity: 5000 });
    const response = await settle(
      editProduct(
        actionArgs(
          postRequest(
            `/dashboard/manageProducts/${part.id}/edit`,
            {
              name: part.name,
              description: part.description,
              img: part.img,
              price: "25",
              minOrderQuantity: "100",
              partNumber: part.partNumber,
              category: "brakes",
              brand: "PartsWorks",
              volumeBreaks: "500:-5%;1000:20.00",
            },
            { cookie },
          ),
          { id: part.id },
        ),
      ),
    );
    expect(response.status).toBe(302);
    const saved = await Part.findById(part.id).lean();
    expect(saved?.volumeBreaks?.map((item) => item.minQuantity)).toEqual([500, 1000]);
    const customer = await createUser({});
    const page = await settle(
      partLoader(
        loaderArgs(getRequest(`/parts/${part.id}`, { cookie: await sessionCookieHeader(customer.id) }), {
          id: part.id,
        }),
      ),
    );
    const data = (await page.json()) as { prices: { minQuantity: number; unitPriceCents: number }[] };
    expect(data.prices).toEqual([
      expect.objectContaining({ minQuantity: 100, unitPriceCents: 2500 }),
      expect.objectContaining({ minQuantity: 500, unitPriceCents: 2375 }),
      expect.objectContaining({ minQuantity: 1000, unitPriceCents: 2000 }),
    ]);
  });
});

/** Edit Product's form of a part as it stands, with `fields` over it (prices.EUR.price, …). */
function editForm(part: { id: string; name: string; description: string; img: string; partNumber: string }) {
  return (fields: Record<string, string>, cookie: string) =>
    settle(
      editProduct(
        actionArgs(
          postRequest(
            `/dashboard/manageProducts/${part.id}/edit`,
            {
              name: part.name,
              description: part.description,
              img: part.img,
              price: "25",
              minOrderQuantity: "100",
              partNumber: part.partNumber,
              category: "brakes",
              brand: "PartsWorks",
              ...fields,
            },
            { cookie },
          ),
          { id: part.id },
        ),
      ),
    );
}

describe("price lists in other currencies on Add and Edit Product", () => {
  test("an admin sets a euro list with breaks: saved, audited, shown back; emptied, the part is no longer sold in euros", async () => {
    const staff = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(staff.id);
    const part = await createPart({ priceCents: 2500 });
    const save = editForm(part);
    const saved = await save({ "prices.EUR.price": "23", "prices.EUR.volumeBreaks": "500:-5%;1000:€20.50" }, cookie);
    expect(saved.status).toBe(302);
    const stored = await Part.findById(part.id).lean();
    expect(stored?.prices).toMatchObject([
      {
        currency: "EUR",
        priceCents: 2300,
        volumeBreaks: [
          { minQuantity: 500, percentOff: 5, unitPriceCents: null },
          { minQuantity: 1000, percentOff: null, unitPriceCents: 2050 },
        ],
      },
    ]);
    // The dollar list is untouched, and pounds are not sold.
    expect(stored).toMatchObject({ priceCents: 2500 });
    expect(stored?.prices?.some((list) => list.currency === "GBP")).toBe(false);
    expect(await Audit.findOne({ targetId: part.id, action: "part.edit" }).lean()).toMatchObject({
      actorEmail: staff.email,
      before: { pricesEUR: null },
      after: { pricesEUR: "€23.00, breaks 500:-5%;1000:20.50" },
    });
    const page = await settle(
      editProductPage(loaderArgs(getRequest(`/dashboard/manageProducts/${part.id}/edit`, { cookie }), { id: part.id })),
    );
    const { part: shown } = (await page.json()) as { part: { prices: { currency: string; priceCents: number }[] } };
    expect(shown.prices).toMatchObject([{ currency: "EUR", priceCents: 2300 }]);

    const cleared = await save({ "prices.EUR.price": "", "prices.EUR.volumeBreaks": "" }, cookie);
    expect(cleared.status).toBe(302);
    expect((await Part.findById(part.id).lean())?.prices ?? []).toEqual([]);
  });

  test.each([
    [{ "prices.EUR.price": "22.50" }, "prices.EUR.price", "whole number of euros"],
    [{ "prices.EUR.price": "0" }, "prices.EUR.price", "at least €1"],
    [{ "prices.EUR.price": "abc" }, "prices.EUR.price", "whole number of euros"],
    [{ "prices.GBP.price": "2000000" }, "prices.GBP.price", "at most £1,000,000"],
    [{ "prices.EUR.price": "20", "prices.EUR.volumeBreaks": "500:€21.00" }, "prices.EUR.volumeBreaks", "above the list price (€20.00)"],
    [{ "prices.EUR.price": "20", "prices.EUR.volumeBreaks": "500:$19.00" }, "prices.EUR.volumeBreaks", "nor a price (€12.50)"],
    [{ "prices.GBP.price": "20", "prices.GBP.volumeBreaks": "1000:-10%;500:-5%" }, "prices.GBP.volumeBreaks", "smallest quantity up"],
    [{ "prices.EUR.volumeBreaks": "500:-5%" }, "prices.EUR.volumeBreaks", "need a price in euros"],
  ])("%o: a message at %s, 400, nothing written", async (fields, field, message) => {
    const cookie = await admin();
    const part = await createPart({ priceCents: 2500 });
    await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency: "GBP", priceCents: 2100 }] } });
    const before = await Part.findById(part.id).lean();
    const auditsBefore = await Audit.countDocuments({ targetId: part.id });
    const response = await editForm(part)(fields, cookie);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Record<string, string[]> };
    expect(body.error[field]?.join(" ")).toContain(message);
    expect(await Part.findById(part.id).lean()).toEqual(before);
    expect(await Audit.countDocuments({ targetId: part.id })).toBe(auditsBefore);
  }); // prettier-ignore

  test("a list kept with cents may stay as it is; a new price with cents says what to type", async () => {
    const cookie = await admin();
    const part = await createPart({ priceCents: 2500 });
    await Part.updateOne({ _id: part.id }, { $set: { prices: [{ currency: "EUR", priceCents: 2275 }] } });
    const save = editForm(part);
    // The form's own word for the stored price is not taken: the server reads it.
    const forged = await save({ "prices.EUR.price": "19.99", "prices.EUR.currentPriceCents": "1999" }, cookie);
    expect(forged.status).toBe(400);
    expect(JSON.stringify(await forged.json())).toContain("type 19 or 20, or leave 22.75 as it is");
    const kept = await save({ "prices.EUR.price": "22.75", "prices.GBP.price": "19" }, cookie);
    expect(kept.status).toBe(302);
    expect((await Part.findById(part.id).lean())?.prices).toMatchObject([
      { currency: "EUR", priceCents: 2275 },
      { currency: "GBP", priceCents: 1900 },
    ]);
  });

  test("Add Product takes a pound list with breaks; the new part is sold in dollars and pounds only", async () => {
    const cookie = await admin();
    const partNumber = `GB-${Date.now().toString(36).toUpperCase()}`;
    const response = await settle(
      addProduct(
        actionArgs(
          postRequest(
            "/dashboard/addProduct",
            {
              name: "Pound Pad",
              description: "Sold in pounds too.",
              img: "/images/parts/pw-1001.svg",
              quantity: "500",
              price: "30",
              minOrderQuantity: "100",
              partNumber,
              category: "brakes",
              "prices.GBP.price": "24",
              "prices.GBP.volumeBreaks": "500:£22",
              "prices.EUR.price": "",
            },
            { cookie },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    const saved = await Part.findOne({ partNumber }).lean();
    expect(saved?.prices).toMatchObject([
      { currency: "GBP", priceCents: 2400, volumeBreaks: [{ minQuantity: 500, unitPriceCents: 2200 }] },
    ]);
    expect(saved?.prices).toHaveLength(1);
  });
});

describe("price groups", () => {
  test.each([
    [{ percentOff: "120" }, "percentOff", "zero or negative"],
    [{ percentOff: "-5" }, "percentOff", "cannot be negative"],
    [{ rules: "category brakes -100%" }, "rules", "zero or negative"],
    [{ rules: "part PW-1001 -3.00" }, "rules", "cannot be negative"],
    [{ rules: "category nonsense -5%" }, "rules", "no category"],
  ])("%o: a message at %s, 400, nothing written", async (fields, field, message) => {
    const cookie = await admin();
    const count = await PriceGroup.countDocuments();
    const response = await settle(
      priceGroupsAction(
        actionArgs(
          postRequest("/dashboard/priceGroups", { intent: "save", name: "Broken group", ...fields }, { cookie }),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const body = await errorsOf(response);
    expect(body).toContain(field);
    expect(body).toContain(message);
    expect(await PriceGroup.countDocuments()).toBe(count);
  });

  test.each([
    ["part PW-1003 XYZ 11.25", "“XYZ” is not a currency"],
    ["part PW-1003 EUR £11.25", "EUR and £ name two currencies"],
    ["part PW-1003 = €11.25\npart pw-1003 EUR 12", "Line 2: PW-1003 already has a net price in euros (line 1)"],
    ["part PW-1003 = €0", "above zero"],
    ["part PW-1003 = €11.255", "such as 11.25, €11.25 or EUR 11.25"],
  ])("%j: refused at the rules, nothing written", async (rules, message) => {
    const cookie = await admin();
    const count = await PriceGroup.countDocuments();
    const response = await settle(
      priceGroupsAction(
        actionArgs(postRequest("/dashboard/priceGroups", { intent: "save", name: "Bad currency", rules }, { cookie })),
      ),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Record<string, string[]> };
    expect(body.error.rules?.join(" ")).toContain(message);
    expect(await PriceGroup.countDocuments()).toBe(count);
  });

  test("a net price names its currency (symbol or code; none is dollars) and is shown back the same way", async () => {
    const cookie = await admin();
    const name = `Currencies ${Date.now()}`;
    const rules = ["part PW-1003 = €11.25", "part PW-1003 11.50", "part pw-1004 GBP 9", "part PW-1005 = $7.05"].join(
      "\n",
    );
    const saved = await settle(
      priceGroupsAction(actionArgs(postRequest("/dashboard/priceGroups", { intent: "save", name, rules }, { cookie }))),
    );
    expect(saved.status).toBe(302);
    const group = await PriceGroup.findOne({ name }).lean();
    expect(group?.rules).toMatchObject([
      { kind: "part", value: "PW-1003", unitPriceCents: 1125, currency: "EUR" },
      { kind: "part", value: "PW-1003", unitPriceCents: 1150, currency: "USD" },
      { kind: "part", value: "PW-1004", unitPriceCents: 900, currency: "GBP" },
      { kind: "part", value: "PW-1005", unitPriceCents: 705, currency: "USD" },
    ]);
    const page = await settle(
      priceGroupsPage(loaderArgs(getRequest(`/dashboard/priceGroups?edit=${group!._id.toString()}`, { cookie }))),
    );
    const { editing } = (await page.json()) as { editing: { rulesText: string } };
    const shown = "part PW-1003 = €11.25\npart PW-1003 = $11.50\npart PW-1004 = £9.00\npart PW-1005 = $7.05";
    expect(editing.rulesText).toBe(shown);
    // What is shown reads back to the same rules: saving the form unchanged changes nothing.
    const again = await settle(
      priceGroupsAction(
        actionArgs(
          postRequest(
            "/dashboard/priceGroups",
            { intent: "save", id: group!._id.toString(), name, rules: shown },
            { cookie },
          ),
        ),
      ),
    );
    expect(again.status).toBe(302);
    expect((await PriceGroup.findOne({ name }).lean())?.rules).toEqual(group?.rules);
  });

  test("a customer's record assigns a group; the part page then shows their price with the list price", async () => {
    const cookie = await admin();
    const created = await settle(
      priceGroupsAction(
        actionArgs(
          postRequest(
            "/dashboard/priceGroups",
            { intent: "save", name: `Fleet ${Date.now()}`, rules: "category brakes -8%" },
            { cookie },
          ),
        ),
      ),
    );
    expect(created.status).toBe(302);
    const group = await PriceGroup.findOne().sort({ createdAt: -1 }).lean();
    const customer = await createUser({});
    const assigned = await settle(
      customerAction(
        actionArgs(
          postRequest(
            `/dashboard/allUsers/${customer.id}`,
            { intent: "pricing", priceGroupId: group!._id.toString(), country: "US", state: "MI" },
            { cookie },
          ),
          { id: customer.id },
        ),
      ),
    );
    expect(assigned.status).toBe(302);
    const part = await createPart({ priceCents: 1000, category: "brakes" });
    const page = await settle(
      partLoader(
        loaderArgs(getRequest(`/parts/${part.id}`, { cookie: await sessionCookieHeader(customer.id) }), {
          id: part.id,
        }),
      ),
    );
    const data = (await page.json()) as { prices: { unitPriceCents: number; listPriceCents: number }[] };
    expect(data.prices[0]).toMatchObject({ unitPriceCents: 920, listPriceCents: 1000 });
  });

  test("saving a group (new, then changed), a customer's pricing and deleting a group each write their audit entry", async () => {
    const staff = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(staff.id);
    const post = (fields: Record<string, string>) =>
      settle(priceGroupsAction(actionArgs(postRequest("/dashboard/priceGroups", fields, { cookie }))));
    const name = `Audited ${Date.now()}`;
    expect((await post({ intent: "save", name, percentOff: "5" })).status).toBe(302);
    const id = (await PriceGroup.findOne({ name }).lean())!._id.toString();
    expect((await post({ intent: "save", id, name, percentOff: "7", rules: "category brakes -8%" })).status).toBe(302);
    const saves = await Audit.find({ targetId: id }).sort({ at: 1 }).lean();
    expect(saves).toMatchObject([
      {
        action: "price-group.save",
        actorEmail: staff.email,
        targetType: "price-group",
        targetLabel: name,
        before: null,
        after: { percentOff: 5, rules: "", stacksWithBreaks: false },
      },
      {
        action: "price-group.save",
        before: { percentOff: 5, rules: "", stacksWithBreaks: false },
        after: { percentOff: 7, rules: "category brakes -8%", stacksWithBreaks: false },
      },
    ]);

    const customer = await createUser({});
    const pricing = await settle(
      customerAction(
        actionArgs(
          postRequest(
            `/dashboard/allUsers/${customer.id}`,
            { intent: "pricing", priceGroupId: id, country: "US", state: "MI" },
            { cookie },
          ),
          { id: customer.id },
        ),
      ),
    );
    expect(pricing.status).toBe(302);
    expect(await Audit.find({ targetId: customer.id }).lean()).toMatchObject([
      {
        action: "user.set-pricing",
        actorEmail: staff.email,
        targetType: "user",
        targetLabel: customer.email,
        before: { priceGroupId: null, tax: "not recorded" },
        after: { priceGroupId: id, tax: "US MI" },
      },
    ]);

    const spare = `Spare ${Date.now()}`;
    expect((await post({ intent: "save", name: spare })).status).toBe(302);
    const spareId = (await PriceGroup.findOne({ name: spare }).lean())!._id.toString();
    expect((await post({ intent: "delete", id: spareId })).status).toBe(302);
    expect(await Audit.findOne({ targetId: spareId, action: "price-group.delete" }).lean()).toMatchObject({
      actorEmail: staff.email,
      targetType: "price-group",
      targetLabel: spare,
      before: null,
      after: null,
    });
  });
});

describe("a customer's tax details", () => {
  test.each([
    [{ country: "DE", vatNumber: "DE12" }, "vatNumber", "not a valid Germany VAT"],
    [{ country: "US" }, "state", "US state"],
    [{ country: "DE", exemptionCertificate: "X-1" }, "exemptionCertificate", "for US customers"],
    [{ country: "CA", vatNumber: "123456789" }, "vatNumber", "for EU customers"],
    [{ country: "XX" }, "country", "Choose a country"],
    [{ state: "MI" }, "country", "Choose the country these tax details are for"],
    [{ country: "US", state: "ZZ" }, "state", "US state"],
    [{ country: "US", state: "MI", exemptionCertificate: "x".repeat(61) }, "exemptionCertificate", "At most 60"],
  ])("%o: a message at %s, 400, the account unchanged", async (fields, field, message) => {
    const cookie = await admin();
    const customer = await createUser({});
    const before = await User.findById(customer.id).lean();
    // The tax details live on the company's account: it must be unchanged too.
    const companyBefore = await Company.findById(before!.companyId).lean();
    const response = await settle(
      customerAction(
        actionArgs(postRequest(`/dashboard/allUsers/${customer.id}`, { intent: "pricing", ...fields }, { cookie }), {
          id: customer.id,
        }),
      ),
    );
    expect(response.status).toBe(400);
    const body = await errorsOf(response);
    expect(body).toContain(field);
    expect(body).toContain(message);
    expect(await User.findById(customer.id).lean()).toEqual(before);
    expect(await Company.findById(before!.companyId).lean()).toEqual(companyBefore);
  });

  test("a tax rate over 100 % is refused by the rate tables' check", async () => {
    const { rateTableSchema } = await import("~/domain/tax");
    const result = rateTableSchema.safeParse({ MI: 6, OH: 140 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/at most 100/);
  });
});
