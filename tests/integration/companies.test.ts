/** The company is the customer: a company of one for every sign-up, the migration, orders that record it. */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { Company } from "~/models/company.server";
import { Order } from "~/orders/model/schema.server";
import { User, getUserById } from "~/models/user.server";
import { action as signupAction } from "~/routes/signup";
import { placeCustomerOrder } from "~/orders/service.server";
import * as companiesMigration from "../../scripts/migrations/20261125180000-companies.js";
import { createPart, createUser, updateCompanyOf } from "../setup/factories";
import { postRequest, settle, testContext } from "../setup/requests";
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
