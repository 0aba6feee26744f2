/**
 * Free text that reaches pages, documents, mail and the UBL invoice is plain text (app/domain/plain-text.ts):
 * control characters (NUL, ESC, …), bidi overrides and zero-width characters are refused at the
 * field, on the screens and in the API, and nothing is written.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { plainTextMessage } from "~/domain/plain-text";
import { ApiKey, createApiKey } from "~/models/api-key.server";
import { Company } from "~/models/company.server";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { Order } from "~/orders/model/schema.server";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as addPartAction } from "~/routes/dashboard.addProduct";
import { action as keysAction } from "~/routes/dashboard.apiKeys/route";
import { action as adminOrderAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as returnAction } from "~/routes/dashboard.orders_.$id.return";
import { action as signupAction } from "~/routes/signup";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { actionArgs, postRequest, settle, testContext } from "../setup/requests";
import { expectFieldError, signedIn } from "./ordering.helpers";
import { placeOrder } from "~/orders/checkout.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { getOrderById } from "~/orders/model/reads.server";
import { DETROIT } from "../fixtures/addresses";

const SHOP = process.env.SHOP_URL!;
const ESC = "\u001b";
const NUL = "\u0000";
const RLO = "\u202e";
const ZWSP = "\u200b";

const post = (
  action: (args: ReturnType<typeof actionArgs>) => Promise<unknown>,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
  params: Record<string, string> = {},
) =>
  settle(
    action({
      ...actionArgs(postRequest(path, fields, { cookie }), params),
      context: testContext({ clientIp: `198.51.100.${Math.floor(Math.random() * 250) + 1}` }),
    }),
  );

describe("people's and companies' names", () => {
  test("sign-up refuses a name with an escape sequence, and makes no account", async () => {
    const email = `plain-${randomUUID().slice(0, 8)}@example.com`;
    const response = await post(signupAction, "/signup", { name: `Eve${ESC}[2J`, email, password: "correct-horse-42" });
    await expectFieldError(response, "name", plainTextMessage("Name"));
    expect(await User.exists({ email })).toBeNull();
  });

  test("My Profile refuses a name with NUL and a company name with a bidi override; nothing changes", async () => {
    const user = await createUser({ name: "Carla Plain" });
    const cookie = await sessionCookieHeader(user.id);
    await expectFieldError(
      await post(profileAction, "/dashboard?index", { name: `Carla${NUL}`, number: "", address: "" }, cookie),
      "name",
      plainTextMessage("Name"),
    );
    await expectFieldError(
      await post(profileAction, "/dashboard?index", { intent: "company", companyName: `Acme ${RLO}dtL` }, cookie),
      "companyName",
      plainTextMessage("Company name"),
    );
    expect((await User.findById(user.id).lean())!.name).toBe("Carla Plain");
    expect((await Company.findById(user.companyId).lean())!.companyName ?? "").not.toContain(RLO);
  });
});

describe("notes, labels and part texts", () => {
  test("a return note with NUL and ESC is refused; line breaks stay allowed", async () => {
    const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 100 });
    const user = await createUser();
    const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
    const placed = await placeOrder({
      lines: [{ partId: part.id, quantity: 100 }],
      phone: "+1 555 0100",
      delivery: { ...DETROIT, line1: "1 Plain Road" },
      user,
    });
    if (!placed.ok) throw new Error("not placed");
    const order = placed.order;
    await recordPayment(
      order.id,
      { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "T" },
      staff,
    );
    const shipped = await shipOrder(
      order.id,
      { carrier: "ups", trackingNumber: "1Z1", lines: [{ lineIndex: 0, quantity: 100 }] },
      { ...staff, current: await getOrderById(order.id) },
    );
    if (!shipped.ok) throw new Error(shipped.message);
    const cookie = await sessionCookieHeader(user.id);
    const path = `/dashboard/orders/${order.id}/return`;
    const fields = { "lines[0].quantity": "5", reason: "damaged" };
    await expectFieldError(
      await post(returnAction, path, { ...fields, note: `bent${NUL}${ESC}[0m` }, cookie, { id: order.id }),
      "note",
      plainTextMessage("A note", { multiline: true }),
    );
    expect((await Order.findById(order.id).lean())!.returns ?? []).toEqual([]);
    const fine = await post(returnAction, path, { ...fields, note: "Two bent\r\nOne fine" }, cookie, { id: order.id });
    expect(fine.status).toBe(302);
  });

  test("a part's name with a zero-width space and a description with ESC are refused", async () => {
    const { cookie } = await signedIn("admin");
    const name = `Brake${ZWSP}Caliper ${randomUUID().slice(0, 6)}`;
    const part = {
      name,
      description: "Two-piston caliper.",
      img: "https://images.example.com/caliper.png",
      quantity: "800",
      price: "37",
      minOrderQuantity: "100",
      category: "brakes",
    };
    await expectFieldError(
      await post(addPartAction, "/dashboard/addProduct", part, cookie),
      "name",
      plainTextMessage("Name"),
    );
    await expectFieldError(
      await post(
        addPartAction,
        "/dashboard/addProduct",
        { ...part, name: "Caliper", description: `Red${ESC}[31m` },
        cookie,
      ),
      "description",
      plainTextMessage("Description", { multiline: true }),
    );
    expect(await Part.exists({ name })).toBeNull();
  });

  test("an API key's name and a payment's reference on the order's page are refused with controls", async () => {
    const { user, cookie } = await signedIn();
    const key = await post(
      keysAction,
      "/dashboard/apiKeys",
      { intent: "create", name: `ERP${ESC}`, scopes: "read" },
      cookie,
    );
    expect(key.status).toBe(400);
    expect(JSON.stringify(await key.json())).toContain(plainTextMessage("A key's name"));
    expect(await ApiKey.exists({ ownerId: user.id })).toBeNull();

    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const admin = await signedIn("admin");
    const response = await post(
      adminOrderAction,
      `/dashboard/manageOrders/${order.id}`,
      {
        intent: "record-payment",
        amount: "100",
        receivedOn: new Date().toISOString().slice(0, 10),
        method: "bank-transfer",
        reference: `BACS${NUL}1`,
      },
      admin.cookie,
      { id: order.id },
    );
    await expectFieldError(response, "reference", plainTextMessage("A reference"));
    expect((await Order.findById(order.id).lean())!.payments ?? []).toHaveLength(0);
  });
});

describe("the API", () => {
  test("a payment's reference with ESC and a payout's with a bidi override are refused with 422 at the field", async () => {
    const customer = await createUser();
    const order = await createOrder({ user: customer, part: await createPart({ priceCents: 1_000 }), quantity: 100 });
    const admin = await createUser({ role: "admin" });
    const { token } = await createApiKey({ ownerId: admin.id, companyId: null, name: "Factory", scopes: ["payments"] });
    const response = await fetch(`${SHOP}/api/v1/staff/orders/${order.id}/payments`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        amount: 100,
        receivedOn: new Date().toISOString().slice(0, 10),
        method: "bank-transfer",
        reference: `BACS${ESC}[2J`,
      }),
    });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { field: string; message: string }[] };
    expect(problem.errors).toContainEqual({ field: "reference", message: plainTextMessage("A reference") });
    expect((await Order.findById(order.id).lean())!.payments ?? []).toHaveLength(0);

    const payout = await fetch(`${SHOP}/api/v1/staff/orders/${order.id}/credit-notes/${"0".repeat(24)}/payout`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ reference: `BACS ${RLO}1` }),
    });
    expect(payout.status).toBe(422);
    const refused = (await payout.json()) as { errors: { field: string; message: string }[] };
    expect(refused.errors).toContainEqual({ field: "reference", message: plainTextMessage("A reference") });
  });
});
