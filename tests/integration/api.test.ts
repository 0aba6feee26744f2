/**
 * The API (/api/v1) over HTTP against the running shop: keys and their scopes, roles, revocation
 * and demotion, problem details, idempotency, cursors, the rate limit, and every endpoint.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { describe, expect, test } from "vitest";
import { ApiKey, createApiKey } from "~/models/api-key.server";
import { Audit } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { savePriceGroup } from "~/models/price-group.server";
import { setPriceGroup, setTaxProfile } from "~/models/user-admin.server";
import { User } from "~/models/user.server";
import { action as keysAction, loader as keysLoader } from "~/routes/dashboard.apiKeys/route";
import type { ApiScope } from "~/domain/api-scopes";
import { createPart, createUser, updateCompanyOf } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { signedIn, snapshot } from "./ordering.helpers";
import { DETROIT } from "../fixtures/addresses";

const SHOP = process.env.SHOP_URL!;

async function keyFor(role: "customer" | "admin", scopes: ApiScope[]) {
  const user = await createUser({ role });
  // As the Keys screen makes them: a customer's belongs to their company, a staff key to its admin.
  const companyId = role === "customer" ? user.companyId : null;
  const { token } = await createApiKey({ ownerId: user.id, companyId, name: "Test system", scopes });
  return { user, token };
}

function call(
  token: string | null,
  path: string,
  { method = "GET", body, headers = {} }: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${SHOP}/api/v1${path}`, {
    method,
    redirect: "manual",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as {
    status: number;
    title: string;
    detail: string;
    errors?: { field: string; message: string }[];
  };
  expect(body.status).toBe(status);
  expect(body.detail).toBeTruthy();
  return body;
}

const delivery = { phone: "555-0100", deliveryAddress: DETROIT };

type Money = { amount: number; currency: string };

/** The currency of every {amount, currency} in an answer, however deep (an order's lines, tax, credit notes). */
function currenciesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(currenciesIn);
  if (value === null || typeof value !== "object") return [];
  const own = "amount" in value && "currency" in value ? [String(value.currency)] : [];
  return [...own, ...Object.values(value).flatMap(currenciesIn)];
}

/** A part's price list in euros beside its dollar one (as the part's page saves it). */
async function listInEuros(partId: string, priceCents: number, volumeBreaks: object[] = []) {
  await Part.updateOne({ _id: partId }, { $set: { prices: [{ currency: "EUR", priceCents, volumeBreaks }] } });
}

describe("API keys screen", () => {
  test("a customer creates a key shown once, it works at once, is listed with its last use, and revoking it stops it on the next call; both audited", async () => {
    const { user, cookie } = await signedIn("customer");
    const created = await settle(
      keysAction(
        actionArgs(
          postRequest("/dashboard/apiKeys", { intent: "create", name: "Purchasing", scopes: "read" }, { cookie }),
        ),
      ),
    );
    expect(created.status).toBe(200);
    const { created: shown } = (await created.json()) as { created: { token: string } };
    expect(shown.token).toMatch(/^pw_live_[A-Za-z0-9_-]{43}$/);
    const stored = await ApiKey.findOne({ ownerId: user.id }).lean();
    expect(stored?.hash).not.toContain(shown.token.slice(8));
    expect(JSON.stringify(stored)).not.toContain(shown.token);

    expect((await call(shown.token, "/orders")).status).toBe(200);
    const listed = await settle(keysLoader(loaderArgs(getRequest("/dashboard/apiKeys", { cookie }))));
    const page = (await listed.json()) as { keys: { id: string; name: string; lastUsedAt: string | null }[] };
    expect(page.keys).toHaveLength(1);
    expect(page.keys[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(page)).not.toContain(shown.token);

    const revoked = await settle(
      keysAction(
        actionArgs(postRequest("/dashboard/apiKeys", { intent: "revoke", keyId: page.keys[0].id }, { cookie })),
      ),
    );
    expect(revoked.status).toBe(302);
    await expectProblem(await call(shown.token, "/orders"), 401);
    const actions = (await Audit.find({ actorId: user.id }).lean()).map((entry) => entry.action).sort();
    expect(actions).toEqual(["api-key.create", "api-key.revoke"]);
  });

  test("a customer cannot give a key staff scopes, and a nameless key is refused at the field; nothing is written", async () => {
    const { user, cookie } = await signedIn("customer");
    const staff = await settle(
      keysAction(
        actionArgs(
          postRequest("/dashboard/apiKeys", { intent: "create", name: "Sneaky", scopes: "stock" }, { cookie }),
        ),
      ),
    );
    expect(staff.status).toBe(400);
    expect(JSON.stringify(await staff.json())).toContain("Your keys may have these scopes only");
    const nameless = await settle(
      keysAction(
        actionArgs(postRequest("/dashboard/apiKeys", { intent: "create", name: "", scopes: "read" }, { cookie })),
      ),
    );
    expect(nameless.status).toBe(400);
    expect(await ApiKey.countDocuments({ ownerId: user.id })).toBe(0);
  });

  test("another customer's key cannot be revoked", async () => {
    const { token, user: owner } = await keyFor("customer", ["read"]);
    const key = await ApiKey.findOne({ ownerId: owner.id }).lean();
    const { cookie } = await signedIn("customer");
    const response = await settle(
      keysAction(
        actionArgs(postRequest("/dashboard/apiKeys", { intent: "revoke", keyId: key!._id.toString() }, { cookie })),
      ),
    );
    expect(response.status).toBe(404);
    expect((await call(token, "/orders")).status).toBe(200);
  });
});

describe("authentication", () => {
  test("no key, a malformed key, an unknown key: 401 problem details asking for a Bearer key", async () => {
    for (const token of [null, "nonsense", `pw_live_${"A".repeat(43)}`]) {
      const response = await call(token, "/orders");
      await expectProblem(response, 401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  test("a session cookie alone is never accepted, for reads or writes (the CSRF guard refuses a cross-site POST too)", async () => {
    const { cookie } = await signedIn("customer");
    await expectProblem(await call(null, "/orders", { headers: { Cookie: cookie } }), 401);
    const part = await createPart({ minOrderQuantity: 1 });
    const before = await snapshot({ partIds: [part.id] });
    for (const headers of [
      { Cookie: cookie, Origin: SHOP },
      { Cookie: cookie, Origin: "https://evil.example" },
    ]) {
      const response = await call(null, "/orders", {
        method: "POST",
        body: { lines: [{ partNumber: part.partNumber, quantity: 1 }], ...delivery },
        headers,
      });
      await expectProblem(response, 401);
    }
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test("a POST with a Bearer key needs no Origin (other systems send none)", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1 });
    const response = await call(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 1 }], ...delivery },
    });
    expect(response.status).toBe(201);
  });

  test("an admin's staff key stops on the next call once the admin is demoted, or deleted", async () => {
    const { token, user } = await keyFor("admin", ["orders"]);
    expect((await call(token, "/staff/orders-to-ship")).status).toBe(200);
    await User.updateOne({ _id: user.id }, { $set: { role: "customer" } });
    await expectProblem(await call(token, "/staff/orders-to-ship"), 401);
    const other = await keyFor("admin", ["orders"]);
    await User.deleteOne({ _id: other.user.id });
    await expectProblem(await call(other.token, "/staff/orders-to-ship"), 401);
  });
});

describe("scopes and roles", () => {
  test("a read-only key cannot order; a customer's key cannot touch stock or staff lists; a staff key cannot read a customer's orders", async () => {
    const reader = await keyFor("customer", ["read"]);
    const part = await createPart({ minOrderQuantity: 1 });
    const before = await snapshot({ partIds: [part.id] });
    await expectProblem(
      await call(reader.token, "/orders", {
        method: "POST",
        body: { lines: [{ partNumber: part.partNumber, quantity: 1 }], ...delivery },
      }),
      403,
    );
    const buyer = await keyFor("customer", ["read", "order"]);
    await expectProblem(
      await call(buyer.token, "/staff/stock", {
        method: "POST",
        body: { updates: [{ partNumber: part.partNumber, stock: 1 }] },
      }),
      403,
    );
    await expectProblem(await call(buyer.token, "/staff/orders-to-ship"), 403);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    const staff = await keyFor("admin", ["stock", "orders", "payments"]);
    await expectProblem(await call(staff.token, "/orders"), 403);
  });

  test("a customer's key never reads or cancels another customer's order", async () => {
    const alice = await keyFor("customer", ["read", "order"]);
    const bob = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await call(alice.token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 5 }], ...delivery },
    });
    const order = (await placed.json()) as { id: string };
    await expectProblem(await call(bob.token, `/orders/${order.id}`), 404);
    await expectProblem(await call(bob.token, `/orders/${order.id}/cancel`, { method: "POST" }), 404);
    await expectProblem(await call(bob.token, `/orders/${order.id}/documents/pro-forma`), 404);
    const list = (await (await call(bob.token, "/orders")).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
    expect((await Order.findById(order.id).lean())?.status).toBe("unpaid");
  });
});

describe("parts", () => {
  test("list a page at a time by cursor, search, filter; money in cents with currency", async () => {
    const { token } = await keyFor("customer", ["read"]);
    const first = await call(token, "/parts?limit=2");
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as {
      data: { id: string; price: { amount: number; currency: string } }[];
      nextCursor: string;
    };
    expect(page1.data).toHaveLength(2);
    expect(page1.data[0].price.currency).toBe("USD");
    expect(Number.isInteger(page1.data[0].price.amount)).toBe(true);
    const page2 = (await (await call(token, `/parts?limit=2&cursor=${page1.nextCursor}`)).json()) as {
      data: { id: string }[];
    };
    expect(page2.data.map((p) => p.id)).not.toContain(page1.data[0].id);
    expect(page2.data.map((p) => p.id)).not.toContain(page1.data[1].id);

    const part = await createPart({ name: `Apiwidget ${randomUUID().slice(0, 6)}` });
    const found = (await (await call(token, `/parts?q=${encodeURIComponent(part.name)}`)).json()) as {
      data: { id: string }[];
    };
    expect(found.data.map((p) => p.id)).toContain(part.id);
  });

  test("bad query values are field-level problems (422)", async () => {
    const { token } = await keyFor("customer", ["read"]);
    const body = await expectProblem(await call(token, "/parts?limit=0&category=nothing&cursor=zz"), 422);
    expect(body.errors?.map((e) => e.field).sort()).toEqual(["category", "limit"]);
    const cursor = await expectProblem(await call(token, "/parts?cursor=zz"), 422);
    expect(cursor.errors?.[0].field).toBe("cursor");
  });

  test("lookup by part number (case, dashes, spaces aside) or by OE number, with price and stock", async () => {
    const { token } = await keyFor("customer", ["read"]);
    const part = await createPart({ priceCents: 3700, availableQuantity: 250 });
    const oe = `OE${randomUUID().slice(0, 6).toUpperCase()}`;
    const doc = await Part.findById(part.id);
    doc!.set("oeNumbers", [oe]);
    await doc!.save();
    for (const typed of [part.partNumber, part.partNumber.toLowerCase().replace("-", " "), oe.toLowerCase()]) {
      const response = await call(token, `/parts/${encodeURIComponent(typed)}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        id: string;
        price: unknown;
        availableQuantity: number;
        oeNumbers: string[];
      };
      expect(body).toMatchObject({ id: part.id, price: { amount: 3700, currency: "USD" }, availableQuantity: 250 });
      expect(body.oeNumbers).toEqual([oe]);
    }
    await expectProblem(await call(token, "/parts/NO-SUCH-PART-999"), 404);
  });
});

describe("parts in the buyer's currency", () => {
  test("a company buying in euros sees a part's euro price; a part with no euro list is not orderable and keeps its dollar price named USD; every list beside", async () => {
    const { user, token } = await keyFor("customer", ["read"]);
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });
    const listed = await createPart({ priceCents: 1200, minOrderQuantity: 10 });
    await listInEuros(listed.id, 1100, [{ minQuantity: 100, percentOff: 5, unitPriceCents: null }]);
    const dollarsOnly = await createPart({ priceCents: 800, minOrderQuantity: 10 });
    const lists = [
      { currency: "USD", listPrice: { amount: 1200, currency: "USD" }, volumeBreaks: [] },
      {
        currency: "EUR",
        listPrice: { amount: 1100, currency: "EUR" },
        volumeBreaks: [{ minQuantity: 100, percentOff: 5, unitPrice: null }],
      },
    ];

    const euro = (await (await call(token, `/parts/${listed.partNumber}`)).json()) as Record<string, unknown>;
    expect(euro).toMatchObject({ price: { amount: 1100, currency: "EUR" }, orderable: true });
    expect(euro.prices).toEqual(lists);
    expect(euro).not.toHaveProperty("notOrderableReason");
    const unpriced = (await (await call(token, `/parts/${dollarsOnly.partNumber}`)).json()) as Record<string, unknown>;
    expect(unpriced).toMatchObject({
      price: { amount: 800, currency: "USD" },
      orderable: false,
      notOrderableReason: `${dollarsOnly.partNumber} has no price in euros yet: ask us for one.`,
    });
    expect(unpriced.prices).toEqual([
      { currency: "USD", listPrice: { amount: 800, currency: "USD" }, volumeBreaks: [] },
    ]);

    // The list says the same of both, in the order asked.
    const page = (await (
      await call(token, `/parts?q=${encodeURIComponent(`${listed.partNumber}, ${dollarsOnly.partNumber}`)}`)
    ).json()) as { data: Record<string, unknown>[] };
    expect(page.data.map((part) => [part.price, part.orderable])).toEqual([
      [{ amount: 1100, currency: "EUR" }, true],
      [{ amount: 800, currency: "USD" }, false],
    ]);
    expect(page.data[0].prices).toEqual(lists);

    // A company buying in dollars sees the dollar price of the same part, its euro list beside.
    const dollars = await keyFor("customer", ["read"]);
    const seen = (await (await call(dollars.token, `/parts/${listed.partNumber}`)).json()) as Record<string, unknown>;
    expect(seen).toMatchObject({ price: { amount: 1200, currency: "USD" }, orderable: true, prices: lists });
  });
});

describe("orders", () => {
  test("place by part number, list, get, cancel while unpaid (stock goes back), cancel again refused", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ priceCents: 1200, minOrderQuantity: 10, availableQuantity: 500 });
    const placed = await call(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber.toLowerCase(), quantity: 40 }], ...delivery, poNumber: "PO-77" },
    });
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as {
      id: string;
      number: string;
      state: string;
      total: unknown;
      createdAt: string;
    };
    // $480 net and Michigan sales tax (6 %): the address names no other place.
    expect(order).toMatchObject({ state: "unpaid", total: { amount: 50_880, currency: "USD" } });
    expect(order.number).toMatch(/^SO-\d+$/);
    expect(order.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(placed.headers.get("location")).toBe(`/api/v1/orders/${order.id}`);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(460);

    const list = (await (await call(token, "/orders")).json()) as { data: { id: string }[] };
    expect(list.data.map((o) => o.id)).toEqual([order.id]);
    expect(((await (await call(token, `/orders/${order.id}`)).json()) as { id: string }).id).toBe(order.id);

    const cancelled = await call(token, `/orders/${order.id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as { state: string }).state).toBe("cancelled");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(500);
    await expectProblem(await call(token, `/orders/${order.id}/cancel`, { method: "POST" }), 409);
  });

  test("a key prices as its owner: a price group's price beside the list price, and an order's net, tax lines and total; a posted price is ignored", async () => {
    const { user, token } = await keyFor("customer", ["read", "order"]);
    const group = await savePriceGroup({
      name: `API distributor ${user.id}`,
      percentOff: 15,
      rules: [],
      stacksWithBreaks: false,
    });
    await setPriceGroup(user.id, group!.id);
    await setTaxProfile(user.id, { country: "US", state: "MI", vatNumber: null, exemptionCertificate: null });
    const part = await createPart({ priceCents: 1000, minOrderQuantity: 10, availableQuantity: 500 });

    const looked = (await (await call(token, `/parts/${part.partNumber}`)).json()) as Record<string, unknown>;
    expect(looked).toMatchObject({ price: { amount: 850 }, listPrice: { amount: 1000 } });
    const anonymousPrice = (await (
      await call((await keyFor("customer", ["read"])).token, `/parts/${part.partNumber}`)
    ).json()) as Record<string, unknown>;
    expect(anonymousPrice).toMatchObject({ price: { amount: 1000 } });
    expect(anonymousPrice).not.toHaveProperty("listPrice");

    const placed = await call(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 100, unitPriceCents: 1 }], ...delivery },
    });
    // An unknown field (a price) is refused, never read.
    expect([201, 422]).toContain(placed.status);
    const order =
      placed.status === 201
        ? ((await placed.json()) as Record<string, unknown>)
        : ((await (
            await call(token, "/orders", {
              method: "POST",
              body: { lines: [{ partNumber: part.partNumber, quantity: 100 }], ...delivery },
            })
          ).json()) as Record<string, unknown>);
    expect(order).toMatchObject({
      lines: [{ unitPrice: { amount: 850 }, listUnitPrice: { amount: 1000 }, lineTotal: { amount: 85_000 } }],
      net: { amount: 85_000 },
      tax: { amount: 5_100 },
      total: { amount: 90_100 },
    });
    expect((order.taxLines as { rate: number }[])[0].rate).toBe(6);
  });

  test("lists page by cursor, newest first", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await call(token, "/orders", {
        method: "POST",
        body: { lines: [{ partNumber: part.partNumber, quantity: 1 }], ...delivery },
      });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const first = (await (await call(token, "/orders?limit=2")).json()) as {
      data: { id: string }[];
      nextCursor: string;
    };
    expect(first.data.map((o) => o.id)).toEqual([ids[2], ids[1]]);
    const second = (await (await call(token, `/orders?limit=2&cursor=${first.nextCursor}`)).json()) as {
      data: { id: string }[];
      nextCursor: string | null;
    };
    expect(second.data.map((o) => o.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
  });

  test("bad input: field-level problems, 4xx, nothing written", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 150 });
    const before = await snapshot({ partIds: [part.id] });
    const cases: [unknown, number, string][] = [
      [{ lines: [], ...delivery }, 422, "lines"],
      [{ lines: [{ partNumber: part.partNumber, quantity: "many" }], ...delivery }, 422, "lines.0.quantity"],
      [{ lines: [{ partNumber: part.partNumber, quantity: 100 }], phone: "x", deliveryAddress: DETROIT }, 422, "phone"],
      [{ lines: [{ partNumber: "NOPE-0000", quantity: 100 }], ...delivery }, 422, "lines.0.partNumber"],
      [{ lines: [{ partNumber: part.partNumber, quantity: 5 }], ...delivery }, 422, "lines.0.quantity"],
      [{ lines: [{ partNumber: part.partNumber, quantity: 200 }], ...delivery }, 409, "lines.0.quantity"],
      [{ lines: [{ partNumber: part.partNumber, quantity: 100 }], ...delivery, payment: "account" }, 422, "payment"],
      [{ lines: [{ partNumber: { $gt: "" }, quantity: 100 }], ...delivery }, 422, "lines.0.partNumber"],
    ];
    for (const [body, status, field] of cases) {
      const problem = await expectProblem(await call(token, "/orders", { method: "POST", body }), status);
      expect(problem.errors?.map((e) => e.field)).toContain(field);
    }
    await expectProblem(await call(token, "/orders", { method: "POST", body: "{not json" }), 400);
    await expectProblem(
      await call(token, "/orders", { method: "POST", body: "a=1", headers: { "Content-Type": "text/plain" } }),
      415,
    );
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
  });

  test("Idempotency-Key: the same key and body answer the first order again; the same key with another body is refused", async () => {
    const { token, user } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1, availableQuantity: 100 });
    const key = randomUUID();
    const body = { lines: [{ partNumber: part.partNumber, quantity: 3 }], ...delivery };
    const first = await call(token, "/orders", { method: "POST", body, headers: { "Idempotency-Key": key } });
    const again = await call(token, "/orders", { method: "POST", body, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    await expectProblem(
      await call(token, "/orders", {
        method: "POST",
        body: { ...body, poNumber: "OTHER" },
        headers: { "Idempotency-Key": key },
      }),
      422,
    );
    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(97);
  });

  test("documents: the pro-forma of an unpaid order as PDF; its invoice is refused with what it has instead", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1 });
    const placed = await call(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 2 }], ...delivery },
    });
    const order = (await placed.json()) as { id: string };
    const pdf = await call(token, `/orders/${order.id}/documents/pro-forma`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    const invoice = await expectProblem(await call(token, `/orders/${order.id}/documents/invoice`), 409);
    expect(invoice).toMatchObject({ instead: "pro-forma" });
  }, 60_000);

  test("statement: terms, credit limit, open invoices with money in cents", async () => {
    const { token, user } = await keyFor("customer", ["read", "order"]);
    await updateCompanyOf(user.id, { $set: { account: { termsDays: 30, creditLimitCents: 1_000_000 } } });
    const part = await createPart({ minOrderQuantity: 1, priceCents: 2500 });
    const placed = await call(token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 4 }], ...delivery, payment: "account" },
    });
    expect(placed.status).toBe(201);
    const statement = (await (await call(token, "/statement")).json()) as {
      termsDays: number;
      balance: { amount: number };
      invoices: { invoiceNumber: string | null; dueAt: string }[];
      ledger: { balances: unknown[]; entries: { kind: string; amount: number; document: string; balance: number }[] };
    };
    expect(statement.termsDays).toBe(30);
    expect(statement.balance.amount).toBe(10_600); // $100 and 6 % Michigan sales tax
    expect(statement.invoices).toHaveLength(1);
    expect(statement.invoices[0].invoiceNumber).toBeTruthy();
    // The same from the ledger: the invoice posted as the order was placed on account.
    expect(statement.ledger.balances).toEqual([{ currency: "USD", balance: 10_600 }]);
    expect(statement.ledger.entries).toEqual([
      {
        at: expect.any(String),
        kind: "invoice",
        amount: 10_600,
        currency: "USD",
        document: statement.invoices[0].invoiceNumber,
        orderId: expect.any(String),
        balance: 10_600,
      },
    ]);
  });
});

describe("orders in the buyer's currency", () => {
  test("a company buying in euros orders in euros: every amount of the order names EUR, placed, read and listed; its statement counts euros and its earlier dollars apart", async () => {
    const { user, token } = await keyFor("customer", ["read", "order"]);
    await updateCompanyOf(user.id, { $set: { account: { termsDays: 30, creditLimitCents: 1_000_000 } } });
    const part = await createPart({ priceCents: 1000, minOrderQuantity: 1, availableQuantity: 500 });
    await listInEuros(part.id, 900);
    const place = (quantity: number) =>
      call(token, "/orders", {
        method: "POST",
        body: { lines: [{ partNumber: part.partNumber, quantity }], ...delivery, payment: "account" },
      });
    // Bought in dollars first; then the company buys in euros.
    const inDollars = await place(4);
    expect(inDollars.status).toBe(201);
    const dollarOrder = (await inDollars.json()) as { id: string; currency: string; total: Money };
    expect(dollarOrder).toMatchObject({ currency: "USD", total: { amount: 4_240, currency: "USD" } });
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });

    const placed = await place(10);
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as Record<string, unknown> & { id: string };
    // €90 at the euro list and 6 % Michigan sales tax, in euro cents: never converted from dollars.
    expect(order).toMatchObject({
      currency: "EUR",
      lines: [{ unitPrice: { amount: 900, currency: "EUR" }, lineTotal: { amount: 9_000, currency: "EUR" } }],
      net: { amount: 9_000, currency: "EUR" },
      tax: { amount: 540, currency: "EUR" },
      total: { amount: 9_540, currency: "EUR" },
      balance: { amount: 9_540, currency: "EUR" },
    });
    expect(new Set(currenciesIn(order))).toEqual(new Set(["EUR"]));
    const read = (await (await call(token, `/orders/${order.id}`)).json()) as Record<string, unknown>;
    expect(read).toMatchObject({ currency: "EUR", lines: order.lines, tax: order.tax, total: order.total });
    expect(currenciesIn(read)).toEqual(currenciesIn(order));
    const list = (await (await call(token, "/orders")).json()) as { data: { id: string; currency: string }[] };
    for (const each of list.data) expect(new Set(currenciesIn(each)), each.id).toEqual(new Set([each.currency]));
    expect(list.data.map((each) => [each.id, each.currency])).toEqual([
      [order.id, "EUR"],
      [dollarOrder.id, "USD"],
    ]);

    const statement = (await (await call(token, "/statement")).json()) as Record<string, unknown> & {
      invoices: { orderId: string; total: Money; balance: Money }[];
      currencies: { currency: string; balance: Money; owes: Money }[];
      ledger: { balances: { currency: string; balance: number }[]; entries: { currency: string; amount: number }[] };
    };
    // The account's figures are in its currency, euros: the dollars owed are never added in.
    expect(statement).toMatchObject({
      currency: "EUR",
      creditLimit: { amount: 1_000_000, currency: "EUR" },
      balance: { amount: 9_540, currency: "EUR" },
      owes: { amount: 9_540, currency: "EUR" },
      period: { opening: { amount: 0, currency: "EUR" }, closing: { amount: 9_540, currency: "EUR" } },
    });
    expect(statement.currencies.map((each) => [each.currency, each.balance, each.owes])).toEqual([
      ["EUR", { amount: 9_540, currency: "EUR" }, { amount: 9_540, currency: "EUR" }],
      ["USD", { amount: 4_240, currency: "USD" }, { amount: 4_240, currency: "USD" }],
    ]);
    expect(new Set(currenciesIn(statement.currencies[1]))).toEqual(new Set(["USD"]));
    expect(
      Object.fromEntries(statement.invoices.map((invoice) => [invoice.orderId, [invoice.total, invoice.balance]])),
    ).toEqual({
      [order.id]: [
        { amount: 9_540, currency: "EUR" },
        { amount: 9_540, currency: "EUR" },
      ],
      [dollarOrder.id]: [
        { amount: 4_240, currency: "USD" },
        { amount: 4_240, currency: "USD" },
      ],
    });
    expect(statement.ledger.balances).toEqual(
      expect.arrayContaining([
        { currency: "EUR", balance: 9_540 },
        { currency: "USD", balance: 4_240 },
      ]),
    );
  });

  test("a company buying in euros cannot order a part with no euro price, nor name another currency: 422 by the field, nothing written", async () => {
    const { user, token } = await keyFor("customer", ["read", "order"]);
    await updateCompanyOf(user.id, { $set: { "account.currency": "EUR" } });
    const listed = await createPart({ priceCents: 1000, minOrderQuantity: 1 });
    await listInEuros(listed.id, 900);
    const dollarsOnly = await createPart({ priceCents: 1000, minOrderQuantity: 1 });
    const before = await snapshot({ partIds: [listed.id, dollarsOnly.id] });
    const lines = [
      { partNumber: listed.partNumber, quantity: 5 },
      { partNumber: dollarsOnly.partNumber, quantity: 5 },
    ];
    const unpriced = await expectProblem(
      await call(token, "/orders", { method: "POST", body: { lines, ...delivery } }),
      422,
    );
    expect(unpriced.errors).toEqual([
      { field: "lines.1.partNumber", message: expect.stringContaining("has no price in euros yet") },
    ]);
    // The currency is the company's: a request naming one is refused, not obeyed.
    const named = await expectProblem(
      await call(token, "/orders", { method: "POST", body: { lines: [lines[0]], ...delivery, currency: "USD" } }),
      422,
    );
    expect(named.errors?.map((error) => error.field)).toEqual(["(body)"]);
    expect(await snapshot({ partIds: [listed.id, dollarsOnly.id] })).toEqual(before);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);
  });
});

describe("staff", () => {
  test("stock and prices of many parts at once, each audited; one bad update and nothing is written", async () => {
    const { token, user } = await keyFor("admin", ["stock"]);
    const a = await createPart({ availableQuantity: 10, priceCents: 500 });
    const b = await createPart({ availableQuantity: 20, priceCents: 700 });
    const before = await snapshot({ partIds: [a.id, b.id] });
    const bad = await expectProblem(
      await call(token, "/staff/stock", {
        method: "POST",
        body: {
          updates: [
            { partNumber: a.partNumber, stock: 99 },
            { partNumber: "NOPE-1", stock: 5 },
          ],
        },
      }),
      422,
    );
    expect(bad.errors).toEqual([{ field: "updates.1.partNumber", message: "unknown part number “NOPE-1”" }]);
    const field = await expectProblem(
      await call(token, "/staff/stock", {
        method: "POST",
        body: { updates: [{ partNumber: a.partNumber, stock: -1, price: 150 }] },
      }),
      422,
    );
    expect(field.errors?.map((e) => e.field).sort()).toEqual(["updates.0.price", "updates.0.stock"]);
    expect(await snapshot({ partIds: [a.id, b.id] })).toEqual(before);

    const response = await call(token, "/staff/stock", {
      method: "POST",
      body: {
        updates: [
          { partNumber: a.partNumber.toLowerCase(), stock: 99 },
          { partNumber: b.partNumber, price: 900, stock: 20 },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ applied: 2, unchanged: 0 });
    expect((await Part.findById(a.id).lean())?.availableQuantity).toBe(99);
    expect((await Part.findById(b.id).lean())?.priceCents).toBe(900);
    expect(await Audit.countDocuments({ actorId: user.id, action: "part.update" })).toBe(2);
  });

  test("the stock API sets whether a part may be backordered and when stock is expected; a bad date writes nothing", async () => {
    const { token } = await keyFor("admin", ["stock"]);
    const part = await createPart({ availableQuantity: 10 });
    const before = await snapshot({ partIds: [part.id] });
    const bad = await expectProblem(
      await call(token, "/staff/stock", {
        method: "POST",
        body: {
          updates: [
            { partNumber: part.partNumber, backorder: { allowed: true, restockOn: "2001-01-01", leadTimeDays: -3 } },
          ],
        },
      }),
      422,
    );
    expect(bad.errors?.map((e) => e.field).sort()).toEqual([
      "updates.0.backorder.leadTimeDays",
      "updates.0.backorder.restockOn",
    ]);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    // A day off the calendar does not roll over into March.
    const offCalendar = await expectProblem(
      await call(token, "/staff/stock", {
        method: "POST",
        body: { updates: [{ partNumber: part.partNumber, backorder: { allowed: true, restockOn: "2027-02-30" } }] },
      }),
      422,
    );
    expect(offCalendar.errors).toEqual([
      expect.objectContaining({
        field: "updates.0.backorder.restockOn",
        message: "Enter a real date such as 2027-01-12",
      }),
    ]);
    expect(await snapshot({ partIds: [part.id] })).toEqual(before);
    const response = await call(token, "/staff/stock", {
      method: "POST",
      body: {
        updates: [{ partNumber: part.partNumber, backorder: { allowed: true, restockOn: null, leadTimeDays: 21 } }],
      },
    });
    expect(response.status).toBe(200);
    expect(await Part.findById(part.id).lean()).toMatchObject({
      backorderable: true,
      leadTimeDays: 21,
      restockOn: null,
    });
  });

  test("orders to ship, ship with tracking, record a payment (idempotent)", async () => {
    const customer = await keyFor("customer", ["read", "order"]);
    await updateCompanyOf(customer.user.id, { $set: { account: { termsDays: 30, creditLimitCents: 1_000_000 } } });
    const part = await createPart({ minOrderQuantity: 1, priceCents: 1000 });
    const placed = await call(customer.token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 5 }], ...delivery, payment: "account" },
    });
    const order = (await placed.json()) as { id: string };

    const staff = await keyFor("admin", ["orders", "payments"]);
    let found = false;
    let cursor: string | null = null;
    do {
      const page = (await (
        await call(staff.token, `/staff/orders-to-ship?limit=100${cursor ? `&cursor=${cursor}` : ""}`)
      ).json()) as {
        data: { id: string }[];
        nextCursor: string | null;
      };
      found ||= page.data.some((o) => o.id === order.id);
      cursor = page.nextCursor;
    } while (!found && cursor);
    expect(found).toBe(true);

    const noTracking = await expectProblem(
      await call(staff.token, `/staff/orders/${order.id}/ship`, { method: "POST", body: { carrier: "ups" } }),
      422,
    );
    expect(noTracking.errors?.[0].field).toBe("trackingNumber");
    const shipped = await call(staff.token, `/staff/orders/${order.id}/ship`, {
      method: "POST",
      body: { carrier: "ups", trackingNumber: "1Z999" },
    });
    expect(shipped.status).toBe(200);
    expect(await shipped.json()).toMatchObject({ shipment: { carrier: "ups", trackingNumber: "1Z999" } });
    await expectProblem(
      await call(staff.token, `/staff/orders/${order.id}/ship`, {
        method: "POST",
        body: { carrier: "ups", trackingNumber: "1Z999" },
      }),
      409,
    );

    const key = randomUUID();
    // The order's $50 and 6 % Michigan sales tax.
    const payment = {
      amount: 5300,
      receivedOn: new Date().toISOString().slice(0, 10),
      method: "bank-transfer",
      reference: "BACS 1",
    };
    const paid = await call(staff.token, `/staff/orders/${order.id}/payments`, {
      method: "POST",
      body: payment,
      headers: { "Idempotency-Key": key },
    });
    expect(paid.status).toBe(201);
    expect(await paid.clone().json()).toMatchObject({ paidInFull: true, balance: { amount: 0 } });
    const replay = await call(staff.token, `/staff/orders/${order.id}/payments`, {
      method: "POST",
      body: payment,
      headers: { "Idempotency-Key": key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const stored = await Order.findById(order.id).lean();
    expect(stored?.payments).toHaveLength(1);
    await expectProblem(
      await call(staff.token, `/staff/orders/${order.id}/payments`, {
        method: "POST",
        body: { ...payment, amount: 1 },
        headers: { "Idempotency-Key": key },
      }),
      422,
    );
    await expectProblem(
      await call(staff.token, `/staff/orders/${order.id}/payments`, { method: "POST", body: payment }),
      409,
    );
  });

  test("staff cancel a paid order before it ships and pay its account credit out by bank, each once", async () => {
    const customer = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1, priceCents: 1000, availableQuantity: 100 });
    const placed = await call(customer.token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 10 }], ...delivery, payment: "bank-transfer" },
    });
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string; number: string; total: { amount: number } };
    const staff = await keyFor("admin", ["orders", "payments"]);
    const paid = await call(staff.token, `/staff/orders/${order.id}/payments`, {
      method: "POST",
      body: {
        amount: order.total.amount,
        receivedOn: new Date().toISOString().slice(0, 10),
        method: "bank-transfer",
        reference: order.number,
      },
    });
    expect(paid.status).toBe(201);

    // Cancelling money is the payments scope's: a key for shipping alone is refused, and nothing changes.
    const shipper = await keyFor("admin", ["orders"]);
    await expectProblem(await call(shipper.token, `/staff/orders/${order.id}/cancel`, { method: "POST" }), 403);
    expect((await Order.findById(order.id).lean())?.status).toBe("paid");

    const cancelled = await call(staff.token, `/staff/orders/${order.id}/cancel`, { method: "POST" });
    expect(cancelled.status).toBe(200);
    const credited = (await cancelled.json()) as {
      status: string;
      creditNotes: { id: string; number: string; total: { amount: number }; accountCredit: { amount: number } }[];
    };
    expect(credited.creditNotes).toHaveLength(1);
    const [note] = credited.creditNotes;
    expect(note).toMatchObject({
      total: { amount: order.total.amount },
      accountCredit: { amount: order.total.amount },
    });
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(100);
    const again = await expectProblem(
      await call(staff.token, `/staff/orders/${order.id}/cancel`, { method: "POST" }),
      409,
    );
    expect(again.detail).toContain(note.number);
    await expectProblem(await call(staff.token, `/staff/orders/${"0".repeat(24)}/cancel`, { method: "POST" }), 404);

    const payout = (body: unknown, noteId = note.id) =>
      call(staff.token, `/staff/orders/${order.id}/credit-notes/${noteId}/payout`, { method: "POST", body });
    const blank = await expectProblem(await payout({ reference: "  " }), 422);
    expect(blank.errors?.map((error) => error.field)).toEqual(["reference"]);
    await expectProblem(await payout({ reference: "x".repeat(61) }), 422);
    await expectProblem(await payout({ reference: "BACS-9", extra: true }), 422);
    await expectProblem(await payout({ reference: "BACS-9" }, "0".repeat(24)), 404);
    expect((await Order.findById(order.id).lean())?.creditNotes?.[0]?.payout).toBeFalsy();

    const out = await payout({ reference: "BACS-9" });
    expect(out.status).toBe(200);
    expect(
      ((await out.json()) as { creditNotes: { paidOutAt: string | null }[] }).creditNotes[0].paidOutAt,
    ).toBeTruthy();
    expect((await Order.findById(order.id).lean())?.creditNotes?.[0]?.payout).toMatchObject({
      amountCents: order.total.amount,
      reference: "BACS-9",
    });
    const twice = await expectProblem(await payout({ reference: "BACS-10" }), 409);
    expect(twice.detail).toContain("BACS-9");
  });

  test("recording a payment: the same one again is refused naming the first unless it is a second payment; bad dates are refused, nothing written", async () => {
    const customer = await keyFor("customer", ["read", "order"]);
    const part = await createPart({ minOrderQuantity: 1, priceCents: 1000 });
    const placed = await call(customer.token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 10 }], ...delivery, payment: "bank-transfer" },
    });
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string; number: string; paymentMethod: string };
    expect(order.paymentMethod).toBe("bank-transfer");
    const staff = await keyFor("admin", ["orders", "payments"]);
    const today = new Date().toISOString().slice(0, 10);
    const first = { amount: 2000, receivedOn: today, method: "bank-transfer", reference: order.number };
    const record = (body: Record<string, unknown>) =>
      call(staff.token, `/staff/orders/${order.id}/payments`, { method: "POST", body });
    expect((await record(first)).status).toBe(201);

    const again = await expectProblem(await record({ ...first, amount: 1000 }), 409);
    expect(again.errors?.[0]).toMatchObject({ field: "reference" });
    expect(again.detail).toMatch(
      new RegExp(`already recorded by .*: \\$20\\.00 by bank transfer, received .*, reference ${order.number}`),
    );
    for (const receivedOn of ["2026-02-30", "0000-01-01", "2999-01-01"]) {
      const bad = await expectProblem(await record({ ...first, reference: "other", receivedOn }), 422);
      expect(
        bad.errors?.map((error) => error.field),
        receivedOn,
      ).toEqual(["receivedOn"]);
    }
    expect((await Order.findById(order.id).lean())?.payments).toHaveLength(1);

    const second = await record({ ...first, amount: 1000, secondPayment: true });
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({
      paid: { amount: 3000 },
      payments: [{ reference: order.number }, { reference: order.number }],
    });
  });
});

describe("rate limit", () => {
  test("a key past its calls per minute gets 429 with Retry-After; another key is unaffected", async () => {
    const { token } = await keyFor("customer", ["read"]);
    const first = await call(token, "/statement");
    const limit = Number(first.headers.get("ratelimit-limit"));
    expect(limit).toBeGreaterThan(0);
    let refused: Response | null = null;
    for (let sent = 1; sent <= limit + 5 && !refused; sent += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => call(token, "/statement")));
      refused = answers.find((r) => r.status === 429) ?? null;
      for (const answer of answers) if (answer !== refused) await answer.arrayBuffer();
    }
    expect(refused).not.toBeNull();
    await expectProblem(refused!, 429);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await keyFor("customer", ["read"]);
    expect((await call(other.token, "/statement")).status).toBe(200);
  }, 60_000);
});

describe("methods", () => {
  test("a method an address does not take is 405 with Allow; TRACE is 405 everywhere (it was a 500)", async () => {
    const { token } = await keyFor("customer", ["read", "order"]);
    const wrong = await call(token, "/statement", { method: "POST", body: {} });
    await expectProblem(wrong, 405);
    expect(wrong.headers.get("allow")).toBe("GET");
    // fetch() refuses to send TRACE: a plain HTTP request does.
    for (const path of ["/api/v1/orders", "/parts"]) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const sent = httpRequest(
          `${SHOP}${path}`,
          { method: "TRACE", headers: { Authorization: `Bearer ${token}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        sent.on("error", reject);
        sent.end();
      });
      expect(status).toBe(405);
    }
  });
});

describe("the API's description", () => {
  test("openapi.json is OpenAPI 3.1 with every operation, and /api/docs lists them from it", async () => {
    const document = (await (await fetch(`${SHOP}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, object>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual([
      "/lists",
      "/lists/{id}",
      "/lists/{id}/cart",
      "/orders",
      "/orders/{id}",
      "/orders/{id}/cancel",
      "/orders/{id}/documents/{kind}",
      "/parts",
      "/parts/{number}",
      "/quotes",
      "/quotes/{id}",
      "/quotes/{id}/accept",
      "/staff/orders-to-ship",
      "/staff/orders/{id}/cancel",
      "/staff/orders/{id}/credit-notes/{noteId}/payout",
      "/staff/orders/{id}/payments",
      "/staff/orders/{id}/ship",
      "/staff/stock",
      "/statement",
    ]);
    const docs = await fetch(`${SHOP}/api/docs`);
    expect(docs.status).toBe(200);
    const html = await docs.text();
    expect(html).toContain("POST /api/v1/orders");
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|jsdelivr)/);
  });
});

describe("a parcel over the staff API", () => {
  test("the same part twice in one parcel is refused with 422 naming the line, and nothing ships", async () => {
    const customer = await keyFor("customer", ["read", "order"]);
    await updateCompanyOf(customer.user.id, { $set: { account: { termsDays: 30, creditLimitCents: 1_000_000 } } });
    const part = await createPart({ minOrderQuantity: 1, priceCents: 1000, availableQuantity: 1000 });
    const placed = await call(customer.token, "/orders", {
      method: "POST",
      body: { lines: [{ partNumber: part.partNumber, quantity: 60 }], ...delivery, payment: "account" },
    });
    expect(placed.status).toBe(201);
    const order = (await placed.json()) as { id: string };
    const staff = await keyFor("admin", ["orders"]);
    const ship = (lines: { partNumber: string; quantity: number }[]) =>
      call(staff.token, `/staff/orders/${order.id}/ship`, {
        method: "POST",
        body: { carrier: "ups", trackingNumber: "1Z999", lines },
      });

    const twice = await expectProblem(
      await ship([
        { partNumber: part.partNumber, quantity: 60 },
        { partNumber: part.partNumber.toLowerCase(), quantity: 60 },
      ]),
      422,
    );
    expect(twice.errors).toEqual([
      {
        field: "lines.1.partNumber",
        message: `${part.partNumber.toLowerCase()} is already a line of this parcel: give each part once, with all its units`,
      },
    ]);
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.shipments ?? []).toHaveLength(0);
    expect(stored.lines[0].shippedQuantity ?? 0).toBe(0);

    const once = await ship([{ partNumber: part.partNumber, quantity: 60 }]);
    expect(once.status).toBe(200);
    const shipped = (await Order.findById(order.id).lean())!;
    expect(shipped.shipments).toHaveLength(1);
    expect(shipped.shipments![0].lines.map((line) => line.quantity)).toEqual([60]);
    expect(shipped.lines[0].shippedQuantity).toBe(60);
  });
});
