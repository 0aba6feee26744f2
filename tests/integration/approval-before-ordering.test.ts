/**
 * A buyer with a limit per order sees it where they order, before placing; an order over it waits,
 * says why and who decides, and its buyer can withdraw it (stock back). The owner sets the limit when
 * inviting, and the invitee's page speaks to the invitee. The owner decides on the order's page, and
 * the decision is on the record: the timeline, the buyer's mail, the audit log.
 */
import { describe, expect, test } from "vitest";
import { Company } from "~/models/company.server";
import { Part } from "~/models/part.server";
import { User } from "~/models/user.server";
import { addToCart } from "~/models/cart.server";
import { Order } from "~/orders/model/schema.server";
import { placeCustomerOrder } from "~/orders/service.server";
import { loader as cartLoader } from "~/routes/dashboard.cart";
import { action as companyAction } from "~/routes/dashboard.company";
import { loader as quickOrderLoader } from "~/routes/dashboard.quick-order";
import { action as orderAction, loader as orderLoader } from "~/routes/dashboard.orders_.$id._index";
import { action as declineAction, loader as declineLoader } from "~/routes/dashboard.orders_.$id.decline";
import { Audit } from "~/models/audit.server";
import type { TimelineEvent } from "~/domain/order-timeline";
import { action as cancelAction } from "~/routes/dashboard.orders_.$id.cancel";
import { loader as partLoader } from "~/routes/parts.$id";
import { action as invitationAction, loader as invitationLoader } from "~/routes/invitations.$token";
import { Outbox } from "~/models/outbox.server";
import { createPart, createUser, sessionCookieHeader } from "../setup/factories";
import { actionArgs, getRequest, loaderArgs, postRequest, settle } from "../setup/requests";
import { DETROIT } from "../fixtures/addresses";

async function limitedBuyer(limitCents = 150_000) {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne({ _id: owner.companyId }, { $set: { companyName: `Works ${owner.id.slice(-5)}` } });
  const buyer = await createUser({
    name: "Ben Buyer",
    company: { id: owner.companyId, role: "buyer" },
    spendingLimitCents: limitCents,
  });
  return {
    owner,
    buyer,
    cookie: await sessionCookieHeader(buyer.id),
    ownerCookie: await sessionCookieHeader(owner.id),
  };
}

const json = async (response: Promise<Response>) => (await response).json() as Promise<Record<string, unknown>>;

describe("a buyer's limit per order, before ordering", () => {
  test("the part page, cart and quick order carry the limit and who approves above it; others see none", async () => {
    const { buyer, cookie } = await limitedBuyer();
    const part = await createPart({ priceCents: 1000, availableQuantity: 5000 });
    const expected = { limitCents: 150_000, approvers: "Olga Owner" };
    const page = await json(
      settle(partLoader(loaderArgs(getRequest(`/parts/${part.id}`, { cookie }), { id: part.id }))),
    );
    expect(page.limit).toEqual(expected);
    await addToCart(buyer.id, part.id, 300);
    expect((await json(settle(cartLoader(loaderArgs(getRequest("/dashboard/cart", { cookie })))))).limit).toEqual(
      expected,
    );
    expect(
      (await json(settle(quickOrderLoader(loaderArgs(getRequest("/dashboard/quick-order", { cookie })))))).limit,
    ).toEqual(expected);

    const unlimited = await createUser();
    const theirs = await json(
      settle(
        partLoader(
          loaderArgs(getRequest(`/parts/${part.id}`, { cookie: await sessionCookieHeader(unlimited.id) }), {
            id: part.id,
          }),
        ),
      ),
    );
    expect(theirs.limit).toBeNull();
  });

  test("an order over the limit: its page says why and who decides, and its buyer withdraws it with the stock back", async () => {
    const { buyer, cookie, ownerCookie } = await limitedBuyer(10_000);
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const placed = await placeCustomerOrder({
      user: { id: buyer.id },
      lines: [{ partId: part.id, quantity: 200 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      payment: "card",
    });
    if (!placed.ok) throw new Error("not placed");
    expect(placed.order.status).toBe("approval");
    const id = placed.order.id;
    const page = (await json(
      settle(orderLoader(loaderArgs(getRequest(`/dashboard/orders/${id}`, { cookie }), { id }))),
    )) as { approval: { approvers: string; mayWithdraw: boolean; limitCents: number }; order: { state: string } };
    expect(page.approval).toMatchObject({ approvers: "Olga Owner", mayWithdraw: true, limitCents: 10_000 });
    // The owner sees the reason too, but declines instead of withdrawing.
    const ownerView = (await json(
      settle(orderLoader(loaderArgs(getRequest(`/dashboard/orders/${id}`, { cookie: ownerCookie }), { id }))),
    )) as { approval: { mayWithdraw: boolean } };
    expect(ownerView.approval.mayWithdraw).toBe(false);
    expect(
      (
        await settle(
          cancelAction(
            actionArgs(postRequest(`/dashboard/orders/${id}/cancel`, { confirm: "cancel" }, { cookie: ownerCookie }), {
              id,
            }),
          ),
        )
      ).status,
    ).toBe(409);
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(800);

    const withdrawn = await settle(
      cancelAction(
        actionArgs(postRequest(`/dashboard/orders/${id}/cancel`, { confirm: "cancel" }, { cookie }), { id }),
      ),
    );
    expect(withdrawn.status).toBe(302);
    expect((await Order.findById(id).lean())?.status).toBe("cancelled");
    expect((await Part.findById(part.id).lean())?.availableQuantity).toBe(1000);
  });
});

describe("the owner's decision, on the order's page and on the record", () => {
  type Page = {
    order: { status: string; dueAt: string | null };
    timeline: TimelineEvent[];
    mayDecide: boolean;
    approval: { outcome: string | null; decidedByName: string | null };
  };
  const page = async (id: string, cookie: string) =>
    (await json(settle(orderLoader(loaderArgs(getRequest(`/dashboard/orders/${id}`, { cookie }), { id }))))) as Page;
  const post = (
    route: (args: ReturnType<typeof actionArgs>) => Promise<unknown>,
    path: string,
    id: string,
    fields: Record<string, string>,
    cookie: string,
  ) => settle(route(actionArgs(postRequest(path, fields, { cookie }), { id })));

  test("approved from its page: nothing due before, then 'Approved by' for everyone, the buyer and accounts mailed, audited", async () => {
    const { owner, buyer, cookie, ownerCookie } = await limitedBuyer(10_000);
    await Company.updateOne(
      { _id: owner.companyId },
      { $set: { account: { termsDays: 30, creditLimitCents: 10_000_000 } } },
    );
    const accounts = await createUser({ name: "Ada Accounts", company: { id: owner.companyId, role: "accounts" } });
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const placed = await placeCustomerOrder({
      user: { id: buyer.id },
      lines: [{ partId: part.id, quantity: 200 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      payment: "account",
    });
    if (!placed.ok) throw new Error("not placed");
    const id = placed.order.id;
    const submitted = await Outbox.findById(`approval-submitted:${id}`).lean();
    expect(submitted).toMatchObject({ to: buyer.email, subject: `${placed.order.number} is submitted for approval` });
    expect(submitted?.text).toContain("Nothing is due until it is approved");

    // Before approval: no due date anywhere; the placer reads "you", a colleague the placer's name.
    const before = await page(id, cookie);
    expect(before.order.dueAt).toBeNull();
    expect(before.timeline.map((event) => event.label)).toEqual(["Placed", "On account"]);
    expect(before.timeline[0].actor).toBe("you");
    expect(before.mayDecide).toBe(false);
    const ownerView = await page(id, ownerCookie);
    expect(ownerView.timeline[0].actor).toBe("Ben Buyer");
    expect(ownerView.mayDecide).toBe(true);

    // The buyer cannot approve, nor an owner of another company; nothing is written.
    const path = `/dashboard/orders/${id}?index`;
    const fields = { intent: "approve", order: id, note: "Fine this once" };
    expect((await post(orderAction, path, id, fields, cookie)).status).toBe(403);
    const stranger = await sessionCookieHeader((await createUser()).id);
    expect((await post(orderAction, path, id, fields, stranger)).status).toBe(404);
    expect((await Order.findById(id).lean())?.status).toBe("approval");

    expect((await post(orderAction, path, id, fields, ownerCookie)).status).toBe(302);
    const after = await page(id, cookie);
    expect(after.order).toMatchObject({ status: "account", dueAt: expect.any(String) });
    const approved = after.timeline.find((event) => event.event === "approved");
    expect(approved?.label).toBe("Approved by Olga Owner: “Fine this once”");
    const decided = await Outbox.findById(`approval-decided:${id}`).lean();
    expect(decided).toMatchObject({ to: buyer.email, subject: `${placed.order.number} was approved` });
    expect(decided?.text).toMatch(/Olga Owner approved your order .* It is invoiced on account, due /);
    const invoiced = await Outbox.findById(`invoice-issued:${id}:${accounts.id}`).lean();
    expect(invoiced?.to).toBe(accounts.email);
    expect(invoiced?.subject).toMatch(new RegExp(`^Invoice INV-\\d{6} for ${placed.order.number} is issued$`));
    expect(await Audit.findOne({ action: "order.approve", targetId: id }).lean()).toMatchObject({
      actorEmail: owner.email,
      after: { status: "account", note: "Fine this once" },
    });
  });

  test("declined from its confirmation: a reason is required, then 'Declined by' with it, mailed and audited", async () => {
    const { owner, buyer, cookie, ownerCookie } = await limitedBuyer(10_000);
    const part = await createPart({ priceCents: 500, availableQuantity: 1000 });
    const placed = await placeCustomerOrder({
      user: { id: buyer.id },
      lines: [{ partId: part.id, quantity: 200 }],
      phone: "+1 555 0100",
      delivery: DETROIT,
      payment: "card",
    });
    if (!placed.ok) throw new Error("not placed");
    const id = placed.order.id;
    const path = `/dashboard/orders/${id}/decline`;
    // Owners only: the buyer's confirmation page and post are refused.
    expect((await settle(declineLoader(loaderArgs(getRequest(path, { cookie }), { id })))).status).toBe(403);
    expect((await post(declineAction, path, id, { reason: "No" }, cookie)).status).toBe(403);
    const bare = await post(declineAction, path, id, { reason: "  " }, ownerCookie);
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: Record<string, string[]> }).error.reason).toEqual([
      "Give the buyer a reason for declining",
    ]);
    expect((await Order.findById(id).lean())?.status).toBe("approval");

    expect((await post(declineAction, path, id, { reason: "Order it in May" }, ownerCookie)).status).toBe(302);
    const after = await page(id, cookie);
    expect(after.order.status).toBe("cancelled");
    expect(after.timeline.map((event) => event.label)).toEqual([
      "Placed",
      "Declined by Olga Owner, reason: “Order it in May”",
    ]);
    const decided = await Outbox.findById(`approval-decided:${id}`).lean();
    expect(decided).toMatchObject({ to: buyer.email, subject: `${placed.order.number} was declined` });
    expect(decided?.text).toContain("Their reason: Order it in May");
    expect(await Audit.findOne({ action: "order.decline", targetId: id }).lean()).toMatchObject({
      actorEmail: owner.email,
      after: { status: "cancelled", reason: "Order it in May" },
    });
  });
});

describe("the limit set with the invitation", () => {
  test("the invitee's page says it in their words, and joining gives them the limit", async () => {
    const { owner, ownerCookie } = await limitedBuyer();
    const email = `invitee-${owner.id.slice(-6)}@example.com`;
    const sent = await settle(
      companyAction(
        actionArgs(
          postRequest(
            "/dashboard/company",
            { intent: "invite", email, role: "buyer", limit: "1500" },
            { cookie: ownerCookie },
          ),
        ),
      ),
    );
    expect(sent.status).toBe(302);
    const mail = await Outbox.findOne({ to: email }).lean();
    const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(JSON.stringify(mail))?.[1];
    expect(token).toBeTruthy();
    const page = (await json(
      settle(invitationLoader(loaderArgs(getRequest(`/invitations/${token}`), { token: token! }))),
    )) as { invitation: { spendingLimitCents: number; invitedByName: string } };
    expect(page.invitation).toMatchObject({ spendingLimitCents: 150_000, invitedByName: "Olga Owner" });
    const joined = await settle(
      invitationAction(
        actionArgs(
          postRequest(`/invitations/${token}`, { intent: "create", name: "Ivy Invitee", password: "a-long-secret-42" }),
          { token: token! },
        ),
      ),
    );
    expect(joined.status).toBe(302);
    expect((await User.findOne({ email }).lean())?.spendingLimitCents).toBe(150_000);
  });

  test("a limit that is not whole dollars is refused next to the field, and nothing is sent", async () => {
    const { ownerCookie } = await limitedBuyer();
    const email = `bad-limit-${Date.now()}@example.com`;
    const refused = await settle(
      companyAction(
        actionArgs(
          postRequest(
            "/dashboard/company",
            { intent: "invite", email, role: "buyer", limit: "12.50" },
            { cookie: ownerCookie },
          ),
        ),
      ),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: Record<string, string[]> }).error.limit).toEqual([
      "Enter the limit in whole dollars",
    ]);
    expect(await Outbox.exists({ to: email })).toBeNull();
  });
});
