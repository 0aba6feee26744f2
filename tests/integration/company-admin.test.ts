/** The shop's side of companies: the companies list and record, All Users and Manage Orders by company. */
import { describe, expect, test } from "vitest";
import { Company } from "~/models/company.server";
import { loader as allUsersLoader } from "~/routes/dashboard.allUsers";
import { loader as companiesLoader } from "~/routes/dashboard.companies";
import { loader as companyLoader } from "~/routes/dashboard.companies_.$id/route";
import { loader as manageOrdersLoader } from "~/routes/dashboard.manageOrders";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";

async function companyWithOrders() {
  const owner = await createUser({ name: "Olga Owner" });
  const name = `Fleet ${owner.id.slice(-6)}`;
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName: name, nameKey: name.toLowerCase(), account: { termsDays: 30, creditLimitCents: 500_000 } } },
  );
  const buyer = await createUser({
    name: "Ben Buyer",
    company: { id: owner.companyId, role: "buyer" },
    spendingLimitCents: 20_000,
  });
  const order = await createOrder({ user: buyer, status: "paid" });
  return { owner, buyer, order, name };
}

const load = (loader: (args: never) => unknown, path: string, cookie: string, params: Record<string, string> = {}) =>
  settle((loader as (args: unknown) => Promise<unknown>)(loaderArgs(getRequest(path, { cookie }), params)));

describe("companies for admins", () => {
  test("the list finds a company by its name's start; its record shows members, roles, limits, terms and orders", async () => {
    const { owner, buyer, order, name } = await companyWithOrders();
    const other = await companyWithOrders();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const list = await (
      await load(companiesLoader, `/dashboard/companies?q=${encodeURIComponent(name)}`, cookie)
    ).json();
    expect(list.companies).toEqual([expect.objectContaining({ id: owner.companyId, name, members: 2 })]);

    const record = await (
      await load(companyLoader, `/dashboard/companies/${owner.companyId}`, cookie, { id: owner.companyId })
    ).json();
    expect(record.company).toMatchObject({ name, terms: "Net 30 days", creditLimitCents: 500_000 });
    expect(record.members.map((member: { email: string; role: string }) => [member.email, member.role])).toEqual([
      [owner.email, "owner"],
      [buyer.email, "buyer"],
    ]);
    expect(record.members[1].spendingLimitCents).toBe(20_000);
    expect(record.orders.map((entry: { id: string }) => entry.id)).toEqual([order.id]);
    expect(record.orders[0].placedBy).toBe("Ben Buyer");
    expect(record.company.billingToConfirm).toBe(false);
    expect((await load(companyLoader, "/dashboard/companies/nope", cookie, { id: "nope" })).status).toBe(404);

    // A billing address kept as text from before addresses had fields is flagged until an owner confirms it.
    await Company.updateOne(
      { _id: owner.companyId },
      { $set: { billingAddress: "Fleet Ltd\n1 Dock Road\nLiverpool L3 4AA", billingNeedsConfirmation: true } },
    );
    const flagged = await (
      await load(companyLoader, `/dashboard/companies/${owner.companyId}`, cookie, { id: owner.companyId })
    ).json();
    expect(flagged.company).toMatchObject({
      billingAddress: "Fleet Ltd\n1 Dock Road\nLiverpool L3 4AA",
      billingToConfirm: true,
    });

    // All Users and Manage Orders filtered by the company.
    const users = await (await load(allUsersLoader, `/dashboard/allUsers?company=${owner.companyId}`, cookie)).json();
    expect(users.users.map((user: { email: string }) => user.email).sort()).toEqual([owner.email, buyer.email].sort());
    expect(users.users[0]).toHaveProperty("companyName", name);
    const orders = await (
      await load(manageOrdersLoader, `/dashboard/manageOrders?company=${owner.companyId}`, cookie)
    ).json();
    expect(orders.orders.map((entry: { id: string }) => entry.id)).toEqual([order.id]);
    expect(orders.orders.map((entry: { id: string }) => entry.id)).not.toContain(other.order.id);
  });

  test("a customer who opens the companies screens is signed out and sent to sign in", async () => {
    const { owner } = await companyWithOrders();
    const cookie = await sessionCookieHeader(owner.id);
    for (const [loader, path, params] of [
      [companiesLoader, "/dashboard/companies", {}],
      [companyLoader, `/dashboard/companies/${owner.companyId}`, { id: owner.companyId }],
    ] as const) {
      const response = await load(loader, path, cookie, params);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/login/);
    }
  });
});
