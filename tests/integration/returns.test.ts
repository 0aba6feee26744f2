/**
 * Returns (RMA) through the real routes and services against the local database: a customer asks
 * to return shipped units, staff approve (an RMA number, mailed) or decline, then record what came
 * back; units back to stock raise the part and go to a waiting backorder first. Refused: more than
 * shipped, the same units twice, two returns of one line at once (one wins), after the window, a
 * return received twice; bad input is refused at the field with nothing written.
 */
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { checkStock } from "~/orders/model/stock-check.server";
import { placeOrder } from "~/orders/checkout.server";
import { getOrderById } from "~/orders/model/reads.server";
import { Order } from "~/orders/model/schema.server";
import { settleLeftReturns } from "~/orders/model/returns.server";
import { askForReturn, decideOnReturn, receiveReturnedParts } from "~/orders/returns.server";
import { recordPayment } from "~/orders/service.server";
import { shipOrder } from "~/orders/warehouse.server";
import { action as returnAction, loader as returnLoader } from "~/routes/dashboard.orders_.$id.return";
import { action as staffReturnAction } from "~/routes/dashboard.manageOrders_.$id.returns.$returnId";
import { orderTimeline } from "~/domain/order-timeline";
import { eventBody } from "~/orders/webhook-events.server";
import { loader as shopTodayLoader } from "~/routes/dashboard.admin";
import { loader as rmaLoader } from "~/routes/documents.$id.rma.$number";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DETROIT } from "../fixtures/addresses";

const delivery = { phone: "+1 555 0100", delivery: { ...DETROIT, line1: "1 Return Road" } };
const staff = { actor: { id: "000000000000000000000000", email: "staff@example.com" } };
const DAY = 24 * 60 * 60 * 1000;

/** A paid order of `quantity` units, shipped whole (or `shipped` of them). */
async function shippedOrder(quantity = 200, shipped = quantity) {
  const part = await createPart({ availableQuantity: 1000, minOrderQuantity: 100 });
  const user = await createUser();
  const placed = await placeOrder({ lines: [{ partId: part.id, quantity }], ...delivery, user });
  if (!placed.ok) throw new Error("not placed");
  const order = placed.order;
  const paid = await recordPayment(
    order.id,
    { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "TEST" },
    staff,
  );
  if (!paid.ok) throw new Error(paid.message);
  const current = await getOrderById(order.id);
  const sent = await shipOrder(
    order.id,
    { carrier: "ups", trackingNumber: "1Z999", lines: [{ lineIndex: 0, quantity: shipped }] },
    { ...staff, current },
  );
  if (!sent.ok) throw new Error(sent.message);
  return { part, user, order: sent.order };
}

const ask = (orderId: string, user: { id: string; name: string; email: string }, quantity: number) =>
  askForReturn(
    orderId,
    {
      lines: [{ lineIndex: 0, quantity }],
      reason: "damaged",
      note: "",
      requestedBy: user.id,
      requestedByName: user.name,
    },
    { actor: { id: user.id, email: user.email } },
  );

const partDoc = async (id: string) => (await Part.findById(id).lean())!;

describe("returns", () => {
  test("a customer returns a damaged line: staff approve, receive and restock; a waiting backorder gets the units first", async () => {
    const { part, user, order } = await shippedOrder(200);
    const cookie = await sessionCookieHeader(user.id);
    const path = `/dashboard/orders/${order.id}/return`;

    const page = await (await settle(returnLoader(loaderArgs(getRequest(path, { cookie }), { id: order.id })))).json();
    expect(page.order.lines[0].returnable).toBe(200);

    const asked = await settle(
      returnAction(
        actionArgs(
          postRequest(
            path,
            { "lines[0].quantity": "30", reason: "damaged", note: "Crushed box, cracked pads" },
            { cookie },
          ),
          { id: order.id },
        ),
      ),
    );
    expect(asked.status).toBe(302);
    let current = (await getOrderById(order.id))!;
    expect(current.returns).toHaveLength(1);
    const entry = current.returns[0];
    expect(entry).toMatchObject({
      status: "requested",
      reason: "damaged",
      number: null,
      note: "Crushed box, cracked pads",
    });
    expect(current.lines[0].returnedQuantity).toBe(30);

    // Another customer waits on backorder for this part: the restocked units go to them first.
    await Part.updateOne({ _id: part.id }, { $set: { backorderable: true, leadTimeDays: 14 } });
    const before = await partDoc(part.id);
    const waiting = await createUser();
    const backordered = await placeOrder({
      lines: [{ partId: part.id, quantity: before.availableQuantity + 120 }],
      ...delivery,
      user: waiting,
    });
    if (!backordered.ok) throw new Error("not placed");
    expect(backordered.order.lines[0].backorderedQuantity).toBe(120);

    const admin = await createUser({ role: "admin" });
    const adminCookie = await sessionCookieHeader(admin.id);
    const staffPath = `/dashboard/manageOrders/${order.id}/returns/${entry.id}`;
    const staffPost = (fields: Record<string, string>) =>
      settle(
        staffReturnAction(
          actionArgs(postRequest(staffPath, fields, { cookie: adminCookie }), { id: order.id, returnId: entry.id }),
        ),
      );

    const shopToday = async () => {
      const response = await settle(
        shopTodayLoader(loaderArgs(getRequest("/dashboard/admin", { cookie: adminCookie }))),
      );
      const { returns } = (await response.json()) as { returns: { entry: { id: string; status: string } }[] };
      return returns.find((open) => open.entry.id === entry.id)?.entry.status ?? null;
    };
    expect(await shopToday()).toBe("requested");
    expect((await staffPost({ intent: "approve" })).status).toBe(302);
    expect(await shopToday()).toBe("approved");
    current = (await getOrderById(order.id))!;
    expect(current.returns[0].status).toBe("approved");
    expect(current.returns[0].number).toMatch(/^RMA-\d{6}$/);
    // Approving twice: the second is told, nothing changes.
    const again = await staffPost({ intent: "approve" });
    expect(again.status).toBe(409);

    // Receiving more than approved is refused at the line.
    const tooMany = await staffPost({
      intent: "receive",
      "lines[0].quantity": "31",
      "lines[0].condition": "restock",
    });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).result.error["lines[0].quantity"][0]).toMatch(/At most 30 units/);

    const onHand = (await partDoc(part.id)).onHand!;
    expect(
      (await staffPost({ intent: "receive", "lines[0].quantity": "30", "lines[0].condition": "restock" })).status,
    ).toBe(302);
    current = (await getOrderById(order.id))!;
    expect(current.returns[0]).toMatchObject({ status: "received", condition: "restock" });
    expect(current.returns[0].lines[0].receivedQuantity).toBe(30);
    const after = await partDoc(part.id);
    expect(after.onHand).toBe(onHand + 30);
    // All 30 went to the waiting backorder (120 waited).
    expect(after.availableQuantity).toBe(0);
    expect((await getOrderById(backordered.order.id))!.lines[0].backorderedQuantity).toBe(90);
    expect((await checkStock({ settleMs: 0 })).problems.filter((p) => p.partId === part.id)).toEqual([]);

    expect(await shopToday()).toBeNull();
    // Received twice: refused, and the stock rose once.
    expect(
      (await staffPost({ intent: "receive", "lines[0].quantity": "30", "lines[0].condition": "restock" })).status,
    ).toBe(409);
    expect((await partDoc(part.id)).onHand).toBe(onHand + 30);

    // Every step on the timeline, the audit log, mail and the order's pending events all written.
    const labels = orderTimeline(current, "customer").map((event) => event.event);
    expect(labels).toEqual(expect.arrayContaining(["return-requested", "return-approved", "return-received"]));
    const audits = await Audit.find({ targetId: order.id, action: /^order\.return-/ }).lean();
    expect(audits.map((a) => a.action).sort()).toEqual(
      ["order.return-approve", "order.return-receive", "order.return-request"].sort(),
    );
    const mail = await Outbox.find({ _id: { $regex: `^order:${order.id}:return:` } }).lean();
    expect(mail.map((m) => String(m._id).split(":").pop()).sort()).toEqual(["approved", "received", "requested"]);
    const approvedMail = mail.find((m) => String(m._id).endsWith(":approved"))!;
    expect(JSON.stringify(approvedMail)).toContain(current.returns[0].number!);
    // Where to send the parts, in full, and the label to print.
    expect(JSON.stringify(approvedMail)).toContain("Detroit, MI 48209");
    expect(JSON.stringify(approvedMail)).toContain(`/documents/${order.id}/rma/${current.returns[0].number}`);
    expect((await Order.findById(order.id).lean())!.eventsPending ?? []).not.toContain("return");
    // The webhook of the step names it, with the return in its data.
    const body = JSON.parse(eventBody({ type: "returnUpdated", order: current, returnId: entry.id }));
    expect(body).toMatchObject({ id: `evt_${order.id}_return_${entry.id}_received`, type: "order.return.received" });
    expect(body.data.return).toMatchObject({
      status: "received",
      condition: "restock",
      number: current.returns[0].number,
    });
  });

  test("each line is received in its own condition: good back on sale, damaged not; the default follows the reason; what came back is credited", async () => {
    const [good, cracked] = await Promise.all(
      [1, 2].map(() => createPart({ availableQuantity: 1000, minOrderQuantity: 100 })),
    );
    const user = await createUser();
    const placed = await placeOrder({
      lines: [
        { partId: good.id, quantity: 100 },
        { partId: cracked.id, quantity: 100 },
      ],
      ...delivery,
      user,
    });
    if (!placed.ok) throw new Error("not placed");
    const { order } = placed;
    await recordPayment(
      order.id,
      { amountCents: order.totalCents, method: "bank-transfer", receivedOn: new Date(), reference: "TWO" },
      staff,
    );
    const sent = await shipOrder(
      order.id,
      {
        carrier: "ups",
        trackingNumber: "1Z2",
        lines: [
          { lineIndex: 0, quantity: 100 },
          { lineIndex: 1, quantity: 100 },
        ],
      },
      { ...staff, current: await getOrderById(order.id) },
    );
    if (!sent.ok) throw new Error(sent.message);
    const approvedReturn = async (reason: "damaged" | "wrong-part-ordered", units: [number, number]) => {
      const asked = await askForReturn(
        order.id,
        {
          lines: units.map((quantity, lineIndex) => ({ lineIndex, quantity })),
          reason,
          note: "",
          requestedBy: user.id,
          requestedByName: user.name,
        },
        { actor: { id: user.id, email: user.email } },
      );
      if (!asked.ok) throw new Error(asked.message);
      await decideOnReturn(order.id, asked.entry.id, { approve: true }, staff);
      return asked.entry.id;
    };
    const stockOf = async () =>
      Promise.all([good, cracked].map(async (part) => (await partDoc(part.id)).availableQuantity));
    const before = await stockOf();

    // Staff's form: one condition per line of the return.
    const returnId = await approvedReturn("damaged", [10, 6]);
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const staffPath = `/dashboard/manageOrders/${order.id}/returns/${returnId}`;
    const staffPost = (fields: Record<string, string>) =>
      settle(staffReturnAction(actionArgs(postRequest(staffPath, fields, { cookie }), { id: order.id, returnId })));
    const both = {
      intent: "receive",
      "lines[0].quantity": "10",
      "lines[0].condition": "restock",
      "lines[1].quantity": "6",
      "lines[1].condition": "scrap",
    };
    // Bad input: a line the return does not have, an unknown condition; refused with a message, nothing written.
    const beyond = await staffPost({ ...both, "lines[2].quantity": "1", "lines[2].condition": "scrap" });
    expect(beyond.status).toBe(422);
    expect((await beyond.json()).result.error[""]).toEqual([
      "This return has 2 lines: line 3 is not in it. Reload the page and record what came back again.",
    ]);
    const unknown = await staffPost({ ...both, "lines[1].condition": "as-new" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).result.error["lines[1].condition"]).toEqual([
      "Choose good (back to stock), inspect or scrapped",
    ]);
    expect((await Order.findById(order.id).lean())!.returns![0].status).toBe("approved");
    expect(await stockOf()).toEqual(before);

    expect((await staffPost(both)).status).toBe(302);
    let current = (await getOrderById(order.id))!;
    expect(current.returns[0].lines.map((line) => [line.receivedQuantity, line.condition])).toEqual([
      [10, "restock"],
      [6, "scrap"],
    ]);
    // The good line is back on sale, the damaged one is not; both are credited.
    expect(await stockOf()).toEqual([before[0] + 10, before[1]]);
    expect(current.creditNotes.at(-1)!.lines.map((line) => line.quantity)).toEqual([10, 6]);
    // Its RMA document: for the order's customer and staff; anyone else gets a 404.
    const rma = current.returns[0].number!;
    const rmaPage = async (who: string) =>
      settle(
        rmaLoader(
          loaderArgs(getRequest(`/documents/${order.id}/rma/${rma}`, { cookie: who }), { id: order.id, number: rma }),
        ),
      );
    const shown = await rmaPage(await sessionCookieHeader(user.id));
    expect(shown.status).toBe(200);
    expect((await shown.json()).rma).toMatchObject({
      number: rma,
      returnsAddress: expect.arrayContaining(["200 Industrial Way", "Dock 4", "Detroit, MI 48209"]),
      lines: [
        { quantity: 10, receivedQuantity: 10, condition: "restock" },
        { quantity: 6, receivedQuantity: 6, condition: "scrap" },
      ].map((line) => expect.objectContaining(line)),
    });
    expect((await rmaPage(cookie)).status).toBe(200);
    expect((await rmaPage(await sessionCookieHeader((await createUser()).id))).status).toBe(404);
    const mine = [good.id, cracked.id];
    expect((await checkStock({ settleMs: 0 })).problems.filter((p) => mine.includes(p.partId))).toEqual([]);

    // No condition given: each line takes the one its reason starts at (damaged: inspect; wrong part ordered: good).
    const damaged = await approvedReturn("damaged", [5, 5]);
    const ordered = await approvedReturn("wrong-part-ordered", [3, 3]);
    for (const [id, units] of [
      [damaged, 5],
      [ordered, 3],
    ] as const)
      expect(
        (await receiveReturnedParts(order.id, id, { lines: [{ quantity: units }, { quantity: units }] }, staff)).ok,
      ).toBe(true);
    current = (await getOrderById(order.id))!;
    expect(current.returns.slice(1).map((entry) => entry.lines.map((line) => line.condition))).toEqual([
      ["inspect", "inspect"],
      ["restock", "restock"],
    ]);
    expect(await stockOf()).toEqual([before[0] + 10 + 3, before[1] + 3]);
  });

  test("two returns of the same line at once: one wins, the other is told; units never exceed what shipped", async () => {
    const { user, order } = await shippedOrder(200);
    const results = await Promise.all([ask(order.id, user, 200), ask(order.id, user, 200)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    // The loser either raced the winner's write (409) or read it and asked for units already in a return (422).
    const lost = results.find((r) => !r.ok);
    expect(lost).toMatchObject({ ok: false });
    if (lost && !lost.ok) expect([409, 422]).toContain(lost.status);
    const current = (await getOrderById(order.id))!;
    expect(current.returns).toHaveLength(1);
    expect(current.lines[0].returnedQuantity).toBe(200);

    // The same units again: refused at the line.
    const twice = await ask(order.id, user, 1);
    expect(twice).toMatchObject({ ok: false, status: 422, lineIndex: 0 });
    if (!twice.ok) expect(twice.message).toMatch(/At most 0 units .* 200 already in a return/);

    // Declined, the units may be asked for again.
    const declined = await decideOnReturn(
      order.id,
      current.returns[0].id,
      { approve: false, reason: "Not ours" },
      staff,
    );
    expect(declined.ok).toBe(true);
    expect((await getOrderById(order.id))!.lines[0].returnedQuantity).toBe(0);
    expect((await ask(order.id, user, 50)).ok).toBe(true);
  });

  test("more than shipped, nothing shipped, and after the return window are refused; scrapped units leave the stock as it was", async () => {
    const { part, user, order } = await shippedOrder(300, 100);
    const over = await ask(order.id, user, 101);
    expect(over).toMatchObject({ ok: false, status: 422, lineIndex: 0 });
    if (!over.ok) expect(over.message).toMatch(/At most 100 units .*100 shipped/);

    const asked = await ask(order.id, user, 10);
    if (!asked.ok) throw new Error(asked.message);
    await decideOnReturn(order.id, asked.entry.id, { approve: true }, staff);
    const stock = await partDoc(part.id);
    const scrapped = await receiveReturnedParts(
      order.id,
      asked.entry.id,
      { lines: [{ quantity: 8 }], condition: "scrap" },
      staff,
    );
    expect(scrapped.ok).toBe(true);
    const after = await partDoc(part.id);
    expect([after.onHand, after.availableQuantity]).toEqual([stock.onHand, stock.availableQuantity]);
    // Two of the ten did not come back: they may still be returned.
    expect((await getOrderById(order.id))!.lines[0].returnedQuantity).toBe(8);

    // The parcel left 31 days ago: the window (30 days) has passed.
    await Order.updateOne({ _id: order.id }, { $set: { "shipments.0.shippedAt": new Date(Date.now() - 31 * DAY) } });
    const late = await ask(order.id, user, 1);
    expect(late).toMatchObject({ ok: false, status: 422, lineIndex: 0 });
    if (!late.ok) expect(late.message).toMatch(/shipped more than 30 days ago: the return window has passed/);
    expect((await getOrderById(order.id))!.returns).toHaveLength(1);
  });

  test("the stock check counts returns; a restock a crash left is found, and the sweep restocks it once", async () => {
    const { part, user, order } = await shippedOrder(200);
    const asked = await ask(order.id, user, 20);
    if (!asked.ok) throw new Error(asked.message);
    await decideOnReturn(order.id, asked.entry.id, { approve: true }, staff);
    const problems = async () => (await checkStock({ settleMs: 0 })).problems.filter((p) => p.partId === part.id);
    expect(await problems()).toEqual([]);
    // What a crash between the return's update and the part's would leave: received to stock, the part untouched.
    await Order.updateOne(
      { _id: order.id },
      {
        $set: {
          "returns.0.status": "received",
          "returns.0.condition": "restock",
          "returns.0.receivedAt": new Date(),
          "returns.0.lines.0.receivedQuantity": 20,
          "returns.0.stockPending": true,
          updatedAt: new Date(Date.now() - 60_000),
        },
      },
      { timestamps: false },
    );
    expect((await problems()).map((p) => p.kind)).toEqual(["return-not-restocked"]);
    // Received before lines had their own condition: the return's one applies to every line.
    expect((await getOrderById(order.id))!.returns[0].lines[0].condition).toBe("restock");
    const onHand = (await partDoc(part.id)).onHand!;
    expect(await settleLeftReturns({ graceMs: 1000 })).toEqual([part.id]);
    expect(await settleLeftReturns({ graceMs: 1000 })).toEqual([]);
    expect((await partDoc(part.id)).onHand).toBe(onHand + 20);
    expect(await problems()).toEqual([]);
    // A line that counts units in returns its returns do not hold.
    await Order.updateOne({ _id: order.id }, { $set: { "lines.0.returnedQuantity": 35 } });
    expect((await problems()).map((p) => p.message)).toEqual([
      `order ${order.id} counts 35 units in returns of a line with 20 in its returns and 200 shipped`,
    ]);
  });

  test("bad input is refused at the field with a 4xx and nothing written; another company's order is not found", async () => {
    const { user, order } = await shippedOrder(200);
    const cookie = await sessionCookieHeader(user.id);
    const path = `/dashboard/orders/${order.id}/return`;
    const post = (fields: Record<string, string>, who = cookie) =>
      settle(returnAction(actionArgs(postRequest(path, fields, { cookie: who }), { id: order.id })));
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ "lines[0].quantity": "5", reason: "changed-my-mind" }, "reason", /Choose why the parts go back/],
      [{ "lines[0].quantity": "-5", reason: "damaged" }, "lines[0].quantity", /cannot be negative/],
      [{ "lines[0].quantity": "2.5", reason: "damaged" }, "lines[0].quantity", /whole number/],
      [{ "lines[0].quantity": "5", reason: "damaged", note: "x".repeat(10_000) }, "note", /at most 1,000 characters/],
      [{ "lines[0].quantity": "201", reason: "warranty" }, "lines[0].quantity", /At most 200 units/],
      [{ "lines[0].quantity": "0", reason: "warranty" }, "", /at least one line/],
    ];
    for (const [fields, field, message] of cases) {
      const response = await post(fields);
      expect(response.status, JSON.stringify(fields).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      const errors: string[] = (await response.json()).error?.[field] ?? [];
      expect(
        errors.some((error) => message.test(error)),
        `${field}: ${errors.join("; ")}`,
      ).toBe(true);
    }
    const doc = (await Order.findById(order.id).lean())!;
    expect(doc.returns ?? []).toEqual([]);
    expect(doc.returnCount ?? 0).toBe(0);
    expect(doc.lines[0].returnedQuantity ?? 0).toBe(0);

    const stranger = await createUser();
    const foreign = await post({ "lines[0].quantity": "5", reason: "damaged" }, await sessionCookieHeader(stranger.id));
    expect(foreign.status).toBe(404);
    expect((await Order.findById(order.id).lean())!.returns ?? []).toEqual([]);
  });
});

describe("a parcel", () => {
  test("that gives a line twice is refused by the shipping service, and nothing ships", async () => {
    const { order } = await shippedOrder(200, 100);
    const refused = await shipOrder(
      order.id,
      {
        carrier: "ups",
        trackingNumber: "1Z3",
        lines: [
          { lineIndex: 0, quantity: 60 },
          { lineIndex: 0, quantity: 40 },
        ],
      },
      { ...staff, current: order },
    );
    expect(refused).toMatchObject({ ok: false, status: 422 });
    const stored = (await Order.findById(order.id).lean())!;
    expect(stored.shipments).toHaveLength(1);
    expect(stored.lines[0].shippedQuantity).toBe(100);
  });
});
