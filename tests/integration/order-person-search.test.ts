/**
 * Staff find an order by the person: Manage Orders' search by the first, last or whole name of the
 * member who placed it (and the company), in any case and without accents, for orders placed
 * through the real checkout; and the migration that gives orders placed before it the same keys.
 */
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { loader as ordersLoader } from "~/routes/dashboard.manageOrders";
import { placeCustomerOrder } from "~/orders/service.server";
import * as personSearch from "../../scripts/migrations/20261127120000-order-person-search.js";
import { createPart, createUser, updateCompanyOf } from "../setup/factories";
import { getRequest, loaderArgs, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";
import { DETROIT } from "../fixtures/addresses";

async function search(q: string, cookie: string) {
  const response = await settle(
    ordersLoader(loaderArgs(getRequest(`/dashboard/manageOrders?q=${encodeURIComponent(q)}`, { cookie }))),
  );
  expect(response.status, q).toBe(200);
  const body = (await response.json()) as { orders: { id: string }[] };
  return body.orders.map((order) => order.id).sort();
}

async function place(user: { id: string }) {
  const part = await createPart();
  const placed = await placeCustomerOrder({
    user: { id: user.id },
    lines: [{ partId: part.id, quantity: 100 }],
    phone: "+1 555 0100",
    delivery: DETROIT,
  });
  if (!placed.ok) throw new Error("The order was not placed");
  return placed.order.id;
}

describe("Manage Orders finds orders by person", () => {
  test("first, last or whole name of the member who placed it, and the company, in any case and without accents", async () => {
    const { cookie } = await signedIn("admin");
    const tag = randomUUID().slice(0, 6);
    const owner = await createUser({ name: `Zoë Müller-Brandt${tag}` });
    await updateCompanyOf(owner.id, { $set: { companyName: `Société Garage ${tag}` } });
    const member = await createUser({ name: `José Álvarez${tag}`, company: { id: owner.companyId!, role: "buyer" } });
    const stranger = await createUser({ name: `Josephine Alvar${tag}x` });
    const [ownerOrder, memberOrder, strangerOrder] = [await place(owner), await place(member), await place(stranger)];

    expect(await search(`alvarez${tag}`, cookie)).toEqual([memberOrder]);
    expect(await search(`ÁLVAREZ${tag}`, cookie)).toEqual([memberOrder]);
    expect(await search(`josé álvarez${tag}`, cookie)).toEqual([memberOrder]);
    expect(await search(`brandt${tag}`, cookie)).toEqual([ownerOrder]);
    expect(await search(`zoe muller`, cookie)).toContain(ownerOrder);
    expect(await search(`MULLER-BRANDT${tag}`, cookie)).toEqual([ownerOrder]);
    expect(await search(`societe garage ${tag}`, cookie)).toEqual([ownerOrder, memberOrder].sort());
    expect(await search(`alvar${tag}x`, cookie)).toEqual([strangerOrder]);
    // A name is text, never a pattern; a name nobody has finds nothing.
    expect(await search(`álv.*${tag}`, cookie)).toEqual([]);
    expect(await search(`nobody${tag}`, cookie)).toEqual([]);
  });
});

describe("the person-search migration", () => {
  test("gives orders placed before it their placer's name keys, folded; a second run changes nothing", async () => {
    const tag = randomUUID().slice(0, 6);
    const _id = new mongoose.Types.ObjectId();
    // An order as stored before: PO number and company name only, accents kept.
    await Order.collection.insertOne({
      _id,
      userName: `Renée O'Brien ${tag}`,
      poNumber: `PO-${tag}`,
      companyName: "Café Parts",
      searchKeys: [`po-${tag}`, "café parts"],
      status: "paid",
      createdAt: new Date(),
    });
    await personSearch.up(mongoose.connection.db!);
    const after = await Order.collection.findOne({ _id });
    expect(after?.searchKeys).toEqual(
      expect.arrayContaining([`po-${tag}`, "café parts", "cafe parts", `renee o'brien ${tag}`, "renee", "o'brien"]),
    );
    await personSearch.up(mongoose.connection.db!);
    expect((await Order.collection.findOne({ _id }))?.searchKeys).toEqual(after?.searchKeys);
  });
});
