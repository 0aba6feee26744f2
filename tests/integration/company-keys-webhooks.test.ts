/**
 * API keys and webhooks belong to the company: a buyer's order reaches the endpoint an owner added,
 * the owner sees and revokes a buyer's key, a key acts as its maker within their role now (removed,
 * moved to accounts: it stops), only owners manage endpoints, and one company reaches none of
 * another's keys or endpoints. The migration gives existing keys and endpoints their maker's company.
 */
import mongoose from "mongoose";
import { describe, expect, test } from "vitest";
import { ApiKey } from "~/models/api-key.server";
import { Audit } from "~/models/audit.server";
import { Company } from "~/models/company.server";
import { WebhookDelivery, WebhookEndpoint } from "~/models/webhook.server";
import { action as keysAction, loader as keysLoader } from "~/routes/dashboard.apiKeys/route";
import { action as companyAction } from "~/routes/dashboard.company";
import { action as webhooksAction, loader as webhooksLoader } from "~/routes/dashboard.webhooks/route";
import { placeCustomerOrder } from "~/orders/service.server";
import * as keysMigration from "../../scripts/migrations/20261125200000-company-keys-webhooks.js";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DETROIT } from "../fixtures/addresses";

const SHOP = process.env.SHOP_URL!;

async function company(name = "Works") {
  const owner = await createUser({ name: `${name} Owner` });
  await Company.updateOne(
    { _id: owner.companyId },
    {
      $set: { companyName: `${name} ${owner.id.slice(-5)}`, account: { termsDays: 30, creditLimitCents: 10_000_000 } },
    },
  );
  const buyer = await createUser({ name: `${name} Buyer`, company: { id: owner.companyId, role: "buyer" } });
  const accounts = await createUser({ name: `${name} Accounts`, company: { id: owner.companyId, role: "accounts" } });
  const cookies = {
    owner: await sessionCookieHeader(owner.id),
    buyer: await sessionCookieHeader(buyer.id),
    accounts: await sessionCookieHeader(accounts.id),
  };
  return { owner, buyer, accounts, cookies };
}

const postKeys = (fields: Record<string, string | string[]>, cookie: string) =>
  settle(keysAction(actionArgs(postRequest("/dashboard/apiKeys", fields, { cookie }))));
const keysPage = async (cookie: string) =>
  (await (await settle(keysLoader(loaderArgs(getRequest("/dashboard/apiKeys", { cookie }))))).json()) as {
    keys: { id: string; name: string; ownerId: string; createdBy: string; revokedAt: string | null }[];
    scopes: string[];
    companyWide: boolean;
  };
const postHooks = (fields: Record<string, string>, cookie: string) =>
  settle(webhooksAction(actionArgs(postRequest("/dashboard/webhooks", fields, { cookie }))));
const postCompany = (fields: Record<string, string>, cookie: string) =>
  settle(companyAction(actionArgs(postRequest("/dashboard/company", fields, { cookie }))));

const makeKey = (cookie: string, name: string, scopes: string[]) =>
  postKeys({ intent: "create", name, scopes }, cookie);

async function tokenOf(cookie: string, name: string, scopes: string[]) {
  const response = await makeKey(cookie, name, scopes);
  expect(response.status).toBe(200);
  return ((await response.json()) as { created: { token: string } }).created.token;
}

const api = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${SHOP}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body ? { "Content-Type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });

describe("API keys belong to the company", () => {
  test("the owner sees a buyer's key with who made it and revokes it: it stops on the next call; the buyer sees only their own", async () => {
    const { owner, buyer, cookies } = await company();
    const buyersToken = await tokenOf(cookies.buyer, "Counter tablet", ["read", "order"]);
    await tokenOf(cookies.owner, "ERP", ["read"]);
    expect(await ApiKey.countDocuments({ companyId: owner.companyId })).toBe(2);

    const ownersPage = await keysPage(cookies.owner);
    expect(ownersPage.companyWide).toBe(true);
    const buyersKey = ownersPage.keys.find((key) => key.name === "Counter tablet");
    expect(buyersKey).toMatchObject({ ownerId: buyer.id, createdBy: buyer.name });
    const buyersPage = await keysPage(cookies.buyer);
    expect(buyersPage.keys.map((key) => key.name)).toEqual(["Counter tablet"]);

    expect((await api(buyersToken, "/orders")).status).toBe(200);
    const revoked = await postKeys({ intent: "revoke", keyId: buyersKey!.id }, cookies.owner);
    expect(revoked.status).toBe(302);
    expect((await api(buyersToken, "/orders")).status).toBe(401);
    expect(
      await Audit.exists({ action: "api-key.revoke", targetId: buyersKey!.id, actorEmail: owner.email }),
    ).toBeTruthy();
  });

  test("a buyer cannot revoke a colleague's key (404, nothing written)", async () => {
    const { cookies } = await company();
    await tokenOf(cookies.owner, "ERP", ["read"]);
    const ownersKey = (await keysPage(cookies.owner)).keys[0];
    expect((await postKeys({ intent: "revoke", keyId: ownersKey.id }, cookies.buyer)).status).toBe(404);
    expect((await ApiKey.findById(ownersKey.id).lean())?.revokedAt).toBeNull();
  });

  test("company A's owner neither sees nor revokes company B's keys (404, nothing written)", async () => {
    const a = await company("Alpha");
    const b = await company("Beta");
    const bToken = await tokenOf(b.cookies.buyer, "Beta system", ["read"]);
    const bKey = (await keysPage(b.cookies.owner)).keys[0];
    expect((await keysPage(a.cookies.owner)).keys.map((key) => key.id)).not.toContain(bKey.id);
    expect((await postKeys({ intent: "revoke", keyId: bKey.id }, a.cookies.owner)).status).toBe(404);
    expect((await ApiKey.findById(bKey.id).lean())?.revokedAt).toBeNull();
    expect((await api(bToken, "/orders")).status).toBe(200);
  });

  test("an accounts member's key reads but cannot order: the scope is refused at the field, nothing written", async () => {
    const { owner, cookies } = await company();
    expect((await keysPage(cookies.accounts)).scopes).toEqual(["read"]);
    const refused = await makeKey(cookies.accounts, "Books", ["read", "order"]);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/scopes only: read/);
    expect(await ApiKey.countDocuments({ companyId: owner.companyId })).toBe(0);
    const token = await tokenOf(cookies.accounts, "Books", ["read"]);
    expect((await api(token, "/statement")).status).toBe(200);
    const part = await createPart();
    const order = await api(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 100 }], phone: "555-0100", deliveryAddress: DETROIT },
    });
    expect(order.status).toBe(403);
  });

  test("a key never goes beyond its maker's current role: moved to accounts, an order key stops; removed, every key stops", async () => {
    const { owner, buyer, cookies } = await company();
    const orderKey = await tokenOf(cookies.buyer, "Counter", ["read", "order"]);
    const readKey = await tokenOf(cookies.buyer, "Reader", ["read"]);
    expect((await api(orderKey, "/orders")).status).toBe(200);

    expect((await postCompany({ intent: "role", member: buyer.id, role: "accounts" }, cookies.owner)).status).toBe(302);
    expect((await api(orderKey, "/orders")).status).toBe(401);
    expect((await api(readKey, "/orders")).status).toBe(200);

    expect((await postCompany({ intent: "remove", member: buyer.id }, cookies.owner)).status).toBe(302);
    expect((await api(readKey, "/orders")).status).toBe(401);
    expect(await ApiKey.countDocuments({ companyId: owner.companyId, ownerId: buyer.id, revokedAt: null })).toBe(0);
  });
});

describe("webhooks belong to the company", () => {
  test("a buyer's order fires the endpoint the owner added; the buyer cannot add, remove or see endpoints (403)", async () => {
    const { owner, buyer, cookies } = await company();
    const added = await postHooks({ intent: "add", url: "https://erp.example.com/works" }, cookies.owner);
    expect(added.status).toBe(200);
    const endpoint = await WebhookEndpoint.findOne({ companyId: owner.companyId }).lean();
    expect(endpoint).toMatchObject({ scope: "own", url: "https://erp.example.com/works" });
    expect(endpoint?.ownerId.toString()).toBe(owner.id);

    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await placeCustomerOrder({
      user: { id: buyer.id },
      lines: [{ partId: part.id, quantity: 3 }],
      phone: "555-0100",
      delivery: DETROIT,
    });
    if (!placed.ok) throw new Error("not placed");
    const deliveries = await WebhookDelivery.find({ orderId: placed.order.id, endpointId: endpoint!._id }).lean();
    expect(deliveries.map((delivery) => delivery.type)).toEqual(["order.placed"]);
    const body = JSON.parse(deliveries[0].body) as { data: { order: { customer: { id: string } } } };
    expect(body.data.order.customer.id).toBe(buyer.id);

    // The owner's screen lists the delivery; the buyer's shows neither endpoints nor deliveries.
    const ownersPage = await (
      await settle(webhooksLoader(loaderArgs(getRequest("/dashboard/webhooks", { cookie: cookies.owner }))))
    ).json();
    expect(ownersPage.deliveries.map((delivery: { orderNumber: string }) => delivery.orderNumber)).toContain(
      placed.order.number,
    );
    const buyersPage = await (
      await settle(webhooksLoader(loaderArgs(getRequest("/dashboard/webhooks", { cookie: cookies.buyer }))))
    ).json();
    expect(buyersPage).toMatchObject({ manages: false, endpoints: [], deliveries: [] });

    const endpointId = endpoint!._id.toString();
    expect((await postHooks({ intent: "add", url: "https://buyer.example.com/hook" }, cookies.buyer)).status).toBe(403);
    expect((await postHooks({ intent: "remove", endpointId }, cookies.buyer)).status).toBe(403);
    expect((await postHooks({ intent: "redeliver", deliveryId: deliveries[0]._id }, cookies.buyer)).status).toBe(403);
    expect(await WebhookEndpoint.countDocuments({ companyId: owner.companyId })).toBe(1);
  });

  test("another company's owner neither sees nor removes the endpoint (404), and hears nothing of its orders", async () => {
    const a = await company("Alpha");
    const b = await company("Beta");
    await postHooks({ intent: "add", url: "https://alpha.example.com/hook" }, a.cookies.owner);
    await postHooks({ intent: "add", url: "https://beta.example.com/hook" }, b.cookies.owner);
    const alphas = await WebhookEndpoint.findOne({ companyId: a.owner.companyId }).lean();
    const betas = await WebhookEndpoint.findOne({ companyId: b.owner.companyId }).lean();
    const bPage = await (
      await settle(webhooksLoader(loaderArgs(getRequest("/dashboard/webhooks", { cookie: b.cookies.owner }))))
    ).json();
    expect(bPage.endpoints.map((endpoint: { url: string }) => endpoint.url)).toEqual(["https://beta.example.com/hook"]);
    expect((await postHooks({ intent: "remove", endpointId: alphas!._id.toString() }, b.cookies.owner)).status).toBe(
      404,
    );
    expect(await WebhookEndpoint.exists({ _id: alphas!._id })).toBeTruthy();

    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await placeCustomerOrder({
      user: { id: a.buyer.id },
      lines: [{ partId: part.id, quantity: 2 }],
      phone: "555-0100",
      delivery: DETROIT,
    });
    if (!placed.ok) throw new Error("not placed");
    expect(await WebhookDelivery.countDocuments({ orderId: placed.order.id, endpointId: betas!._id })).toBe(0);
    expect(await WebhookDelivery.countDocuments({ orderId: placed.order.id, endpointId: alphas!._id })).toBe(1);
  });
});

describe("the keys and webhooks migration", () => {
  test("gives a customer's keys and endpoints their maker's company, leaves staff ones alone, and a second run changes nothing", async () => {
    const db = mongoose.connection.db!;
    const customer = await createUser({ name: "Lee Legacy" });
    const admin = await createUser({ role: "admin" });
    const now = new Date();
    const key = (ownerId: string, hash: string) => ({
      ownerId: new mongoose.Types.ObjectId(ownerId),
      name: "Old",
      scopes: ["read"],
      hash,
      prefix: "pw_live_old",
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    const suffix = customer.id;
    const { insertedIds: keyIds } = await db
      .collection("api_keys")
      .insertMany([key(customer.id, `c-${suffix}`), key(admin.id, `a-${suffix}`)]);
    const endpoint = (ownerId: string, scope: string) => ({
      ownerId: new mongoose.Types.ObjectId(ownerId),
      scope,
      url: "https://old.example.com/hook",
      secret: "whsec_old",
      createdAt: now,
      updatedAt: now,
    });
    const { insertedIds: endpointIds } = await db
      .collection("webhookendpoints")
      .insertMany([endpoint(customer.id, "own"), endpoint(admin.id, "all")]);

    await keysMigration.up(db);
    const keys = await ApiKey.find({ _id: { $in: Object.values(keyIds) } }).lean();
    const companyOfKey = new Map(keys.map((doc) => [doc.ownerId.toString(), doc.companyId?.toString() ?? null]));
    expect(companyOfKey.get(customer.id)).toBe(customer.companyId);
    expect(companyOfKey.get(admin.id)).toBeNull();
    const hooks = await WebhookEndpoint.find({ _id: { $in: Object.values(endpointIds) } }).lean();
    const companyOfHook = new Map(hooks.map((doc) => [doc.scope, doc.companyId?.toString() ?? null]));
    expect(companyOfHook.get("own")).toBe(customer.companyId);
    expect(companyOfHook.get("all")).toBeNull();

    const before = JSON.stringify([keys, hooks]);
    await keysMigration.up(db);
    const again = [
      await ApiKey.find({ _id: { $in: Object.values(keyIds) } }).lean(),
      await WebhookEndpoint.find({ _id: { $in: Object.values(endpointIds) } }).lean(),
    ];
    expect(JSON.stringify(again)).toBe(before);
  });
});
