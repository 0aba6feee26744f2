/**
 * Staff say why they cancel a paid order or remove an unpaid one: the reason is required on the screens
 * (3 to 300 characters; otherwise 400 with the message at the field and nothing written), optional in the
 * staff API (callers that send no body keep working), kept on the order, and read by the customer on their
 * order page and in the mail. A cancelled paid order reads as where its money went, never as paid.
 */
import { describe, expect, test } from "vitest";
import { createApiKey } from "~/models/api-key.server";
import { getOrderById } from "~/orders/model/reads.server";
import { action as manageOrdersAction } from "~/routes/dashboard.manageOrders";
import { action as staffOrderAction } from "~/routes/dashboard.manageOrders_.$id._index";
import { action as removePageAction } from "~/routes/dashboard.manageOrders_.$id.remove";
import { action as apiCancelAction } from "~/routes/api.v1.staff.orders.$id.cancel";
import { action as customerCancelAction } from "~/routes/dashboard.orders_.$id.cancel";
import { formatCents } from "~/format";
import { Outbox } from "~/models/outbox.server";
import { placeOrder } from "~/orders/checkout.server";
import { DETROIT } from "../fixtures/addresses";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { waitForMail } from "../setup/mail";
import { createOrder } from "../setup/order-factories";
import { paidOrder } from "../setup/paid-orders";
import { actionArgs, fetchPage, pageText, postRequest, settle, testContext } from "../setup/requests";

const REASON = "The customer asked us by phone: wrong parts ordered";

async function adminCookie() {
  return sessionCookieHeader((await createUser({ role: "admin" })).id);
}

/** The field errors of a Conform reply (the route's answer body), by field. */
async function fieldErrors(response: Response) {
  const body = (await response.json()) as {
    result?: { error?: Record<string, string[]> };
    error?: Record<string, string[]>;
  };
  return (body.result ?? body).error ?? {};
}

describe("a cancellation's reason", () => {
  test("staff cancelling a paid order must say why; the customer reads it on the order page and in the mail, and where the money went", async () => {
    const { order, user } = await paidOrder(40, "bank-transfer");
    const cookie = await adminCookie();
    const post = (fields: Record<string, string>) =>
      settle(
        staffOrderAction(
          actionArgs(postRequest(`/dashboard/manageOrders/${order.id}`, fields, { cookie }), { id: order.id }),
        ),
      );

    for (const [reason, message] of [
      [undefined, /Say why the order is cancelled/],
      ["ab", /at least 3 characters/],
      ["x".repeat(301), /at most 300 characters/],
      ["two\nlines", /line breaks/],
    ] as const) {
      const refused = await post({
        intent: "cancel-paid",
        confirm: "yes",
        ...(reason === undefined ? {} : { reason }),
      });
      expect(refused.status).toBe(400);
      expect((await fieldErrors(refused)).reason?.join(" ")).toMatch(message);
      const unchanged = (await getOrderById(order.id))!;
      expect(unchanged.status).toBe("paid");
      expect(unchanged.cancelReason).toBeNull();
    }

    expect((await post({ intent: "cancel-paid", confirm: "yes", reason: `  ${REASON}  ` })).status).toBe(302);
    const cancelled = (await getOrderById(order.id))!;
    expect(cancelled).toMatchObject({ status: "cancelled", cancelReason: REASON });

    // The customer's order page: the state, where the money went, the way to ask for it, and why.
    const customerCookie = await sessionCookieHeader(user.id);
    const page = await pageText(await fetchPage(`/dashboard/orders/${order.id}`, customerCookie));
    expect(page).toContain("Cancelled · credited");
    expect(page).toContain(
      `Cancelled, ${formatCents(order.totalCents)} credited to your account: it comes off your next order, or ask us to pay it out.`,
    );
    expect(page).toContain("Ask us to pay it out");
    expect(page).toContain(`Why we cancelled it: ${REASON}`);
    expect(page).not.toContain("it comes off what you owe us");

    // My Orders: cancelled and credited, not paid.
    const list = await fetchPage("/dashboard/orders", customerCookie);
    const row = (await list.text()).split(`data-testid="order-${order.id}"`)[1]?.split("</tr>")[0] ?? "";
    expect(await pageText(new Response(row))).toContain("Cancelled · credited");
    expect(row).not.toContain(">Paid<");

    const [mail] = await waitForMail(user.email, {
      subject: new RegExp(`We cancelled your PartsWorks order ${order.number}`),
    });
    expect(mail.text).toContain(`Why we cancelled it: ${REASON}`);
  });

  test("an invoice on account cancelled by staff is told by its credit note, never as an unpaid order removed", async () => {
    const user = await createUser();
    const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 1, priceCents: 1_000 });
    const placed = await placeOrder({
      lines: [{ partId: part.id, quantity: 20 }],
      phone: "+1 555 0100",
      delivery: { ...DETROIT, line1: "7 Terms Road" },
      user,
      onAccount: { termsDays: 30 },
      payment: "account",
    });
    if (!placed.ok) throw new Error("not placed");
    const cookie = await adminCookie();
    const cancelled = await settle(
      staffOrderAction(
        actionArgs(
          postRequest(
            `/dashboard/manageOrders/${placed.order.id}`,
            { intent: "cancel-paid", confirm: "yes", reason: REASON },
            { cookie },
          ),
          { id: placed.order.id },
        ),
      ),
    );
    expect(cancelled.status).toBe(302);
    const [mail] = await waitForMail(user.email, {
      subject: new RegExp(`We cancelled your PartsWorks order ${placed.order.number}`),
    });
    expect(mail.text).toContain(`Why we cancelled it: ${REASON}`);
    expect(await Outbox.exists({ _id: `order:${placed.order.id}:removed` })).toBeNull();
  });

  test("staff removing an unpaid order must say why, from the list's modal and from the page; the customer reads it", async () => {
    const user = await createUser({ name: "Rhea Removed" });
    const [fromList, fromPage] = [await createOrder({ user }), await createOrder({ user })];
    const cookie = await adminCookie();
    const fromListPost = (fields: Record<string, string>) =>
      settle(manageOrdersAction(actionArgs(postRequest("/dashboard/manageOrders", fields, { cookie }))));
    const fromPagePost = (fields: Record<string, string>) =>
      settle(
        removePageAction(
          actionArgs(postRequest(`/dashboard/manageOrders/${fromPage.id}/remove`, fields, { cookie }), {
            id: fromPage.id,
          }),
        ),
      );

    const noReason = await fromListPost({ intent: "remove", orderId: fromList.id });
    expect(noReason.status).toBe(400);
    expect((await fieldErrors(noReason)).reason?.join(" ")).toMatch(/Say why the order is cancelled/);
    const short = await fromPagePost({ intent: "remove", orderId: fromPage.id, reason: "no" });
    expect(short.status).toBe(400);
    expect((await fieldErrors(short)).reason?.join(" ")).toMatch(/at least 3 characters/);
    for (const id of [fromList.id, fromPage.id]) expect((await getOrderById(id))!.status).toBe("unpaid");

    expect(
      (await fromListPost({ intent: "remove", orderId: fromList.id, reason: "Duplicate of another order" })).status,
    ).toBe(302);
    const removed = await fromPagePost({ intent: "remove", orderId: fromPage.id, reason: REASON });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe("/dashboard/manageOrders");
    expect(await getOrderById(fromList.id)).toMatchObject({
      status: "removed",
      cancelReason: "Duplicate of another order",
    });
    expect(await getOrderById(fromPage.id)).toMatchObject({ status: "removed", cancelReason: REASON });

    const page = await pageText(
      await fetchPage(`/dashboard/orders/${fromPage.id}`, await sessionCookieHeader(user.id)),
    );
    expect(page).toContain(`Why we removed it: ${REASON}`);
    const number = (await getOrderById(fromPage.id))!.number;
    const [mail] = await waitForMail(user.email, { subject: `PartsWorks removed your unpaid order ${number}` });
    expect(mail.text).toContain(`Why we removed it: ${REASON}`);
  });

  test("the staff API takes an optional reason: no body as before, a reason kept, a bad one refused with nothing written", async () => {
    const admin = await createUser({ role: "admin" });
    const { token } = await createApiKey({ ownerId: admin.id, companyId: null, name: "Factory", scopes: ["payments"] });
    const cancel = (orderId: string, body?: unknown) =>
      apiCancelAction({
        request: new Request(`http://localhost/api/v1/staff/orders/${orderId}/cancel`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        params: { id: orderId },
        context: testContext(),
      });

    const [plain, reasoned] = [(await paidOrder(20, "bank-transfer")).order, (await paidOrder(20, "card")).order];
    const noBody = await cancel(plain.id);
    expect(noBody.status).toBe(200);
    expect(await getOrderById(plain.id)).toMatchObject({ status: "cancelled", cancelReason: null });

    const tooShort = await cancel(reasoned.id, { reason: "x" });
    expect(tooShort.status).toBe(422);
    expect(JSON.stringify(await tooShort.json())).toContain("reason");
    expect((await getOrderById(reasoned.id))!.status).toBe("paid");
    expect((await cancel(reasoned.id, { reason: 42 })).status).toBe(422);

    const withReason = await cancel(reasoned.id, { reason: REASON });
    expect(withReason.status).toBe(200);
    expect(await getOrderById(reasoned.id)).toMatchObject({ status: "cancelled", cancelReason: REASON });
  });

  test("a customer cancels their own unpaid order without a reason", async () => {
    const user = await createUser();
    const order = await createOrder({ user });
    const cookie = await sessionCookieHeader(user.id);
    const done = await settle(
      customerCancelAction(
        actionArgs(postRequest(`/dashboard/orders/${order.id}/cancel`, { confirm: "cancel" }, { cookie }), {
          id: order.id,
        }),
      ),
    );
    expect(done.status).toBe(302);
    expect(await getOrderById(order.id)).toMatchObject({ status: "cancelled", cancelReason: null });
  });
});
