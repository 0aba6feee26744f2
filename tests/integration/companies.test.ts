/**
 * The company is the customer: a company of one for every sign-up, the migration, orders that record
 * it, and the currency it buys in (staff set it on its record; an owner chooses it before the first order).
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Company } from "~/models/company.server";
import { Order } from "~/orders/model/schema.server";
import { User, getUserById } from "~/models/user.server";
import { action as signupAction } from "~/routes/signup";
import { placeCustomerOrder } from "~/orders/service.server";
import { action as recordAction, loader as recordLoader } from "~/routes/dashboard.companies_.$id/route";
import { loader as companiesLoader } from "~/routes/dashboard.companies";
import { action as pageAction, loader as pageLoader } from "~/routes/dashboard.company";
import * as companiesMigration from "../../scripts/migrations/20261125180000-companies.js";
import { createPart, createUser, sessionCookieHeader, updateCompanyOf } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { expectFieldError, toastOf } from "./ordering.helpers";
import { DETROIT } from "../fixtures/addresses";

const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@example.com`;

describe("a company of one", () => {
  test("a sign-up gets a company of its own, as its owner", async () => {
    const email = uniqueEmail("solo");
    const response = await settle(
      signupAction({
        request: postRequest("/signup", { name: "Sol Owner", email, password: "secret-pass-9" }),
        params: {},
        context: testContext({ clientIp: `203.0.113.${Math.floor(Math.random() * 250)}` }),
      }),
    );
    expect(response.status).toBe(302);
    const user = await User.findOne({ email }).lean();
    expect(user?.companyRole).toBe("owner");
    const company = await Company.findById(user?.companyId).lean();
    expect(company?.ownerCount).toBe(1);
    expect(await User.countDocuments({ companyId: user?.companyId })).toBe(1);
  });

  test("two people never share a company by accident, and the customer's terms are the company's", async () => {
    const [one, two] = await Promise.all([createUser(), createUser()]);
    expect(one.companyId).not.toBe(two.companyId);
    await updateCompanyOf(one.id, { $set: { account: { termsDays: 30, creditLimitCents: 90_000 } } });
    expect((await getUserById(one.id))?.account).toEqual({ termsDays: 30, creditLimitCents: 90_000 });
    expect((await getUserById(two.id))?.account).toEqual({ termsDays: 0, creditLimitCents: 0 });
  });

  test("an order records its company and who placed it", async () => {
    const user = await createUser();
    const part = await createPart();
    const placed = await placeCustomerOrder({
      user: { id: user.id },
      lines: [{ partId: part.id, quantity: 100 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
    });
    expect(placed.ok).toBe(true);
    const order = await Order.findById(placed.ok ? placed.order.id : null).lean();
    expect(String(order?.companyId)).toBe(user.companyId);
    expect(String(order?.placedBy)).toBe(user.id);
  });
});

describe("the companies migration", () => {
  test("gives each user a company with their details moved, backfills orders, and a second run changes nothing", async () => {
    const db = mongoose.connection.db!;
    const userId = new mongoose.Types.ObjectId();
    const addressId = new mongoose.Types.ObjectId();
    // The shape before companies: the customer's details on the user, orders without a company.
    await db.collection("users").insertOne({
      _id: userId,
      email: uniqueEmail("legacy"),
      name: "Lee Legacy",
      role: "customer",
      companyName: "Legacy Motors",
      taxId: "DE123456789",
      country: "DE",
      billingAddress: "Altstrasse 1",
      addresses: [{ _id: addressId, label: "Yard", address: "Yard 2", key: "yard 2" }],
      defaultAddressId: addressId,
      unpaidOrdersCap: 7,
      account: { termsDays: 30, creditLimitCents: 250_000 },
      createdAt: new Date(),
    });
    const part = await createPart();
    const orderId = new mongoose.Types.ObjectId();
    await db.collection("orders").insertOne({
      _id: orderId,
      lines: [
        {
          partId: new mongoose.Types.ObjectId(part.id),
          productName: part.name,
          unitPriceCents: 500,
          quantity: 100,
          lineTotalCents: 50_000,
        },
      ],
      totalCents: 50_000,
      phone: "+1",
      address: "Yard 2",
      userId,
      userEmail: "legacy@example.com",
      userName: "Lee Legacy",
      status: "paid",
      createdAt: new Date(),
    });

    await companiesMigration.up(db);
    const user = await User.findById(userId).lean();
    expect(user?.companyRole).toBe("owner");
    const raw = await db.collection("users").findOne({ _id: userId });
    expect(raw).not.toHaveProperty("companyName");
    expect(raw).not.toHaveProperty("account");
    const company = await Company.findById(user?.companyId).lean();
    expect(company).toMatchObject({
      companyName: "Legacy Motors",
      nameKey: "legacy motors",
      taxId: "DE123456789",
      billingAddress: "Altstrasse 1",
      unpaidOrdersCap: 7,
      account: { termsDays: 30, creditLimitCents: 250_000 },
      ownerCount: 1,
    });
    expect(company?.addresses?.map((entry) => entry.address)).toEqual(["Yard 2"]);
    const view = await getUserById(String(userId));
    expect(view?.addresses).toMatchObject([
      { id: String(addressId), label: "Yard", address: "Yard 2", needsConfirmation: true, isDefault: true },
    ]);
    const order = await Order.findById(orderId).lean();
    expect(String(order?.companyId)).toBe(String(user?.companyId));
    expect(String(order?.placedBy)).toBe(String(userId));

    const companies = await Company.countDocuments();
    await companiesMigration.up(db);
    expect(await Company.countDocuments()).toBe(companies);
    expect(String((await User.findById(userId).lean())?.companyId)).toBe(String(user?.companyId));
  });
});

describe("the currency a company buys in", () => {
  /** A company with a name, terms and a credit limit, its owner, and a signed-in admin. */
  async function tradeCompany() {
    const owner = await createUser({ name: "Cora Currency" });
    const name = `Currency Fleet ${owner.id.slice(-6)}`;
    await updateCompanyOf(owner.id, {
      $set: { companyName: name, nameKey: name.toLowerCase(), account: { termsDays: 30, creditLimitCents: 500_000 } },
    });
    const admin = await createUser({ role: "admin" });
    return { owner, name, adminCookie: await sessionCookieHeader(admin.id) };
  }
  const currencyOf = async (companyId: string) => (await Company.findById(companyId).lean())?.account?.currency;
  const audited = (companyId: string) => Audit.countDocuments({ action: "company.set-currency", targetId: companyId });

  test("staff set it on the company's record, audited; a currency the shop does not keep is refused at the field, nothing written", async () => {
    const { owner, name, adminCookie } = await tradeCompany();
    const path = `/dashboard/companies/${owner.companyId}`;
    const post = (fields: Record<string, string>, cookie = adminCookie) =>
      settle(recordAction(actionArgs(postRequest(path, fields, { cookie }), { id: owner.companyId })));

    for (const bad of ["JPY", "eur", ""]) {
      await expectFieldError(
        await post({ intent: "currency", currency: bad }),
        "currency",
        "Choose a currency from the list",
      );
    }
    expect(await currencyOf(owner.companyId)).toBeUndefined();
    expect(await audited(owner.companyId)).toBe(0);
    // A customer (the company's own owner) cannot reach it.
    const refused = await post({ intent: "currency", currency: "EUR" }, await sessionCookieHeader(owner.id));
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toMatch(/^\/login/);
    expect(await currencyOf(owner.companyId)).toBeUndefined();

    const saved = await post({ intent: "currency", currency: "EUR" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(path);
    expect((await toastOf(saved))?.message).toBe(`${name} buys in euros (EUR)`);
    expect(await currencyOf(owner.companyId)).toBe("EUR");
    const entry = await Audit.findOne({ action: "company.set-currency", targetId: owner.companyId }).lean();
    expect(entry).toMatchObject({ before: { currency: "USD" }, after: { currency: "EUR" } });

    // Its credit limit is in euros now: typed in whole euros, said in euros.
    const record = await (
      await settle(recordLoader(loaderArgs(getRequest(path, { cookie: adminCookie }), { id: owner.companyId })))
    ).json();
    expect(record.company).toMatchObject({ currency: "EUR", creditLimitCents: 500_000 });
    await expectFieldError(
      await post({ intent: "terms", termsDays: "30", creditLimit: "12.5" }),
      "creditLimit",
      "Enter the limit in whole euros",
    );
    const terms = await post({ intent: "terms", termsDays: "30", creditLimit: "2500" });
    expect((await toastOf(terms))?.message).toBe(`${name}: Net 30 days, credit limit €2,500.00`);
    const listPath = `/dashboard/companies?q=${encodeURIComponent(name)}`;
    const list = await (
      await settle(companiesLoader(loaderArgs(getRequest(listPath, { cookie: adminCookie }))))
    ).json();
    expect(list.companies[0]).toMatchObject({ currency: "EUR", creditLimitCents: 250_000 });
  });

  test("an owner chooses it before the company's first order; after it, a change is refused and nothing written", async () => {
    const { owner } = await tradeCompany();
    const cookie = await sessionCookieHeader(owner.id);
    const load = async () =>
      (await settle(pageLoader(loaderArgs(getRequest("/dashboard/company", { cookie }))))).json();
    const post = (fields: Record<string, string>, as = cookie) =>
      settle(pageAction(actionArgs(postRequest("/dashboard/company", fields, { cookie: as }))));

    expect((await load()).company).toMatchObject({ currency: "USD", mayChooseCurrency: true });
    await expectFieldError(
      await post({ intent: "currency", currency: "XYZ" }),
      "currency",
      "Choose a currency from the list",
    );
    expect(await currencyOf(owner.companyId)).toBeUndefined();
    // A buyer of the company may not choose it.
    const buyer = await createUser({ company: { id: owner.companyId, role: "buyer" } });
    const byBuyer = await post({ intent: "currency", currency: "GBP" }, await sessionCookieHeader(buyer.id));
    expect(byBuyer.status).toBe(403);
    expect(await currencyOf(owner.companyId)).toBeUndefined();

    const chosen = await post({ intent: "currency", currency: "GBP" });
    expect(chosen.status).toBe(302);
    expect((await toastOf(chosen))?.message).toBe("Your company buys in pounds sterling (GBP)");
    expect(await currencyOf(owner.companyId)).toBe("GBP");
    expect(await audited(owner.companyId)).toBe(1);

    // The first order: from then on the choice is shown, not offered, and a posted change is refused.
    await createOrder({ user: owner, status: "unpaid" });
    expect((await load()).company).toMatchObject({ currency: "GBP", mayChooseCurrency: false });
    const late = await post({ intent: "currency", currency: "EUR" });
    expect(late.status).toBe(409);
    expect(JSON.stringify(await late.json())).toContain("ask us to change it");
    expect(await currencyOf(owner.companyId)).toBe("GBP");
    expect(await audited(owner.companyId)).toBe(1);
  });
});
