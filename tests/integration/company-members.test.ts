/** Members, roles and invitations: who may do what in a company, and nobody reaches another company. */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Company } from "~/models/company.server";
import { changeMemberRole } from "~/models/company-member.server";
import { Invitation } from "~/models/invitation.server";
import { Order } from "~/orders/model/schema.server";
import { Outbox } from "~/models/outbox.server";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { loader as rootLoader } from "~/root";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { action as companyAction, loader as companyLoader } from "~/routes/dashboard.company";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as inviteAction, loader as inviteLoader } from "~/routes/invitations.$token";
import { getUser } from "~/services/guards.server";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { createOrder } from "../setup/order-factories";
import { getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { addressForm, DETROIT } from "../fixtures/addresses";

const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const context = () => testContext({ clientIp: `203.0.113.${Math.floor(Math.random() * 250)}` });

async function company() {
  const owner = await createUser({ name: "Olga Owner" });
  await Company.updateOne({ _id: owner.companyId }, { $set: { companyName: `Works ${owner.id.slice(-5)}` } });
  const member = (role: "owner" | "buyer" | "accounts", extra: { spendingLimitCents?: number } = {}) =>
    createUser({ name: `${role} person`, company: { id: owner.companyId, role }, ...extra });
  return { owner, member, cookie: await sessionCookieHeader(owner.id) };
}

const post = async (cookie: string, fields: Record<string, string>) =>
  settle(
    companyAction({ request: postRequest("/dashboard/company", fields, { cookie }), params: {}, context: context() }),
  );
const visit = async (token: string, cookie?: string) =>
  settle(
    inviteLoader({ request: getRequest(`/invitations/${token}`, { cookie }), params: { token }, context: context() }),
  );
const accept = async (token: string, fields: Record<string, string>, cookie?: string) =>
  settle(
    inviteAction({
      request: postRequest(`/invitations/${token}`, fields, { cookie }),
      params: { token },
      context: context(),
    }),
  );

/** The token in the invitation mailed to this address. */
async function invitationTokenFor(email: string) {
  const mail = await Outbox.findOne({ to: email, subject: /an invitation to order for/ }).lean();
  const token = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? "")?.[1];
  expect(token, "the invitation mail carries a link").toBeTruthy();
  return token!;
}

/** What a company's members and invitations look like in the database (to prove nothing changed). */
const snapshot = async (companyId: string) => ({
  members: (await User.find({ companyId }, { companyRole: 1, spendingLimitCents: 1 }).sort({ _id: 1 }).lean()).map(
    (doc) => [String(doc._id), doc.companyRole, doc.spendingLimitCents ?? null],
  ),
  invitations: await Invitation.countDocuments({ companyId }),
  company: await Company.findById(companyId, { ownerCount: 1 }).lean(),
});

describe("inviting", () => {
  test("an owner invites by email: the mail carries a link that works once, and the invitee joins with the role", async () => {
    const { owner, cookie } = await company();
    const colleague = await createUser({ name: "Ben Buyer" });
    const response = await post(cookie, { intent: "invite", email: colleague.email.toUpperCase(), role: "buyer" });
    expect(response.status).toBe(302);
    expect(await Audit.exists({ action: "company.invite", targetId: owner.companyId })).toBeTruthy();
    const token = await invitationTokenFor(colleague.email);
    // The database keeps only the token's hash.
    expect(await Invitation.exists({ _id: token })).toBeNull();

    // Signed out, the link asks them to sign in to their existing account.
    const page = await (await visit(token)).json();
    expect(page.invitation).toMatchObject({ hasAccount: true, role: "buyer" });

    const colleagueCookie = await sessionCookieHeader(colleague.id);
    const joined = await accept(token, { intent: "accept" }, colleagueCookie);
    expect(joined.status).toBe(302);
    const stored = await User.findById(colleague.id).lean();
    expect(String(stored?.companyId)).toBe(owner.companyId);
    expect(stored?.companyRole).toBe("buyer");
    expect(await Audit.exists({ action: "company.join", targetId: owner.companyId })).toBeTruthy();

    // Used twice: refused, nothing written.
    const before = await snapshot(owner.companyId);
    expect((await visit(token, colleagueCookie)).status).toBe(410);
    expect((await accept(token, { intent: "accept" }, colleagueCookie)).status).toBe(410);
    expect(await snapshot(owner.companyId)).toEqual(before);
  });

  test("someone without an account joins by choosing a name and password; their address counts as verified", async () => {
    const { owner, cookie } = await company();
    const email = uniqueEmail("newbie");
    await post(cookie, { intent: "invite", email, role: "accounts" });
    const token = await invitationTokenFor(email);
    expect((await (await visit(token)).json()).invitation).toMatchObject({ hasAccount: false, role: "accounts" });
    const weak = await accept(token, { intent: "create", name: "Ann Accounts", password: "x" });
    expect(weak.status).toBe(400);
    expect(await User.exists({ email })).toBeNull();
    const created = await accept(token, { intent: "create", name: "Ann Accounts", password: "ledger-balance-77" });
    expect(created.status).toBe(302);
    expect(created.headers.get("Set-Cookie")).toMatch(/__session=/);
    const stored = await User.findOne({ email }).lean();
    expect(String(stored?.companyId)).toBe(owner.companyId);
    expect(stored?.companyRole).toBe("accounts");
    expect(stored?.emailVerifiedAt).toBeTruthy();
  });

  test("a forged, expired or foreign-account link is refused and writes nothing", async () => {
    const { owner, cookie } = await company();
    const invitee = await createUser();
    const stranger = await createUser();
    await post(cookie, { intent: "invite", email: invitee.email, role: "buyer" });
    const token = await invitationTokenFor(invitee.email);
    const before = await snapshot(owner.companyId);
    const strangerBefore = await User.findById(stranger.id).lean();

    // Forged: a well-formed token nobody issued, and a malformed one.
    const forged = "A".repeat(43);
    expect((await visit(forged)).status).toBe(404);
    expect((await accept(forged, { intent: "accept" }, await sessionCookieHeader(invitee.id))).status).toBe(404);
    expect((await visit("not-a-token")).status).toBe(404);

    // Opened by another signed-in account: 403, on the page and on the post.
    const strangerCookie = await sessionCookieHeader(stranger.id);
    expect((await visit(token, strangerCookie)).status).toBe(403);
    expect((await accept(token, { intent: "accept" }, strangerCookie)).status).toBe(403);
    // And a signed-in stranger cannot create the invitee's account either.
    expect(
      (await accept(token, { intent: "create", name: "X", password: "ledger-balance-77" }, strangerCookie)).status,
    ).toBe(403);
    expect(await User.findById(stranger.id).lean()).toEqual(strangerBefore);

    // Expired.
    await Invitation.updateMany({ companyId: owner.companyId }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await visit(token)).status).toBe(410);
    expect((await accept(token, { intent: "accept" }, await sessionCookieHeader(invitee.id))).status).toBe(410);
    expect(await snapshot(owner.companyId)).toEqual({ ...before });
    expect(String((await User.findById(invitee.id).lean())?.companyId)).toBe(invitee.companyId);
  });

  test("inviting someone already in the company, or a bad address, is refused at the field", async () => {
    const { owner, member, cookie } = await company();
    const buyer = await member("buyer");
    const before = await snapshot(owner.companyId);
    const taken = await post(cookie, { intent: "invite", email: buyer.email, role: "buyer" });
    expect(taken.status).toBe(409);
    expect(JSON.stringify(await taken.json())).toMatch(/already a member/);
    expect((await post(cookie, { intent: "invite", email: "nope", role: "buyer" })).status).toBe(400);
    expect((await post(cookie, { intent: "invite", email: uniqueEmail(), role: "king" })).status).toBe(400);
    expect(await snapshot(owner.companyId)).toEqual(before);
  });
});

describe("each role against the company screen", () => {
  test("owners see members and invitations; buyers and accounts see the members only and every owner action is 403", async () => {
    const { owner, member } = await company();
    const buyer = await member("buyer");
    const accounts = await member("accounts");
    const ownerPage = await (
      await settle(
        companyLoader({
          request: getRequest("/dashboard/company", { cookie: await sessionCookieHeader(owner.id) }),
          params: {},
          context: context(),
        }),
      )
    ).json();
    expect(ownerPage.owner).toBe(true);
    expect(ownerPage.members).toHaveLength(3);
    for (const person of [buyer, accounts]) {
      const cookie = await sessionCookieHeader(person.id);
      const page = await (
        await settle(
          companyLoader({ request: getRequest("/dashboard/company", { cookie }), params: {}, context: context() }),
        )
      ).json();
      expect(page.owner).toBe(false);
      expect(page.invitations).toEqual([]);
      expect(page.members).toHaveLength(3);
      const before = await snapshot(owner.companyId);
      const attempts: Record<string, string>[] = [
        { intent: "invite", email: uniqueEmail(), role: "owner" },
        { intent: "role", member: person.id, role: "owner" },
        { intent: "role", member: owner.id, role: "buyer" },
        { intent: "limit", member: buyer.id, limit: "1" },
        { intent: "remove", member: owner.id },
      ];
      for (const fields of attempts) {
        expect((await post(cookie, fields)).status, JSON.stringify(fields)).toBe(403);
      }
      expect(await snapshot(owner.companyId)).toEqual(before);
    }
  });

  test("only owners change the company's details; accounts cannot change its address book (403, nothing written)", async () => {
    const { owner, member } = await company();
    const buyer = await member("buyer");
    const accounts = await member("accounts");
    const profilePost = async (personId: string, fields: Record<string, string>) =>
      settle(
        profileAction({
          request: postRequest("/dashboard", fields, { cookie: await sessionCookieHeader(personId) }),
          params: {},
          context: context(),
        }),
      );
    const details = { intent: "company", companyName: "Taken Over Ltd", billingAddress: "1 Elsewhere" };
    const before = await Company.findById(owner.companyId).lean();
    for (const person of [buyer, accounts]) {
      expect((await profilePost(person.id, details)).status).toBe(403);
    }
    const address = {
      intent: "address-save",
      label: "Back door",
      ...addressForm({ ...DETROIT, company: "", line1: "2 Side Street" }, "postal"),
    };
    expect((await profilePost(accounts.id, address)).status).toBe(403);
    const unchanged = await Company.findById(owner.companyId).lean();
    expect([unchanged?.companyName, unchanged?.billingAddress, unchanged?.addresses ?? []]).toEqual([
      before?.companyName,
      before?.billingAddress,
      before?.addresses ?? [],
    ]);
    // A buyer orders to the company's addresses, so may add one; the owner changes the details.
    expect((await profilePost(buyer.id, address)).status).toBe(302);
    expect((await profilePost(owner.id, details)).status).toBe(302);
    const after = await Company.findById(owner.companyId).lean();
    expect(after?.companyName).toBe("Taken Over Ltd");
    expect(after?.addresses?.map((entry) => entry.address)).toEqual([
      "2 Side Street\nDetroit, MI 48209\nUnited States",
    ]);
  });

  test("an owner of company A cannot touch company B's members or invitations (404, nothing written)", async () => {
    const a = await company();
    const b = await company();
    const bBuyer = await b.member("buyer");
    await post(b.cookie, { intent: "invite", email: uniqueEmail("b"), role: "buyer" });
    const bInvitation = await Invitation.findOne({ companyId: b.owner.companyId }).lean();
    const before = await snapshot(b.owner.companyId);
    const attempts: Record<string, string>[] = [
      { intent: "role", member: bBuyer.id, role: "owner" },
      { intent: "role", member: b.owner.id, role: "buyer" },
      { intent: "limit", member: bBuyer.id, limit: "5" },
      { intent: "remove", member: bBuyer.id },
      { intent: "revoke", invitation: bInvitation!._id.slice(0, 22) },
    ];
    for (const fields of attempts) {
      expect((await post(a.cookie, fields)).status, JSON.stringify(fields)).toBe(404);
    }
    expect(await snapshot(b.owner.companyId)).toEqual(before);
  });
});

describe("roles, limits and removal", () => {
  test("an owner changes a role and a buyer's limit, audited", async () => {
    const { owner, member, cookie } = await company();
    const buyer = await member("buyer");
    expect((await post(cookie, { intent: "limit", member: buyer.id, limit: "2500" })).status).toBe(302);
    expect((await User.findById(buyer.id).lean())?.spendingLimitCents).toBe(250_000);
    expect((await post(cookie, { intent: "limit", member: buyer.id, limit: "-3" })).status).toBe(400);
    expect((await post(cookie, { intent: "limit", member: buyer.id, limit: "" })).status).toBe(302);
    expect((await User.findById(buyer.id).lean())?.spendingLimitCents).toBeUndefined();
    expect((await post(cookie, { intent: "role", member: buyer.id, role: "accounts" })).status).toBe(302);
    expect((await User.findById(buyer.id).lean())?.companyRole).toBe("accounts");
    expect(await Audit.exists({ action: "company.role", targetId: buyer.id })).toBeTruthy();
    expect(await Audit.exists({ action: "company.limit", targetId: buyer.id })).toBeTruthy();
    expect(await User.countDocuments({ companyId: owner.companyId })).toBe(2);
  });

  test("a removed member is signed out at once, gets a company of their own, and their orders stay with the company", async () => {
    const { owner, member, cookie } = await company();
    const buyer = await member("buyer");
    const order = await createOrder({ user: buyer });
    const buyerCookie = await sessionCookieHeader(buyer.id);
    expect(await getUser(getRequest("/dashboard", { cookie: buyerCookie }))).not.toBeNull();
    expect((await post(cookie, { intent: "remove", member: buyer.id })).status).toBe(302);
    expect(await getUser(getRequest("/dashboard", { cookie: buyerCookie }))).toBeNull();
    expect(await Session.countDocuments({ userId: buyer.id })).toBe(0);
    const stored = await User.findById(buyer.id).lean();
    expect(String(stored?.companyId)).not.toBe(owner.companyId);
    expect(stored?.companyRole).toBe("owner");
    expect(String((await Order.findById(order.id).lean())?.companyId)).toBe(owner.companyId);
    expect(await Audit.exists({ action: "company.remove", targetId: buyer.id })).toBeTruthy();
    expect(await Outbox.exists({ to: buyer.email, subject: /no longer order/ })).toBeTruthy();
  });

  test("the last owner can neither be demoted nor leave", async () => {
    const { owner, member, cookie } = await company();
    await member("buyer");
    const before = await snapshot(owner.companyId);
    expect((await post(cookie, { intent: "role", member: owner.id, role: "buyer" })).status).toBe(409);
    expect((await post(cookie, { intent: "remove", member: owner.id })).status).toBe(409);
    expect(await snapshot(owner.companyId)).toEqual(before);
  });

  test("two owners demoting each other at once never leave the company without an owner", async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, member, cookie } = await company();
      const second = await member("owner");
      const secondCookie = await sessionCookieHeader(second.id);
      const results = await Promise.all([
        post(cookie, { intent: "role", member: second.id, role: "buyer" }),
        post(secondCookie, { intent: "role", member: owner.id, role: "buyer" }),
      ]);
      const owners = await User.countDocuments({ companyId: owner.companyId, companyRole: "owner" });
      expect(owners).toBe(1);
      expect((await Company.findById(owner.companyId).lean())?.ownerCount).toBe(1);
      // The loser is refused either way: 409 when it passed the owner check before the winner wrote
      // (the owner seat stops it), 403 when it arrived after and was no owner any more.
      const statuses = results.map((response) => response.status).sort();
      expect(statuses[0]).toBe(302);
      expect([403, 409]).toContain(statuses[1]);
    }
  });

  test("the owner seat lets exactly one of two simultaneous demotions through, whichever arrives first", async () => {
    for (let round = 0; round < 5; round++) {
      const { owner, member } = await company();
      const second = await member("owner");
      // Both changes read the company as having two owners; only the seat decides.
      const results = await Promise.all([
        changeMemberRole(owner.companyId, second.id, "buyer"),
        changeMemberRole(owner.companyId, owner.id, "buyer"),
      ]);
      expect(results.sort()).toEqual(["changed", "last-owner"]);
      expect(await User.countDocuments({ companyId: owner.companyId, companyRole: "owner" })).toBe(1);
      expect((await Company.findById(owner.companyId).lean())?.ownerCount).toBe(1);
    }
  });

  test("two owners removing each other at once never leave the company without an owner", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, member, cookie } = await company();
      const second = await member("owner");
      const secondCookie = await sessionCookieHeader(second.id);
      await Promise.all([
        post(cookie, { intent: "remove", member: second.id }),
        post(secondCookie, { intent: "remove", member: owner.id }),
      ]);
      expect(await User.countDocuments({ companyId: owner.companyId, companyRole: "owner" })).toBe(1);
    }
  });
});

describe("the role beside a person's name (header and dashboard sidebar)", () => {
  /** The role label the header (root loader) and the sidebar (dashboard layout loader) get for this person. */
  async function roleLabels(userId: string) {
    const cookie = await sessionCookieHeader(userId);
    const root = await settle(rootLoader(loaderArgs(getRequest("/parts", { cookie }))));
    const dashboard = await settle(dashboardLoader(loaderArgs(getRequest("/dashboard", { cookie }))));
    return [(await root.json()).user.roleLabel, (await dashboard.json()).user.roleLabel];
  }

  test("a customer alone in their company has none; in a company of several, each member's role shows", async () => {
    const lone = await createUser({ name: "Lone Customer" });
    expect(await roleLabels(lone.id)).toEqual([null, null]);

    const { owner, member, cookie } = await company();
    expect(await roleLabels(owner.id), "an owner alone is one customer").toEqual([null, null]);
    const buyer = await member("buyer");
    const clerk = await member("accounts");
    expect(await roleLabels(owner.id)).toEqual(["Owner", "Owner"]);
    expect(await roleLabels(buyer.id)).toEqual(["Buyer", "Buyer"]);
    expect(await roleLabels(clerk.id)).toEqual(["Accounts", "Accounts"]);
    expect(await roleLabels((await createUser({ role: "admin" })).id)).toEqual(["Admin", "Admin"]);

    // Removed, the buyer gets a company of their own: alone again, with no role to show.
    expect((await post(cookie, { intent: "remove", member: buyer.id })).status).toBe(302);
    expect(await roleLabels(buyer.id)).toEqual([null, null]);
    expect(await roleLabels(owner.id), "the owner still has the accounts member").toEqual(["Owner", "Owner"]);
  });
});
