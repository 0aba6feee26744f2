/**
 * Saved lists through their real actions, loaders and API routes against the database: names,
 * sharing within a company (and nowhere else), the CSV upload's all or nothing, filling the cart
 * with the lines that can go in, and bad input refused with nothing written.
 */
import { describe, expect, test } from "vitest";
import { createApiKey } from "~/models/api-key.server";
import { Audit } from "~/models/audit.server";
import { Cart } from "~/models/cart.server";
import { Part } from "~/models/part.server";
import { SavedList } from "~/models/saved-list.server";
import { action as listsAction, loader as listsLoader } from "~/routes/dashboard.lists";
import { action as listAction, loader as listLoader } from "~/routes/dashboard.lists_.$id";
import { action as deleteAction } from "~/routes/dashboard.lists_.$id_.delete";
import { action as apiCreate, loader as apiLists } from "~/routes/api.v1.lists._index";
import { loader as apiList } from "~/routes/api.v1.lists.$id._index";
import { action as apiCart } from "~/routes/api.v1.lists.$id.cart";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { expectFieldError, toastOf } from "./ordering.helpers";

const post = (path: string, fields: Record<string, string | string[]>, cookie: string, id?: string) =>
  settle(
    (id === undefined ? listsAction : listAction)(actionArgs(postRequest(path, fields, { cookie }), id ? { id } : {})),
  );
const view = (id: string, cookie: string) =>
  settle(listLoader(loaderArgs(getRequest(`/dashboard/lists/${id}`, { cookie }), { id })));

async function person(company?: { id: string; role: "owner" | "buyer" | "accounts" }) {
  const user = await createUser(company ? { company } : {});
  return { user, cookie: await sessionCookieHeader(user.id) };
}

async function newList(cookie: string, name: string, shared = false) {
  const response = await post(
    "/dashboard/lists",
    { intent: "create", name, ...(shared ? { shared: "on" } : {}) },
    cookie,
  );
  expect(response.status).toBe(302);
  return response.headers.get("Location")!.split("/").pop()!;
}

function api(token: string, path: string, method = "GET", body?: unknown) {
  return new Request(`http://localhost/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

describe("saved lists", () => {
  test("a name is the owner's once, whatever its case; bad input is refused by its field and writes nothing", async () => {
    const { user, cookie } = await person();
    const part = await createPart({ minOrderQuantity: 100 });
    const id = await newList(cookie, "Monthly restock");
    const again = await post("/dashboard/lists", { intent: "create", name: "  monthly RESTOCK " }, cookie);
    await expectFieldError(
      again,
      "name",
      "You already have a list called “monthly RESTOCK”: choose another name.",
      409,
    );
    await expectFieldError(
      await post("/dashboard/lists", { intent: "create", name: "x".repeat(81) }, cookie),
      "name",
      /at most 80/,
    );
    const path = `/dashboard/lists/${id}`;
    await expectFieldError(
      await post(path, { intent: "add", partNumber: part.partNumber, quantity: "50" }, cookie, id),
      "quantity",
      `The minimum order of ${part.partNumber} is 100 units`,
    );
    await expectFieldError(
      await post(path, { intent: "add", partNumber: "NO-SUCH-PART", quantity: "100" }, cookie, id),
      "partNumber",
      /Unknown part number/,
    );
    await expectFieldError(
      await post(path, { intent: "add", partNumber: part.partNumber, quantity: "100001" }, cookie, id),
      "quantity",
      /at most 100,000/,
    );
    expect(await SavedList.countDocuments({ ownerId: user.id })).toBe(1);
    expect((await SavedList.findById(id).lean())?.lines).toEqual([]);
    // The same part twice is one line.
    await post(path, { intent: "add", partNumber: part.partNumber.toLowerCase(), quantity: "100" }, cookie, id);
    await post(path, { intent: "add", partNumber: part.partNumber, quantity: "150" }, cookie, id);
    expect((await SavedList.findById(id).lean())?.lines.map((line) => line.quantity)).toEqual([250]);
  });

  test("a shared list: colleagues see it and fill their cart from it, another company gets a 404, the audit log has it", async () => {
    const owner = await person();
    const buyer = await person({ id: owner.user.companyId, role: "buyer" });
    const stranger = await person();
    const [a, b] = await Promise.all([
      createPart({ minOrderQuantity: 100, availableQuantity: 1000 }),
      createPart({ minOrderQuantity: 100, availableQuantity: 1000 }),
    ]);
    const id = await newList(owner.cookie, "Workshop", true);
    const path = `/dashboard/lists/${id}`;
    for (const [part, quantity] of [
      [a, "200"],
      [b, "300"],
    ] as const) {
      expect(
        (await post(path, { intent: "add", partNumber: part.partNumber, quantity }, owner.cookie, id)).status,
      ).toBe(302);
    }
    expect(await Audit.exists({ action: "saved-list.create", actorId: owner.user.id })).toBeTruthy();

    const seen = (await (
      await settle(listsLoader(loaderArgs(getRequest("/dashboard/lists", { cookie: buyer.cookie }))))
    ).json()) as {
      lists: { name: string; ownerName: string; mine: boolean }[];
    };
    expect(seen.lists).toEqual([
      expect.objectContaining({ name: "Workshop", mine: false, ownerName: owner.user.name }),
    ]);
    expect((await view(id, buyer.cookie)).status).toBe(200);
    // Only the owner (or a company owner) changes it.
    expect((await post(path, { intent: "rename", name: "Mine now" }, buyer.cookie, id)).status).toBe(409);
    expect((await view(id, stranger.cookie)).status).toBe(404);
    expect((await post(path, { intent: "cart-all" }, stranger.cookie, id)).status).toBe(404);

    // One part ran out: the other goes in, the empty one is named with the reason.
    await Part.updateOne({ _id: b.id }, { $set: { availableQuantity: 0, onHand: 0 } });
    const filled = await post(path, { intent: "cart-all" }, buyer.cookie, id);
    expect(filled.status).toBe(302);
    expect(filled.headers.get("Location")).toBe("/dashboard/cart");
    const toast = await toastOf(filled);
    expect(toast?.message).toBe("1 line added to your cart");
    expect(toast?.description).toContain(`${b.partNumber} ${b.name}: Only 0 units are available`);
    const cart = await Cart.findOne({ userId: buyer.user.id }).lean();
    expect(cart?.lines.map((line) => [line.partId.toString(), line.quantity])).toEqual([[a.id, 200]]);

    // Unshared, it is the owner's alone again; deleting a shared one is audited.
    expect((await post(path, { intent: "share" }, owner.cookie, id)).status).toBe(302);
    expect((await view(id, buyer.cookie)).status).toBe(404);
    await post(path, { intent: "share", shared: "on" }, owner.cookie, id);
    expect(await Audit.exists({ action: "saved-list.share", actorId: owner.user.id })).toBeTruthy();
    const deleted = await settle(
      deleteAction(actionArgs(postRequest(`${path}/delete`, { intent: "delete" }, { cookie: owner.cookie }), { id })),
    );
    expect(deleted.status).toBe(302);
    expect(await SavedList.exists({ _id: id })).toBeNull();
    expect(await Audit.exists({ action: "saved-list.delete", actorId: owner.user.id })).toBeTruthy();
  });

  test("a CSV file with one bad line saves nothing and lists the line; a good one makes the list", async () => {
    const { user, cookie } = await person();
    const part = await createPart({ minOrderQuantity: 100 });
    const upload = (text: string, name: string) => {
      const form = new FormData();
      form.set("intent", "upload");
      form.set("name", name);
      form.set("file", new File([text], "list.csv", { type: "text/csv" }));
      return settle(
        listsAction({
          request: new Request("http://localhost/dashboard/lists", {
            method: "POST",
            body: form,
            headers: { Cookie: cookie },
          }),
          params: {},
          context: testContext(),
        }),
      );
    };
    const bad = await upload(
      `part number,quantity\n${part.partNumber},200\nNO-SUCH-PART,100\n${part.partNumber},ten\n`,
      "From file",
    );
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { problems: { line: number; message: string }[] };
    expect(body.problems.map((problem) => problem.line)).toEqual([3, 4]);
    expect(body.problems[1].message).toBe("“ten” is not a whole number of units");
    expect(await SavedList.countDocuments({ ownerId: user.id })).toBe(0);
    const good = await upload(`Part Number,Quantity\n${part.partNumber},200\n${part.partNumber},100\n`, "From file");
    expect(good.status).toBe(302);
    const saved = await SavedList.findOne({ ownerId: user.id }).lean();
    expect(saved?.lines.map((line) => [line.partNumber, line.quantity])).toEqual([[part.partNumber, 300]]);
  });

  test("the API: create by part number, read mine and shared, another company's is a 404, into the cart", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const part = await createPart({ minOrderQuantity: 100, availableQuantity: 500 });
    const key = async (user: typeof owner) =>
      (await createApiKey({ ownerId: user.id, companyId: user.companyId, name: "ERP", scopes: ["read", "order"] }))
        .token;
    const [token, otherToken] = await Promise.all([key(owner), key(stranger)]);
    const run = (handler: typeof apiCreate, request: Request, params: Record<string, string> = {}) =>
      handler({ request, params, context: testContext() });

    const refused = await run(
      apiCreate,
      api(token, "/lists", "POST", { name: "ERP", lines: [{ partNumber: "NO-SUCH-PART", quantity: 100 }] }),
    );
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { field: string }[] }).errors[0].field).toBe("lines.0.partNumber");
    expect(await SavedList.countDocuments({ ownerId: owner.id })).toBe(0);

    const created = await run(
      apiCreate,
      api(token, "/lists", "POST", { name: "ERP", lines: [{ partNumber: part.partNumber, quantity: 400 }] }),
    );
    expect(created.status).toBe(201);
    const list = (await created.json()) as { id: string; mine: boolean; lines: { quantity: number }[] };
    expect(list).toMatchObject({ mine: true, lines: [{ quantity: 400 }] });
    expect((await run(apiCreate, api(token, "/lists", "POST", { name: "erp" }))).status).toBe(409);

    const all = (await (await run(apiLists, api(token, "/lists"))).json()) as { data: { id: string }[] };
    expect(all.data.map((each) => each.id)).toEqual([list.id]);
    expect((await run(apiList, api(otherToken, `/lists/${list.id}`), { id: list.id })).status).toBe(404);
    expect((await run(apiCart, api(otherToken, `/lists/${list.id}/cart`, "POST"), { id: list.id })).status).toBe(404);

    const carted = await run(apiCart, api(token, `/lists/${list.id}/cart`, "POST"), { id: list.id });
    expect(await carted.json()).toEqual({ added: 1, refused: [] });
    // Twice is past the stock: refused with the reason, the cart as it was.
    const twice = (await (
      await run(apiCart, api(token, `/lists/${list.id}/cart`, "POST"), { id: list.id })
    ).json()) as {
      added: number;
      refused: { reason: string }[];
    };
    expect(twice.added).toBe(0);
    expect(twice.refused[0].reason).toBe("Only 500 units are available (400 already in your cart)");
    expect((await Cart.findOne({ userId: owner.id }).lean())?.lines.map((line) => line.quantity)).toEqual([400]);
  });
});
