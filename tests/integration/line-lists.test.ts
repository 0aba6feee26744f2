/**
 * The forms with a row per order line (a return request, staff's receipt of a return, a parcel),
 * posted to the running shop as a browser without JavaScript posts them: a list sent as anything but
 * its rows (`lines=5`, `lines.quantity=5`, a row's field twice) is a 400 page that says what to do,
 * never a 500 from rendering it, and nothing is written.
 */
import { describe, expect, test } from "vitest";
import { MALFORMED_LIST } from "~/forms/list-fields";
import { placeOrder } from "~/orders/checkout.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { askForReturn, decideOnReturn } from "~/orders/returns.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { pageText } from "../setup/requests";
import { DETROIT } from "../fixtures/addresses";

const SHOP = process.env.SHOP_URL!;
const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };

/** A paid order of 200 units, 100 of them shipped. */
async function partShippedOrder() {
  const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 100 });
  const user = await createUser();
  const placed = await placeOrder({
    lines: [{ partId: part.id, quantity: 200 }],
    phone: "+1 555 0100",
    delivery: { ...DETROIT, line1: "1 List Lane" },
    user,
  });
  if (!placed.ok) throw new Error("not placed");
  const { order } = placed;
  const paid = await recordPayment(
    order.id,
    { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "TEST" },
    staff,
  );
  if (!paid.ok) throw new Error(paid.message);
  const sent = await shipOrder(
    order.id,
    { carrier: "ups", trackingNumber: "1Z999", lines: [{ lineIndex: 0, quantity: 100 }] },
    { ...staff, current: await getOrderById(order.id) },
  );
  if (!sent.ok) throw new Error(sent.message);
  return { user, order: sent.order };
}

const postPage = (path: string, entries: [string, string][], cookie: string) =>
  fetch(`${SHOP}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: SHOP, Cookie: cookie },
    body: new URLSearchParams(entries),
  });

const MALFORMED: [string, string][][] = [
  [["lines", "5"]],
  [["lines.quantity", "5"]],
  [["lines[0]", "5"]],
  [
    ["lines[0].quantity", "5"],
    ["lines[0].quantity", "5"],
  ],
];

async function expectRefused(response: Response, sent: [string, string][]) {
  expect(response.status, JSON.stringify(sent)).toBe(400);
  expect(await pageText(response)).toContain(MALFORMED_LIST);
}

describe("a list of lines sent as anything but its rows", () => {
  test("the customer's return form answers 400 with what to do, and asks for no return", async () => {
    const { user, order } = await partShippedOrder();
    const cookie = await sessionCookieHeader(user.id);
    for (const lines of MALFORMED) {
      const sent: [string, string][] = [...lines, ["reason", "damaged"]];
      await expectRefused(await postPage(`/dashboard/orders/${order.id}/return`, sent, cookie), sent);
    }
    expect((await Order.findById(order.id).lean())!.returns ?? []).toEqual([]);
  });

  test("the ship form and staff's receipt of a return answer 400 with what to do, and ship or receive nothing", async () => {
    const { user, order } = await partShippedOrder();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    for (const lines of MALFORMED) {
      const sent: [string, string][] = [["intent", "ship"], ...lines, ["carrier", "ups"], ["trackingNumber", "1Z2"]];
      await expectRefused(await postPage(`/dashboard/manageOrders/${order.id}`, sent, cookie), sent);
    }
    const after = (await Order.findById(order.id).lean())!;
    expect(after.shipments).toHaveLength(1);
    expect(after.lines[0].shippedQuantity).toBe(100);

    const asked = await askForReturn(
      order.id,
      {
        lines: [{ lineIndex: 0, quantity: 5 }],
        reason: "damaged",
        note: "",
        requestedBy: user.id,
        requestedByName: user.name,
      },
      { actor: { id: user.id, email: user.email } },
    );
    if (!asked.ok) throw new Error(asked.message);
    const approved = await decideOnReturn(order.id, asked.entry.id, { approve: true }, staff);
    if (!approved.ok) throw new Error(approved.message);
    for (const lines of MALFORMED) {
      const sent: [string, string][] = [["intent", "receive"], ...lines, ["condition", "restock"]];
      await expectRefused(
        await postPage(`/dashboard/manageOrders/${order.id}/returns/${asked.entry.id}`, sent, cookie),
        sent,
      );
    }
    expect((await Order.findById(order.id).lean())!.returns![0].status).toBe("approved");
  });
});
