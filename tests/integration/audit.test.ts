/**
 * The audit log against the real database and the real route actions: an entry for every admin
 * action and every throttled sign-in or sign-up (who, when, address, what, before and after), none
 * for a refused or failed change, the admin screen's filters and pages, retention by a TTL index,
 * and customers who can neither read nor write it.
 */
import { randomInt, randomUUID } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { action as addAction } from "~/routes/dashboard.addProduct";
import { action as usersAction } from "~/routes/dashboard.allUsers";
import { loader as auditLoader } from "~/routes/dashboard.audit";
import { action as ordersAction } from "~/routes/dashboard.manageOrders";
import { action as orderPageAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as productsAction } from "~/routes/dashboard.manageProducts";
import { action as editAction } from "~/routes/dashboard.manageProducts_.$id.edit";
import { audit } from "~/services/audit-trail.server";
import { SignInThrottle } from "~/services/rate-limit.server";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { signedIn } from "./ordering.helpers";

const SHOP = process.env.SHOP_URL!;
const DAY_MS = 24 * 60 * 60 * 1000;
const newAddress = () => `198.51.100.${randomInt(1, 255)}`;

type Action = (args: ActionFunctionArgs) => Promise<unknown>;

function post(
  fn: Action,
  path: string,
  fields: Record<string, string>,
  cookie: string,
  clientIp: string,
  params: Record<string, string> = {},
) {
  return settle(fn({ request: postRequest(path, fields, { cookie }), params, context: testContext({ clientIp }) }));
}

/** A form posted to an order's admin page (ship, payments). */
function postToOrder(orderId: string, fields: Record<string, string>, cookie: string, clientIp: string) {
  return post(orderPageAction, `/dashboard/manageOrders/${orderId}`, fields, cookie, clientIp, { id: orderId });
}

async function entriesFor(targetId: string) {
  return Audit.find({ targetId }).sort({ at: 1 }).lean();
}

describe("every admin action writes one entry: who, when, from where, what, before and after", () => {
  test("make admin", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser();
    const ip = newAddress();
    const started = Date.now();
    const response = await post(usersAction, "/dashboard/allUsers", { userId: customer.id }, cookie, ip);
    expect(response.status).toBe(302);
    const [entry, ...more] = await entriesFor(customer.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: "user.make-admin",
      actorEmail: admin.email,
      ip,
      targetType: "user",
      before: { role: "customer" },
      after: { role: "admin" },
    });
    expect(entry.actorId?.toString()).toBe(admin.id);
    expect(entry.targetLabel).toBe(`${customer.name} (${customer.email})`);
    expect(entry.at.getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(entry.at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test("add, edit, change price and stock, delete a product", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const ip = newAddress();
    const name = `Audit Caliper ${randomUUID().slice(0, 6)}`;
    const added = await post(
      addAction,
      "/dashboard/addProduct",
      {
        name,
        description: "Two-piston caliper.",
        img: "https://images.example.com/c.png",
        quantity: "800",
        price: "37",
        minOrderQuantity: "100",
        category: "suspension",
      },
      cookie,
      ip,
    );
    expect(added.status).toBe(302);
    const part = (await Part.findOne({ name }).lean())!;
    const id = part._id.toString();

    const edited = await settle(
      editAction({
        request: postRequest(
          `/dashboard/manageProducts/${id}/edit`,
          {
            name,
            description: "Two-piston caliper, zinc plated.",
            img: "https://images.example.com/c.png",
            price: "39",
            minOrderQuantity: "100",
            partNumber: part.partNumber,
            category: "brakes",
            brand: part.brand ?? "PartsWorks",
            oeNumbers: "",
            fitment: "",
            volumeBreaks: "500:-5%",
          },
          { cookie },
        ),
        params: { id },
        context: testContext({ clientIp: ip }),
      }),
    );
    expect(edited.status).toBe(302);

    const updated = await post(
      productsAction,
      "/dashboard/manageProducts",
      { intent: "update", partId: id, price: "41", stock: "650", expectedStock: "800" },
      cookie,
      ip,
    );
    expect(updated.status).toBe(302);
    const deleted = await post(
      productsAction,
      "/dashboard/manageProducts",
      { intent: "delete", partId: id },
      cookie,
      ip,
    );
    expect(deleted.status).toBe(302);

    const entries = await entriesFor(id);
    expect(entries.map((entry) => entry.action)).toEqual(["part.add", "part.edit", "part.update", "part.delete"]);
    for (const entry of entries)
      expect(entry).toMatchObject({ actorEmail: admin.email, ip, targetType: "part", targetLabel: name });
    const values = { partNumber: part.partNumber, minOrderQuantity: 100 };
    expect(entries[0]).toMatchObject({ before: null, after: { ...values, priceCents: 3700, availableQuantity: 800 } });
    // The edit keeps only what changed.
    expect(entries[1].before).toEqual({
      description: "Two-piston caliper.",
      priceCents: 3700,
      category: "suspension",
      volumeBreaks: "",
    });
    expect(entries[1].after).toEqual({
      description: "Two-piston caliper, zinc plated.",
      priceCents: 3900,
      category: "brakes",
      volumeBreaks: "500:-5%",
    });
    expect(entries[2]).toMatchObject({
      before: { ...values, priceCents: 3900, availableQuantity: 800 },
      after: { ...values, priceCents: 4100, availableQuantity: 650 },
    });
    expect(entries[3]).toMatchObject({ before: { ...values, priceCents: 4100, availableQuantity: 650 }, after: null });
  });

  test("ship a paid order and remove an unpaid one", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser();
    const part = await createPart();
    const paid = await createOrder({ user: customer, part, status: "paid" });
    const unpaid = await createOrder({ user: customer, part });
    const ip = newAddress();
    expect(
      (await postToOrder(paid.id, { intent: "ship", carrier: "ups", trackingNumber: "1Z999AA10123456784" }, cookie, ip))
        .status,
    ).toBe(302);
    expect(
      (
        await post(
          ordersAction,
          "/dashboard/manageOrders",
          { intent: "remove", orderId: unpaid.id, reason: "Ordered twice by mistake" },
          cookie,
          ip,
        )
      ).status,
    ).toBe(302);
    expect(await entriesFor(paid.id)).toMatchObject([
      {
        action: "order.ship",
        actorEmail: admin.email,
        ip,
        targetType: "order",
        targetLabel: `${paid.number}: ${paid.summary} for ${customer.email}`,
        before: { status: "Pending" },
        after: { status: "Shipped", carrier: "ups", trackingNumber: "1Z999AA10123456784" },
      },
    ]);
    expect(await entriesFor(unpaid.id)).toMatchObject([
      {
        action: "order.remove",
        actorEmail: admin.email,
        ip,
        targetLabel: `${unpaid.number}: ${unpaid.summary} for ${customer.email}`,
        before: { status: "Unpaid" },
        after: { status: "Removed", reason: "Ordered twice by mistake" },
      },
    ]);
    expect((await entriesFor(paid.id))[0].targetLabel).toContain(customer.email);
  });

  test("a refused change writes nothing: shipping an unpaid order, a stale stock, bad input", async () => {
    const { cookie } = await signedIn("admin");
    const customer = await createUser();
    const part = await createPart({ availableQuantity: 500 });
    const unpaid = await createOrder({ user: customer, part });
    const ip = newAddress();
    const refused = [
      await postToOrder(unpaid.id, { intent: "ship", carrier: "collected" }, cookie, ip),
      await post(
        productsAction,
        "/dashboard/manageProducts",
        { intent: "update", partId: part.id, price: "9", stock: "10", expectedStock: "499" },
        cookie,
        ip,
      ),
      await post(
        productsAction,
        "/dashboard/manageProducts",
        { intent: "update", partId: part.id, price: "-1", stock: "10", expectedStock: "500" },
        cookie,
        ip,
      ),
    ];
    expect(refused.map((response) => response.status)).toEqual([409, 409, 400]);
    // By this test's targets too: the address is one of 254, and other tests of this file write entries.
    const written = await Audit.find({ ip, targetId: { $in: [part.id, unpaid.id] } }).lean();
    expect(written.map((entry) => entry.action)).toEqual([]);
    expect(await Order.findById(unpaid.id).lean()).toMatchObject({ status: "unpaid" });
  });
});

describe("security events", () => {
  test("a sign-in refused by the throttle is written with the email it named and the address", async () => {
    const throttle = new SignInThrottle({
      failsPerEmailAndIp: 2,
      blockSeconds: 60,
      failsPerIpPerDay: 100,
      signupsPerIpPerHour: 50,
    });
    const ip = newAddress();
    const email = `guesser-${randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 3; i++) {
      const attempt = await throttle.beginLogin({ ip, email });
      if (attempt.refused === null) await attempt.failed();
    }
    // The throttle's hook writes without holding up the refusal: wait for the entries.
    await expect.poll(() => Audit.countDocuments({ actorEmail: email }), { timeout: 5000 }).toBe(2);
    const entry = (await Audit.findOne({ actorEmail: email }).lean())!;
    expect(entry).toMatchObject({ action: "signin.throttled", ip, actorId: null, after: { limit: "email-and-ip" } });
  });

  test("a sign-up refused by the throttle is written with the address", async () => {
    const throttle = new SignInThrottle({
      failsPerEmailAndIp: 10,
      blockSeconds: 60,
      failsPerIpPerDay: 100,
      signupsPerIpPerHour: 1,
    });
    const ip = newAddress();
    await throttle.signupAttempt({ ip });
    expect(await throttle.signupAttempt({ ip })).not.toBeNull();
    await expect.poll(() => Audit.countDocuments({ ip, action: "signup.throttled" }), { timeout: 5000 }).toBe(1);
  });
});

describe("retention and failures", () => {
  test("entries expire AUDIT_RETENTION_DAYS (365 by default) after they are written, through a TTL index", async () => {
    const target = randomUUID();
    await audit({ action: "password.reset", ip: "192.0.2.9", target: { type: "user", id: target } });
    const entry = (await Audit.findOne({ targetId: target }).lean())!;
    expect(entry.expiresAt.getTime() - entry.at.getTime()).toBe(365 * DAY_MS);
    const indexes = await Audit.collection.indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }));
  });

  test("a write that fails is logged and never thrown at the admin's change", async () => {
    const errors: unknown[] = [];
    const logger = { warn: (object: object) => errors.push(object), error: (object: object) => errors.push(object) };
    await expect(
      audit({
        action: "order.ship",
        context: { clientIp: "192.0.2.9", logger },
        actor: { id: "not-an-id", email: "a@example.com" },
      }),
    ).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(await Audit.countDocuments({ actorEmail: "a@example.com" })).toBe(0);
  });
});

describe("the Audit Log screen", () => {
  const open = (query: string, cookie: string) =>
    settle(auditLoader(loaderArgs(getRequest(`/dashboard/audit${query}`, { cookie }))));
  type Page = {
    entries: { action: string; actorEmail: string }[];
    total: number;
    page: number;
    pageCount: number;
    result: { error?: Record<string, string[]> };
  };

  test("names people by name and email: the actor, and a user an older entry named only by id", async () => {
    const { user: admin, cookie } = await signedIn("admin");
    const customer = await createUser();
    await Audit.create({
      at: new Date(),
      action: "user.make-admin",
      actorId: admin.id,
      actorEmail: admin.email,
      ip: "192.0.2.8",
      targetType: "user",
      targetId: customer.id,
      before: { role: "customer" },
      after: { role: "admin" },
      expiresAt: new Date(Date.now() + DAY_MS),
    });
    const page = (await (
      await open(`?actor=${encodeURIComponent(admin.email)}&action=user.make-admin`, cookie)
    ).json()) as { entries: { actorName: string; targetLabel: string }[] };
    expect(page.entries[0]).toMatchObject({
      actorName: admin.name,
      targetLabel: `${customer.name} (${customer.email})`,
    });
  });

  test("filters by action, actor email and dates, newest first, 50 a page", async () => {
    const { cookie } = await signedIn("admin");
    const actor = `filter-${randomUUID().slice(0, 8)}@example.com`;
    const now = Date.now();
    // 55 entries of one actor, one a day back from today; and 3 of another action.
    await Audit.insertMany(
      Array.from({ length: 55 }, (_, i) => ({
        at: new Date(now - i * DAY_MS),
        action: "part.update",
        actorEmail: actor,
        ip: "192.0.2.7",
        expiresAt: new Date(now + DAY_MS),
      })).concat(
        [0, 1, 2].map((i) => ({
          at: new Date(now - i * DAY_MS),
          action: "order.ship",
          actorEmail: actor,
          ip: "192.0.2.7",
          expiresAt: new Date(now + DAY_MS),
        })),
      ),
    );
    const first = (await (await open(`?actor=${encodeURIComponent(actor.toUpperCase())}`, cookie)).json()) as Page;
    expect(first.total).toBe(58);
    expect(first.entries).toHaveLength(50);
    expect(first.pageCount).toBe(2);
    const second = (await (await open(`?actor=${actor}&page=2`, cookie)).json()) as Page;
    expect(second.entries).toHaveLength(8);

    const ships = (await (await open(`?actor=${actor}&action=order.ship`, cookie)).json()) as Page;
    expect(ships.total).toBe(3);
    const day = (offset: number) => new Date(now - offset * DAY_MS).toISOString().slice(0, 10);
    const range = (await (
      await open(`?actor=${actor}&action=part.update&from=${day(9)}&to=${day(5)}`, cookie)
    ).json()) as Page;
    expect(range.total).toBe(5);
  });

  test.each([
    ["action", "?action=drop.everything", /Choose an action/],
    ["actor", "?actor=not-an-email", /email address/],
    ["from", "?from=2026-13-45", /Enter a date/],
    ["to", "?from=2026-02-01&to=2026-01-01", /must not be before/],
  ])(
    "a bad filter (%s) answers 400 with its message next to the field and no entries",
    async (field, query, message) => {
      const { cookie } = await signedIn("admin");
      const response = await open(query, cookie);
      const body = (await response.json()) as Page;
      expect(response.status).toBe(400);
      expect(body.entries).toEqual([]);
      expect(body.result.error?.[field]?.join(" ")).toMatch(message);
    },
  );
});

describe("customers can neither read nor write the audit log", () => {
  test("the screen signs a customer out and sends them to /login", async () => {
    const { cookie } = await signedIn();
    const response = await settle(auditLoader(loaderArgs(getRequest("/dashboard/audit", { cookie }))));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });

  test("posting to the screen over HTTP writes nothing (there is no write path)", async () => {
    const { cookie } = await signedIn();
    const before = await Audit.countDocuments();
    const response = await fetch(`${SHOP}/dashboard/audit`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: SHOP },
      body: new URLSearchParams({ action: "user.make-admin", actorEmail: "forged@example.com" }),
    });
    expect([302, 403, 405]).toContain(response.status);
    expect(await Audit.countDocuments({ actorEmail: "forged@example.com" })).toBe(0);
    expect(await Audit.countDocuments()).toBe(before);
  });

  test("a customer's own admin-action attempts are refused and leave no entry", async () => {
    const { user, cookie } = await signedIn();
    const target = await createUser();
    const response = await post(usersAction, "/dashboard/allUsers", { userId: target.id }, cookie, newAddress());
    expect(response.status).toBe(403);
    expect(await entriesFor(target.id)).toEqual([]);
    expect(await User.findById(target.id).lean()).toMatchObject({ role: "customer" });
    expect(await Audit.countDocuments({ actorId: user.id })).toBe(0);
  });
});
