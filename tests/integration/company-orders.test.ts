/** Shared ordering by role, and orders over a buyer's limit waiting for an owner's approval. */
import { describe, expect, test } from "vitest";
import { Cart } from "~/models/cart.server";
import { Company } from "~/models/company.server";
import { Order } from "~/orders/model/schema.server";
import { accountCommitmentOf } from "~/orders/model/payments.server";
import { openCardOrdersOf } from "~/orders/model/placing.server";
import { User, getUserById } from "~/models/user.server";
import { Outbox } from "~/models/outbox.server";
import { Part } from "~/models/part.server";
import { action as companyAction } from "~/routes/dashboard.company";
import { action as cartAction } from "~/routes/dashboard.cart";
import { loader as ordersLoader } from "~/routes/dashboard.orders";
import { loader as orderLoader } from "~/routes/dashboard.orders_.$id._index";
import { loader as cancelLoader } from "~/routes/dashboard.orders_.$id.cancel";
import { loader as paymentLoader } from "~/routes/dashboard.payment.$id";
import { loader as statementLoader } from "~/routes/dashboard.statement/route";
import { loader as documentLoader } from "~/routes/documents.$id.$kind";
import { action as partAction } from "~/routes/parts.$id";
import { action as quickOrderAction } from "~/routes/dashboard.quick-order";
import { checkoutTerms, placeCustomerOrder } from "~/orders/service.server";
import { sweepStock } from "~/orders/stock-jobs.server";
import { stockSettings } from "~/orders/model/schema.server";
import { action as manageOrdersAction } from "~/routes/dashboard.manageOrders";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { settledMailTo } from "../setup/mail-settled";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DELIVERY_FORM, DETROIT } from "../fixtures/addresses";

async function company({ limitCents }: { limitCents?: number } = {}) {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne(
    { _id: owner.companyId },
    { $set: { companyName: `Works ${owner.id.slice(-5)}`, account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
  );
  const as = (role: "buyer" | "accounts", name: string, spendingLimitCents?: number) =>
    createUser({ name, company: { id: owner.companyId, role }, spendingLimitCents });
  const [buyer, colleague, accounts] = await Promise.all([
    as("buyer", "Ben Buyer", limitCents),
    as("buyer", "Cleo Colleague"),
    as("accounts", "Ann Accounts"),
  ]);
  const cookies = {
    owner: await sessionCookieHeader(owner.id),
    buyer: await sessionCookieHeader(buyer.id),
    colleague: await sessionCookieHeader(colleague.id),
    accounts: await sessionCookieHeader(accounts.id),
  };
  return { owner, buyer, colleague, accounts, cookies };
}

const place = (userId: string, partId: string, quantity = 100, payment: "card" | "account" = "card") =>
  placeCustomerOrder({
    user: { id: userId },
    lines: [{ partId, quantity }],
    phone: "+1 555 0100",
    delivery: DETROIT,
    payment,
  });

const load = (
  loader: (args: never) => unknown,
  path: string,
  cookie: string,
  params: Record<string, string> = {},
): Promise<Response> =>
  settle((loader as (args: unknown) => Promise<unknown>)(loaderArgs(getRequest(path, { cookie }), params)));

const status = async (promise: Promise<Response>) => (await promise).status;

describe("shared ordering by role", () => {
  test("every member sees the company's orders; only the placer, owners and accounts pay, cancel or read the invoice", async () => {
    const { buyer, cookies } = await company();
    const part = await createPart();
    const placed = await place(buyer.id, part.id);
    if (!placed.ok) throw new Error("not placed");
    const id = placed.order.id;

    for (const cookie of Object.values(cookies)) {
      const list = await (await load(ordersLoader, "/dashboard/orders", cookie)).json();
      expect(list.orders.map((order: { id: string }) => order.id)).toContain(id);
      expect(await status(load(orderLoader, `/dashboard/orders/${id}`, cookie, { id }))).toBe(200);
    }
    const colleagueList = await (await load(ordersLoader, "/dashboard/orders", cookies.colleague)).json();
    const row = colleagueList.orders.find((order: { id: string }) => order.id === id);
    expect(row).toMatchObject({ placedBy: "Ben Buyer", handles: false });

    // A colleague (buyer) neither pays nor cancels another buyer's order, nor reads its documents.
    expect(await status(load(paymentLoader, `/dashboard/payment/${id}`, cookies.colleague, { id }))).toBe(404);
    expect(await status(load(cancelLoader, `/dashboard/orders/${id}/cancel`, cookies.colleague, { id }))).toBe(404);
    expect(
      await status(load(documentLoader, `/documents/${id}/pro-forma`, cookies.colleague, { id, kind: "pro-forma" })),
    ).toBe(404);
    // The placer, accounts and the owner do.
    for (const cookie of [cookies.buyer, cookies.accounts, cookies.owner]) {
      expect(await status(load(paymentLoader, `/dashboard/payment/${id}`, cookie, { id }))).toBe(200);
      expect(await status(load(documentLoader, `/documents/${id}/pro-forma`, cookie, { id, kind: "pro-forma" }))).toBe(
        200,
      );
    }
    // The statement is the owners' and accounts'.
    expect(await status(load(statementLoader, "/dashboard/statement", cookies.accounts))).toBe(200);
    expect(await status(load(statementLoader, "/dashboard/statement", cookies.owner))).toBe(200);
    expect(await status(load(statementLoader, "/dashboard/statement", cookies.buyer))).toBe(403);
  });

  test("any buyer orders again from a colleague's order into their own cart; carts stay personal", async () => {
    const { buyer, colleague, cookies } = await company();
    const part = await createPart();
    const placed = await place(buyer.id, part.id, 150);
    if (!placed.ok) throw new Error("not placed");
    await Order.updateOne({ _id: placed.order.id }, { $set: { status: "paid", paidAt: new Date() } });
    const response = await settle(
      cartAction(
        actionArgs(
          postRequest(
            "/dashboard/cart",
            { intent: "reorder", orderId: placed.order.id },
            { cookie: cookies.colleague },
          ),
        ),
      ),
    );
    expect(response.status).toBe(302);
    const colleagueCart = await Cart.findOne({ userId: colleague.id }).lean();
    expect(colleagueCart?.lines.map((line) => [String(line.partId), line.quantity])).toEqual([[part.id, 150]]);
    expect(await Cart.findOne({ userId: buyer.id, "lines.0": { $exists: true } }).lean()).toBeNull();
  });

  test("accounts does not order: the part page, the cart and the quick order refuse with 403 and nothing is written", async () => {
    const { accounts, cookies } = await company();
    const part = await createPart();
    const before = (await Part.findById(part.id).lean())?.availableQuantity;
    const fields = { phone: "+1 555 0100", ...DELIVERY_FORM, quantity: "100" };
    expect(
      await status(
        settle(
          partAction(
            actionArgs(postRequest(`/parts/${part.id}`, fields, { cookie: cookies.accounts }), { id: part.id }),
          ),
        ),
      ),
    ).toBe(403);
    expect(
      await status(
        settle(
          cartAction(
            actionArgs(
              postRequest(
                "/dashboard/cart",
                { intent: "add", partId: part.id, quantity: "100" },
                { cookie: cookies.accounts },
              ),
            ),
          ),
        ),
      ),
    ).toBe(403);
    expect(
      await status(
        settle(
          quickOrderAction(
            actionArgs(
              postRequest(
                "/dashboard/quick-order",
                { intent: "order", lines: `${part.partNumber} 100`, ...fields },
                { cookie: cookies.accounts },
              ),
            ),
          ),
        ),
      ),
    ).toBe(403);
    expect(await Order.countDocuments({ userId: accounts.id })).toBe(0);
    expect(await Cart.findOne({ userId: accounts.id, "lines.0": { $exists: true } }).lean()).toBeNull();
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(before);
  });

  test("a member of company A reaches none of company B's orders, documents or reorders (404, nothing written)", async () => {
    const a = await company();
    const b = await company();
    const part = await createPart();
    const placed = await place(b.buyer.id, part.id);
    if (!placed.ok) throw new Error("not placed");
    const id = placed.order.id;
    for (const cookie of Object.values(a.cookies)) {
      expect(await status(load(orderLoader, `/dashboard/orders/${id}`, cookie, { id }))).toBe(404);
      expect(await status(load(paymentLoader, `/dashboard/payment/${id}`, cookie, { id }))).toBe(404);
      expect(await status(load(cancelLoader, `/dashboard/orders/${id}/cancel`, cookie, { id }))).toBe(404);
      expect(await status(load(documentLoader, `/documents/${id}/pro-forma`, cookie, { id, kind: "pro-forma" }))).toBe(
        404,
      );
      const list = await (await load(ordersLoader, "/dashboard/orders", cookie)).json();
      expect(list.orders.map((order: { id: string }) => order.id)).not.toContain(id);
    }
    const reorder = await settle(
      cartAction(
        actionArgs(postRequest("/dashboard/cart", { intent: "reorder", orderId: id }, { cookie: a.cookies.buyer })),
      ),
    );
    expect(reorder.status).toBe(404);
    expect(await Cart.findOne({ userId: a.buyer.id, "lines.0": { $exists: true } }).lean()).toBeNull();
  });
});

describe("spending limits and approval", () => {
  const decide = (cookie: string, fields: Record<string, string>) =>
    settle(companyAction(actionArgs(postRequest("/dashboard/company", fields, { cookie }))));

  test("an order over the buyer's limit waits for approval with its stock held and counted; the owner is mailed and approves", async () => {
    const { owner, buyer, cookies } = await company({ limitCents: 53_000 });
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const within = await place(buyer.id, part.id, 100); // $500 and 6 % Michigan sales tax, $530: at the limit
    expect(within.ok && within.order.status).toBe("unpaid");
    const over = await place(buyer.id, part.id, 200); // $1,060 with tax: over it
    if (!over.ok) throw new Error("not placed");
    expect(over.order.status).toBe("approval");
    expect(over.order.state).toBe("approval");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000 - 300);
    expect((await openCardOrdersOf(buyer)).count).toBe(2);
    expect(
      await Outbox.exists({ to: owner.email, subject: new RegExp(`${over.order.number}.*approval`) }),
    ).toBeTruthy();
    // Nothing to pay before the decision.
    expect(
      await status(load(paymentLoader, `/dashboard/payment/${over.order.id}`, cookies.buyer, { id: over.order.id })),
    ).not.toBe(200);

    // A buyer cannot decide.
    expect((await decide(cookies.buyer, { intent: "approve", order: over.order.id })).status).toBe(403);
    expect((await Order.findById(over.order.id).lean())?.status).toBe("approval");

    const approved = await decide(cookies.owner, { intent: "approve", order: over.order.id, note: "Fine this once" });
    expect(approved.status).toBe(302);
    const stored = await Order.findById(over.order.id).lean();
    expect(stored?.status).toBe("unpaid");
    expect(stored?.holdUntil).toBeTruthy();
    expect(stored?.approval).toMatchObject({ outcome: "approved", note: "Fine this once" });
    expect(
      await status(load(paymentLoader, `/dashboard/payment/${over.order.id}`, cookies.buyer, { id: over.order.id })),
    ).toBe(200);
    // Decided once: a second decision finds nothing waiting.
    expect((await decide(cookies.owner, { intent: "decline", order: over.order.id, note: "Late" })).status).toBe(404);
  });

  test("an order left waiting for approval holds its stock only as long as an unpaid card order: then it expires, the stock goes back, and the buyer and the owner are told", async () => {
    const { owner, buyer } = await company({ limitCents: 10_000 });
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const before = Date.now();
    const over = await place(buyer.id, part.id, 200);
    if (!over.ok) throw new Error("not placed");
    expect(over.order.status).toBe("approval");
    const holdUntil = new Date(over.order.holdUntil ?? 0).getTime();
    expect(holdUntil).toBeGreaterThanOrEqual(before + stockSettings().holdMs);
    expect(holdUntil).toBeLessThanOrEqual(Date.now() + stockSettings().holdMs);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(800);

    // Before the hold ends, the sweep leaves it waiting.
    await sweepStock(new Date(holdUntil - 60_000));
    expect((await Order.findById(over.order.id).lean())?.status).toBe("approval");

    await sweepStock(new Date(holdUntil + 1_000));
    expect((await Order.findById(over.order.id).lean())?.status).toBe("expired");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
    expect(await Outbox.exists({ _id: `order:${over.order.id}:expired`, to: buyer.email })).toBeTruthy();
    expect(await Outbox.exists({ _id: `approval-expired:${over.order.id}:${owner.id}`, to: owner.email })).toBeTruthy();
    // Expired: an owner's late decision finds nothing to approve.
    const cookie = await sessionCookieHeader(owner.id);
    const late = await settle(
      companyAction(
        actionArgs(postRequest("/dashboard/company", { intent: "approve", order: over.order.id }, { cookie })),
      ),
    );
    expect(late.status).toBe(404);
  });

  test("on account, a waiting order holds its stock for the window too, and approving it ends the hold (credit bounds it instead)", async () => {
    const { buyer, cookies } = await company({ limitCents: 10_000 });
    const part = await createPart({ priceCents: 500 });
    const over = await place(buyer.id, part.id, 100, "account");
    if (!over.ok) throw new Error("not placed");
    expect(over.order.holdUntil).toBeTruthy();
    expect((await decide(cookies.owner, { intent: "approve", order: over.order.id })).status).toBe(302);
    const stored = await Order.findById(over.order.id).lean();
    expect(stored?.status).toBe("account");
    expect(stored?.holdUntil).toBeFalsy();
  });

  test("staff can remove an order waiting for approval: its stock goes back once", async () => {
    const { buyer } = await company({ limitCents: 10_000 });
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const over = await place(buyer.id, part.id, 200);
    if (!over.ok) throw new Error("not placed");
    const admin = await createUser({ name: "Ada Admin", role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const remove = () =>
      settle(
        manageOrdersAction(
          actionArgs(
            postRequest(
              "/dashboard/manageOrders",
              { intent: "remove", orderId: over.order.id, reason: "Ordered twice by mistake" },
              { cookie },
            ),
          ),
        ),
      );
    const [first, second] = await Promise.all([remove(), remove()]);
    expect([first.status, second.status].sort()).toEqual([302, 409]);
    expect((await Order.findById(over.order.id).lean())?.status).toBe("removed");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
  });

  test("approved on account, the order is confirmed and invoiced", async () => {
    const { buyer, cookies } = await company({ limitCents: 10_000 });
    const part = await createPart({ priceCents: 500 });
    const over = await place(buyer.id, part.id, 100, "account");
    if (!over.ok) throw new Error("not placed");
    expect(over.order.status).toBe("approval");
    expect((await decide(cookies.owner, { intent: "approve", order: over.order.id })).status).toBe(302);
    const stored = await Order.findById(over.order.id).lean();
    expect(stored?.status).toBe("account");
    expect(stored?.invoiceNumber).toBeTruthy();
  });

  test("orders on account awaiting approval count against the company's credit limit: two buyers cannot together pass it", async () => {
    const { owner, buyer, colleague, cookies } = await company({ limitCents: 100 });
    await Company.updateOne({ _id: owner.companyId }, { $set: { "account.creditLimitCents": 100_000 } });
    await User.updateOne({ _id: colleague.id }, { $set: { spendingLimitCents: 100 } });
    const part = await createPart({ priceCents: 600, availableQuantity: 1000 });
    // $600 and Michigan's 6 % sales tax (the address names no other place): $636, waits for approval.
    const first = await place(buyer.id, part.id, 100, "account");
    if (!first.ok) throw new Error("not placed");
    expect(first.order.status).toBe("approval");
    expect((await checkoutTerms((await getUserById(colleague.id))!))?.availableCents).toBe(36_400);

    // The colleague's $636 would take the company to $1,272 committed on account of its $1,000.
    const second = await place(colleague.id, part.id, 100, "account");
    expect(second.ok).toBe(false);
    expect(!second.ok && "payment" in second && second.payment).toMatchObject({
      status: 409,
      credit: { limitCents: 100_000, balanceCents: 63_600, orderCents: 63_600 },
    });
    expect(await Order.countDocuments({ companyId: owner.companyId })).toBe(1);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(900);

    // Both placed at the same moment, with nothing committed yet: at most one gets through.
    await decide(cookies.owner, { intent: "decline", order: first.order.id, note: "Over budget" });
    const racing = await Promise.all([
      place(buyer.id, part.id, 100, "account"),
      place(colleague.id, part.id, 100, "account"),
    ]);
    expect(racing.filter((result) => result.ok).length).toBeLessThanOrEqual(1);
    expect(await accountCommitmentOf({ id: owner.id, companyId: owner.companyId })).toBeLessThanOrEqual(100_000);

    // A card order is not on account: the credit limit does not bound it.
    const byCard = await place(colleague.id, part.id, 100, "card");
    expect(byCard.ok && byCard.order.status).toBe("approval");
  });

  test("declining with a note gives the stock back once, even when two owners decline at once", async () => {
    const { owner, buyer, cookies } = await company({ limitCents: 100 });
    const second = await createUser({ company: { id: owner.companyId, role: "owner" } });
    const secondCookie = await sessionCookieHeader(second.id);
    const part = await createPart({ availableQuantity: 1000 });
    const over = await place(buyer.id, part.id, 200);
    if (!over.ok) throw new Error("not placed");
    const results = await Promise.all([
      decide(cookies.owner, { intent: "decline", order: over.order.id, note: "Too many" }),
      decide(secondCookie, { intent: "decline", order: over.order.id, note: "No" }),
    ]);
    expect(results.map((response) => response.status).sort()).toEqual([302, 404]);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
    const stored = await Order.findById(over.order.id).lean();
    expect(stored?.status).toBe("cancelled");
    expect(stored?.approval?.outcome).toBe("declined");
    expect(
      await Outbox.exists({ to: buyer.email, subject: new RegExp(`${over.order.number} was declined`) }),
    ).toBeTruthy();
  });

  test("a declined order's buyer gets the decision with its reason (not a cancellation as well)", async () => {
    const { buyer, cookies } = await company({ limitCents: 100 });
    const part = await createPart({ availableQuantity: 1000 });
    const over = await place(buyer.id, part.id, 200);
    if (!over.ok) throw new Error("not placed");
    const declined = await decide(cookies.owner, { intent: "decline", order: over.order.id, note: "Order it in May" });
    expect(declined.status).toBe(302);
    const aboutOrder = (await settledMailTo(buyer.email)).filter((mail) => mail.subject.includes(over.order.number));
    expect(aboutOrder.map((mail) => mail.subject).sort()).toEqual([
      `${over.order.number} is submitted for approval`,
      `${over.order.number} was declined`,
    ]);
    expect(aboutOrder.find((mail) => mail.subject.endsWith("declined"))?.text).toContain("Order it in May");
  });

  test("an owner of another company cannot approve or decline (404), and a bad note is refused (400), nothing written", async () => {
    const a = await company({ limitCents: 100 });
    const b = await company();
    const part = await createPart();
    const over = await place(a.buyer.id, part.id);
    if (!over.ok) throw new Error("not placed");
    expect((await decide(b.cookies.owner, { intent: "approve", order: over.order.id })).status).toBe(404);
    expect((await decide(b.cookies.owner, { intent: "decline", order: over.order.id, note: "No" })).status).toBe(404);
    // A decline says why: without a reason it is refused at the field.
    const bare = await decide(a.cookies.owner, { intent: "decline", order: over.order.id });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: Record<string, string[]> }).error.note).toEqual([
      "Give the buyer a reason for declining",
    ]);
    expect((await decide(a.cookies.owner, { intent: "decline", order: over.order.id, note: "<b>x</b>" })).status).toBe(
      400,
    );
    expect((await Order.findById(over.order.id).lean())?.status).toBe("approval");
  });
});
