/**
 * One-time keys on the forms that place an order or record money, through the screens' own loaders
 * and actions against the real database: the same form sent twice (a double click, a retry after an
 * error page, Back and resend) gives the first outcome and never a second order or payment.
 */
import { describe, expect, test } from "vitest";
import { Order } from "~/orders/model/schema.server";
import { Part } from "~/models/part.server";
import { action as adminOrderAction, loader as adminOrderLoader } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as cartAction, loader as cartLoader } from "~/routes/dashboard.cart";
import { action as padAction, loader as padLoader } from "~/routes/dashboard.quick-order";
import { action as partAction, loader as partLoader } from "~/routes/parts.$id";
import { createPart, createUser } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { signedIn } from "./ordering.helpers";
import { DELIVERY_FORM } from "../fixtures/addresses";
import { KEY_OF_ANOTHER_FORM } from "~/services/one-time-key.server";

const delivery = { phone: "+1 555 0100", ...DELIVERY_FORM };

async function keyOf(loader: Promise<unknown>) {
  const key = ((await (await settle(loader)).json()) as { oneTimeKey?: string }).oneTimeKey;
  expect(key).toMatch(/^[0-9a-f-]{36}$/);
  return key!;
}

const postPart = (partId: string, fields: Record<string, string>, cookie: string) =>
  settle(partAction(actionArgs(postRequest(`/parts/${partId}`, fields, { cookie }), { id: partId })));

describe("the part page's order form", () => {
  test("sent twice with its key: one order, and the second answer is the first one's redirect", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const key = await keyOf(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id })));
    const fields = { ...delivery, quantity: "150", idempotencyKey: key };

    // At the same moment (a double click): the second waits for the first's outcome (or, past 3 s
    // on a busy machine, says it is still being placed); either way one order.
    const [first, second] = await Promise.all([postPart(part.id, fields, cookie), postPart(part.id, fields, cookie)]);
    const placed = [first, second].find((answer) => answer.status === 302)!;
    expect(placed).toBeDefined();
    for (const answer of [first, second]) {
      expect([302, 409]).toContain(answer.status);
      if (answer.status === 302) expect(answer.headers.get("Location")).toBe(placed.headers.get("Location"));
    }
    const again = await postPart(part.id, fields, cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(placed.headers.get("Location"));
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");

    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
    expect((await Part.findById(part.id).lean())!.availableQuantity).toBe(850);
    // A new rendering of the page is a new key: the customer can order again on purpose.
    const next = await keyOf(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id })));
    expect(next).not.toBe(key);
    expect((await postPart(part.id, { ...fields, idempotencyKey: next }, cookie)).status).toBe(302);
    expect(await Order.countDocuments({ userId: user.id })).toBe(2);
  });

  test("a refusal is given again for the same form; the corrected form with the same key places the order", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 300 });
    const { user, cookie } = await signedIn();
    const key = await keyOf(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id })));
    const tooMany = { ...delivery, quantity: "500", idempotencyKey: key };

    const refused = await postPart(part.id, tooMany, cookie);
    expect(refused.status).toBe(400);
    const refusal = await refused.json();
    const same = await postPart(part.id, tooMany, cookie);
    expect(same.status).toBe(400);
    expect(await same.json()).toEqual(refusal);
    expect(await Order.countDocuments({ userId: user.id })).toBe(0);

    // "Update total" without JavaScript (Conform's validate intent) never uses the key up.
    const update = await postPart(
      part.id,
      { ...tooMany, quantity: "200", __intent__: JSON.stringify({ type: "validate", payload: { name: "quantity" } }) },
      cookie,
    );
    expect(update.status).toBe(200);
    expect((await postPart(part.id, { ...tooMany, quantity: "200" }, cookie)).status).toBe(302);
    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
  });
});

describe("the cart's checkout", () => {
  test("sent twice with its key: one order, the same redirect", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const post = (fields: Record<string, string>) =>
      settle(cartAction(actionArgs(postRequest("/dashboard/cart", fields, { cookie }))));
    expect((await post({ intent: "add", partId: part.id, quantity: "100" })).status).toBe(302);
    const key = await keyOf(cartLoader(loaderArgs(getRequest("/dashboard/cart", { cookie }))));

    const first = await post({ intent: "checkout", ...delivery, idempotencyKey: key });
    expect(first.status).toBe(302);
    const second = await post({ intent: "checkout", ...delivery, idempotencyKey: key });
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
  });
});

describe("quick order's Order now", () => {
  test("sent twice with its key: one order; checking the lines with the same form uses no key", async () => {
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 1000 });
    const { user, cookie } = await signedIn();
    const post = (fields: Record<string, string>) =>
      settle(padAction(actionArgs(postRequest("/dashboard/quick-order", fields, { cookie }))));
    const key = await keyOf(padLoader(loaderArgs(getRequest("/dashboard/quick-order", { cookie }))));
    const pad = { lines: `${part.partNumber} 100`, ...delivery, idempotencyKey: key };

    expect((await post({ ...pad, intent: "check" })).status).toBe(200);
    const first = await post({ ...pad, intent: "order" });
    expect(first.status).toBe(302);
    const second = await post({ ...pad, intent: "order" });
    expect(second.status).toBe(302);
    expect(second.headers.get("Location")).toBe(first.headers.get("Location"));
    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
  });
});

describe("staff recording a payment", () => {
  test("sent twice with its key: recorded once", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 1_000 });
    const order = await createOrder({ user: customer, part, quantity: 100 });
    const { cookie } = await signedIn("admin");
    const url = `/dashboard/manageOrders/${order.id}`;
    const key = await keyOf(adminOrderLoader(loaderArgs(getRequest(url, { cookie }), { id: order.id })));
    const fields = {
      intent: "record-payment",
      amount: "400",
      receivedOn: new Date().toISOString().slice(0, 10),
      method: "bank-transfer",
      reference: "BACS 1234",
      idempotencyKey: key,
    };
    const post = () => settle(adminOrderAction(actionArgs(postRequest(url, fields, { cookie }), { id: order.id })));

    const [first, second] = await Promise.all([post(), post()]);
    expect([first.status, second.status]).toContain(302);
    for (const answer of [first, second]) expect([302, 409]).toContain(answer.status);
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.payments).toHaveLength(1);
    expect(stored.paidCents).toBe(40_000);
  });
});

describe("a key is good for its own form and target only", () => {
  async function refusedAsAnotherForm(answer: Response) {
    expect(answer.status).toBe(409);
    expect(answer.headers.get("Idempotent-Replayed")).toBeNull();
    const body = (await answer.json()) as {
      error?: Record<string, string[]>;
      result?: { error?: Record<string, string[]> };
    };
    expect((body.result ?? body).error?.[""]).toEqual([KEY_OF_ANOTHER_FORM]);
  }

  test("order A's payment key replayed on order B's payment form: refused, nothing recorded on B, A's answer not given", async () => {
    const customer = await createUser();
    const part = await createPart({ priceCents: 1_000 });
    const [orderA, orderB] = [
      await createOrder({ user: customer, part, quantity: 100 }),
      await createOrder({ user: customer, part, quantity: 100 }),
    ];
    const { cookie } = await signedIn("admin");
    const urlOf = (id: string) => `/dashboard/manageOrders/${id}`;
    const key = await keyOf(adminOrderLoader(loaderArgs(getRequest(urlOf(orderA.id), { cookie }), { id: orderA.id })));
    const fields = {
      intent: "record-payment",
      amount: "1000",
      receivedOn: new Date().toISOString().slice(0, 10),
      method: "bank-transfer",
      reference: "BACS 77",
      idempotencyKey: key,
    };
    const post = (id: string) =>
      settle(adminOrderAction(actionArgs(postRequest(urlOf(id), fields, { cookie }), { id })));

    const paidA = await post(orderA.id);
    expect(paidA.status).toBe(302);
    await refusedAsAnotherForm(await post(orderB.id));
    expect((await Order.findById(orderB.id).lean())!.payments ?? []).toHaveLength(0);
    expect((await Order.findById(orderB.id).lean())!.paidCents ?? 0).toBe(0);
    // Its own order still gets its own answer again.
    const again = await post(orderA.id);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe(paidA.headers.get("Location"));
    expect((await Order.findById(orderA.id).lean())!.payments).toHaveLength(1);
  });

  test("part A's order key on part B's page, and the pad's key on a part page: refused, no order placed", async () => {
    const [partA, partB] = [
      await createPart({ minOrderQuantity: 100, availableQuantity: 1000 }),
      await createPart({ minOrderQuantity: 100, availableQuantity: 1000 }),
    ];
    const { user, cookie } = await signedIn();
    const keyA = await keyOf(partLoader(loaderArgs(getRequest(`/parts/${partA.id}`, { cookie }), { id: partA.id })));
    const fields = { ...delivery, quantity: "150", idempotencyKey: keyA };
    expect((await postPart(partA.id, fields, cookie)).status).toBe(302);
    await refusedAsAnotherForm(await postPart(partB.id, fields, cookie));
    expect(await Order.countDocuments({ userId: user.id })).toBe(1);
    expect((await Part.findById(partB.id).lean())!.availableQuantity).toBe(1000);

    // A key rendered on the quick-order pad (not used there yet) is not a key for a part page either.
    const padKey = await keyOf(padLoader(loaderArgs(getRequest("/dashboard/quick-order", { cookie }))));
    const pad = (fields: Record<string, string>) =>
      settle(padAction(actionArgs(postRequest("/dashboard/quick-order", fields, { cookie }))));
    expect(
      (await pad({ lines: `${partA.partNumber} 100`, ...delivery, idempotencyKey: padKey, intent: "order" })).status,
    ).toBe(302);
    await refusedAsAnotherForm(await postPart(partB.id, { ...fields, idempotencyKey: padKey }, cookie));
    expect(await Order.countDocuments({ userId: user.id })).toBe(2);
    expect((await Part.findById(partB.id).lean())!.availableQuantity).toBe(1000);
  });
});
