/**
 * An account made in someone else's name keeps no door open: until the address is proved it makes
 * no API keys, no webhooks and no invitations, and when the real owner proves it (the verification
 * link, a reset link) or the password changes, every session, key and webhook made before ends and
 * the owner is told; a first proof also withdraws the invitations it sent and suspends whoever
 * joined through them (an accomplice's key, webhook and sessions end with them). Invitations carry
 * no sender's words in the subject and are capped per account, per hour and per company. Sign out everywhere revokes keys too; Your sessions says keys are not sessions and offers
 * to revoke them. Through the screens' real actions and the suite's shop (which sends the mail).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ApiKey, createApiKey } from "~/models/api-key.server";
import { Company } from "~/models/company.server";
import { createInvitation, Invitation } from "~/models/invitation.server";
import { Outbox } from "~/models/outbox.server";
import { User } from "~/models/user.server";
import { Session } from "~/models/session.server";
import { addEndpoint, WebhookEndpoint } from "~/models/webhook.server";
import { action as allUsersAction } from "~/routes/dashboard.allUsers";
import { action as companyAction, loader as companyLoader } from "~/routes/dashboard.company";
import { action as invitationAction, loader as invitationLoader } from "~/routes/invitations.$token";
import { action as keysAction, loader as keysLoader } from "~/routes/dashboard.apiKeys/route";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as sessionsAction, loader as sessionsLoader } from "~/routes/dashboard.sessions";
import { action as webhooksAction, loader as webhooksLoader } from "~/routes/dashboard.webhooks/route";
import { action as resetAction } from "~/routes/reset-password";
import { action as verifyAction } from "~/routes/verify-email";
import { VERIFY_FIRST } from "~/services/account-access.server";
import { authenticateToken } from "~/services/api-keys.server";
import { sendVerificationEmail } from "~/services/email-verification.server";
import { sendPasswordResetLink } from "~/services/password-reset.server";
import {
  endWhatInvitationsOpened,
  MAX_PENDING_INVITATIONS_PER_COMPANY,
  TOO_MANY_PENDING,
  VERIFY_TO_INVITE,
} from "~/services/invitations.server";
import { INVITATIONS_PER_ACCOUNT_PER_HOUR } from "~/services/mail-throttle.server";
import { createUser, sessionCookieHeader, sessionCookieValue, TEST_PASSWORD } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { actionArgs, getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { toastOf } from "./ordering.helpers";

const SHOP = process.env.SHOP_URL!;
const fresh = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
let addressCount = 0;
const freshAddress = () => `198.51.${Math.floor(++addressCount / 250) % 250}.${(addressCount % 250) + 1}`;

const post = (
  action: (args: ReturnType<typeof actionArgs>) => Promise<unknown>,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
) =>
  settle(
    action({
      request: postRequest(path, fields, { cookie }),
      params: {},
      context: testContext({ clientIp: freshAddress() }),
    }),
  );

/** A squatter's account with a session, a key and a webhook (made before the owner shows up). */
async function squatted(email = fresh("squatted")) {
  const user = await createUser({ email, name: "Sam Squatter", verified: false });
  const session = await sessionCookieValue(user.id);
  const { token } = await createApiKey({ ownerId: user.id, companyId: user.companyId, name: "Door", scopes: ["read"] });
  const endpoint = await addEndpoint({
    ownerId: user.id,
    companyId: user.companyId,
    scope: "own",
    url: "https://squatter.example.com/hook",
    secret: "whsec_squatter",
  });
  expect(await authenticateToken(token)).not.toBeNull();
  return { user, session, token, endpointId: endpoint.id };
}

async function expectAllEnded({ user, token, endpointId }: Awaited<ReturnType<typeof squatted>>) {
  expect(await authenticateToken(token)).toBeNull();
  expect(await ApiKey.countDocuments({ ownerId: user.id, revokedAt: null })).toBe(0);
  expect(await WebhookEndpoint.exists({ _id: endpointId })).toBeNull();
}

describe("an account whose address is not proved", () => {
  test("cannot make an API key or a webhook: 403 with the reason, nothing written, and the screens say why", async () => {
    const user = await createUser({ email: fresh("unproved"), verified: false });
    const cookie = await sessionCookieHeader(user.id);
    const key = await post(keysAction, "/dashboard/apiKeys", { intent: "create", name: "ERP", scopes: "read" }, cookie);
    expect(key.status).toBe(403);
    expect(JSON.stringify(await key.json())).toContain(VERIFY_FIRST);
    const hook = await post(
      webhooksAction,
      "/dashboard/webhooks",
      { intent: "add", url: "https://erp.example.com/hook" },
      cookie,
    );
    expect(hook.status).toBe(403);
    expect(JSON.stringify(await hook.json())).toContain(VERIFY_FIRST);
    expect(await ApiKey.countDocuments({ ownerId: user.id })).toBe(0);
    expect(await WebhookEndpoint.countDocuments({ ownerId: user.id })).toBe(0);

    for (const [loader, path] of [
      [keysLoader, "/dashboard/apiKeys"],
      [webhooksLoader, "/dashboard/webhooks"],
    ] as const) {
      const page = await settle(loader(loaderArgs(getRequest(path, { cookie }))));
      expect((await page.json()).verifyFirst, path).toBe(VERIFY_FIRST);
    }
    // Once proved, the same request makes the key.
    const proved = await createUser({ email: fresh("proved") });
    const made = await post(
      keysAction,
      "/dashboard/apiKeys",
      { intent: "create", name: "ERP", scopes: "read" },
      await sessionCookieHeader(proved.id),
    );
    expect(made.status).toBe(200);
  });
});

describe("the real owner taking the account back", () => {
  test("the verification link ends the squatter's sessions, key and webhook, and mails the owner", async () => {
    const squat = await squatted();
    await sendVerificationEmail(squat.user);
    const [mail] = await waitForMail(squat.user.email, { subject: "Confirm your email address for PartsWorks" });
    const token = new URL(linkIn(mail, `${SHOP}/verify-email?token=`)).searchParams.get("token")!;
    // The owner opens the link in their own browser (no session of this account).
    const confirmed = await post(verifyAction, "/verify-email", { token });
    expect(confirmed.status).toBe(302);
    await expectAllEnded(squat);
    expect(await Session.countDocuments({ userId: squat.user.id })).toBe(0);
    const [notice] = await waitForMail(squat.user.email, { subject: "Your PartsWorks address is confirmed" });
    expect(notice.text).toMatch(/1 session signed out, 1 API key and 1 webhook removed/);
  });

  test("confirming in the browser signed in to the account keeps that session", async () => {
    const user = await createUser({ email: fresh("own-confirm"), verified: false });
    const here = await sessionCookieValue(user.id);
    await sendVerificationEmail(user);
    const [mail] = await waitForMail(user.email, { subject: "Confirm your email address for PartsWorks" });
    const token = new URL(linkIn(mail, `${SHOP}/verify-email?token=`)).searchParams.get("token")!;
    expect((await post(verifyAction, "/verify-email", { token }, `__session=${here.value}`)).status).toBe(302);
    expect(await Session.exists({ _id: here.sessionId })).toBeTruthy();
  });

  test("a reset link ends them too, and the password-changed mail says so", async () => {
    const squat = await squatted();
    await sendPasswordResetLink(squat.user.email);
    const [mail] = await waitForMail(squat.user.email, { subject: "Reset your PartsWorks password" });
    const token = new URL(linkIn(mail, `${SHOP}/reset-password?token=`)).searchParams.get("token")!;
    expect((await post(resetAction, "/reset-password", { token, password: "taken-back-4417" })).status).toBe(302);
    await expectAllEnded(squat);
    expect(await Session.countDocuments({ userId: squat.user.id })).toBe(0);
    const [notice] = await waitForMail(squat.user.email, { subject: "Your PartsWorks password was changed" });
    expect(notice.text).toContain("(1 API key and 1 webhook)");
  });

  test("a change of password ends every key and webhook made before it and every other session", async () => {
    const user = await createUser({ email: fresh("changer") });
    const here = await sessionCookieValue(user.id);
    const other = await sessionCookieValue(user.id);
    const { token } = await createApiKey({
      ownerId: user.id,
      companyId: user.companyId,
      name: "Old",
      scopes: ["read"],
    });
    const endpoint = await addEndpoint({
      ownerId: user.id,
      companyId: user.companyId,
      scope: "own",
      url: "https://old.example.com/hook",
      secret: "whsec_old",
    });
    const changed = await post(
      profileAction,
      "/dashboard?index",
      { intent: "change-password", currentPassword: TEST_PASSWORD, newPassword: "brand-new-7731" },
      `__session=${here.value}`,
    );
    expect(changed.status).toBe(302);
    expect((await toastOf(changed))?.description).toMatch(/1 API key and 1 webhook stopped working/);
    await expectAllEnded({ user, token, endpointId: endpoint.id, session: here });
    expect(await Session.exists({ _id: here.sessionId })).toBeTruthy();
    expect(await Session.exists({ _id: other.sessionId })).toBeNull();
  });
});

describe("sign out everywhere", () => {
  test("an admin's revokes the user's API keys too, and says so", async () => {
    const admin = await createUser({ role: "admin" });
    const squat = await squatted();
    const answer = await post(
      allUsersAction,
      "/dashboard/allUsers",
      { intent: "sign-out", userId: squat.user.id },
      await sessionCookieHeader(admin.id),
    );
    expect(answer.status).toBe(302);
    expect((await toastOf(answer))?.message).toMatch(/signed out everywhere\. 1 API key revoked\./);
    expect(await Session.countDocuments({ userId: squat.user.id })).toBe(0);
    expect(await authenticateToken(squat.token)).toBeNull();
  });

  test("Your sessions says keys are not sessions and revokes them when asked", async () => {
    const user = await createUser({ email: fresh("sessions-keys") });
    const cookie = await sessionCookieHeader(user.id);
    const keys = await Promise.all(
      ["A", "B"].map((name) => createApiKey({ ownerId: user.id, companyId: user.companyId, name, scopes: ["read"] })),
    );
    const page = await settle(sessionsLoader(loaderArgs(getRequest("/dashboard/sessions", { cookie }))));
    expect((await page.json()).liveKeys).toBe(2);
    // Ending the other sessions leaves keys working, as the page says.
    await post(sessionsAction, "/dashboard/sessions", { intent: "end-others" }, cookie);
    expect(await authenticateToken(keys[0].token)).not.toBeNull();
    const revoked = await post(sessionsAction, "/dashboard/sessions", { intent: "revoke-keys" }, cookie);
    expect(revoked.status).toBe(302);
    expect((await toastOf(revoked))?.message).toBe("Your 2 API keys are revoked.");
    for (const { token } of keys) expect(await authenticateToken(token)).toBeNull();
  });
});

// --- Invitations ---------------------------------------------------------------------------------

/** The name the attacker typed on their account: it must never read as the shop's own words. */
const LURE = "PartsWorks Security Team: your account is suspended, confirm at http://partsworks-verify.example";
const flat = (text: string) => text.replace(/\s+/g, " ");

const invite = (cookie: string, email: string, role = "owner") =>
  post(companyAction, "/dashboard/company", { intent: "invite", email, role }, cookie);

async function namedCompany(userId: string) {
  const name = `Depot ${randomUUID().slice(0, 6)}`;
  await Company.updateOne({ _id: (await User.findById(userId).lean())!.companyId }, { $set: { companyName: name } });
  return name;
}

const invitationPage = (token: string) =>
  settle(
    invitationLoader({
      request: getRequest(`/invitations/${token}`),
      params: { token },
      context: testContext({ clientIp: freshAddress() }),
    }),
  );
const acceptAsNew = (token: string, name: string) =>
  settle(
    invitationAction({
      request: postRequest(`/invitations/${token}`, { intent: "create", name, password: "accomplice-pass-5521" }),
      params: { token },
      context: testContext({ clientIp: freshAddress() }),
    }),
  );

const api = (token: string) => fetch(`${SHOP}/api/v1/orders`, { headers: { Authorization: `Bearer ${token}` } });

/**
 * The attack as it stood: an unproved account (invitations it sent before this rule) brought in an
 * accomplice as co-owner, who joined (proved at once by the link), made an API key and a webhook
 * through the screens, and invited someone else; another invitation of the squatter still waits.
 */
async function squattedCompany() {
  const squatter = await createUser({ email: fresh("owner"), name: LURE, verified: false });
  const companyName = await namedCompany(squatter.id);
  const accompliceEmail = fresh("accomplice");
  const pendingEmail = fresh("pending");
  const sent = (email: string) =>
    createInvitation({
      companyId: squatter.companyId,
      email,
      role: "owner",
      invitedBy: squatter.id,
      invitedByName: squatter.name,
      ttlMs: 7 * 24 * 60 * 60 * 1000,
    });
  const accompliceToken = await sent(accompliceEmail);
  const pendingToken = await sent(pendingEmail);
  expect((await acceptAsNew(accompliceToken, "Al Accomplice")).status).toBe(302);
  const accomplice = (await User.findOne({ email: accompliceEmail }).lean())!;
  expect(String(accomplice.companyId)).toBe(squatter.companyId);
  expect(accomplice.emailVerifiedAt).toBeTruthy();
  const accompliceId = String(accomplice._id);
  const cookie = await sessionCookieHeader(accompliceId);
  const made = await post(keysAction, "/dashboard/apiKeys", { intent: "create", name: "Door", scopes: "read" }, cookie);
  expect(made.status).toBe(200);
  const key = ((await made.json()) as { created: { token: string } }).created.token;
  const hook = await post(
    webhooksAction,
    "/dashboard/webhooks",
    { intent: "add", url: "https://accomplice.example.com/hook" },
    cookie,
  );
  expect(hook.status).toBe(200);
  expect(await WebhookEndpoint.countDocuments({ ownerId: accompliceId, companyId: squatter.companyId })).toBe(1);
  expect((await api(key)).status).toBe(200);
  // The accomplice, proved, invites a second helper, who joins too.
  const helperEmail = fresh("helper");
  expect((await invite(cookie, helperEmail, "buyer")).status).toBe(302);
  const helperToken = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(
    (await Outbox.findOne({ to: helperEmail }).lean())?.text ?? "",
  )![1];
  expect((await acceptAsNew(helperToken, "Hal Helper")).status).toBe(302);
  const helperId = String((await User.findOne({ email: helperEmail }).lean())!._id);
  return {
    squatter,
    companyName,
    accompliceId,
    accompliceEmail,
    helperId,
    helperEmail,
    pendingEmail,
    pendingToken,
    key,
  };
}

/** What the attacker and their accomplice see once the real owner has proved the address. */
async function expectTakenBack(attack: Awaited<ReturnType<typeof squattedCompany>>) {
  expect((await api(attack.key)).status).toBe(401);
  expect(await WebhookEndpoint.countDocuments({ ownerId: attack.accompliceId })).toBe(0);
  for (const id of [attack.accompliceId, attack.helperId]) {
    const member = await User.findById(id).lean();
    expect(String(member?.companyId), "out of the company").not.toBe(attack.squatter.companyId);
    expect(member?.companyRole).toBe("owner");
    expect(await Session.countDocuments({ userId: id })).toBe(0);
  }
  expect(await User.countDocuments({ companyId: attack.squatter.companyId })).toBe(1);
  // The invitation still waiting can no longer be accepted: nothing is written.
  const page = await invitationPage(attack.pendingToken);
  expect(page.status).toBe(404);
  expect((await page.json()).problem).toBe("This invitation link is not valid.");
  const accepted = await acceptAsNew(attack.pendingToken, "Late Comer");
  expect(accepted.status).toBe(404);
  expect(await User.exists({ email: attack.pendingEmail })).toBeNull();
}

function expectOwnerToldOf(text: string, attack: Awaited<ReturnType<typeof squattedCompany>>) {
  const said = flat(text);
  expect(said).toContain(`1 pending invitation withdrawn: ${attack.pendingEmail}`);
  expect(said).toContain(
    `2 members who joined through them suspended (taken out of the company and signed out): ${attack.accompliceEmail}, ${attack.helperEmail}`,
  );
  expect(said).toContain("1 API key of theirs revoked, 1 webhook of theirs disabled");
}

describe("invitations from an account whose address is not proved", () => {
  test("are refused: 403 with the reason, nothing written and no mail, 25 times out of 25; the screen says why instead of the form", async () => {
    const user = await createUser({ email: fresh("relay"), name: LURE, verified: false });
    const cookie = await sessionCookieHeader(user.id);
    const targets = Array.from({ length: 25 }, () => fresh("target"));
    for (const email of targets) {
      const refused = await invite(cookie, email);
      expect(refused.status).toBe(403);
      expect(JSON.stringify(await refused.json())).toContain(VERIFY_TO_INVITE);
    }
    expect(await Invitation.countDocuments({ invitedBy: user.id })).toBe(0);
    expect(await Outbox.countDocuments({ to: { $in: targets } })).toBe(0);

    const page = await settle(companyLoader(loaderArgs(getRequest("/dashboard/company", { cookie }))));
    expect((await page.json()).verifyFirst).toBe(VERIFY_TO_INVITE);
    const html = await (await fetch(`${SHOP}/dashboard/company`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain("Confirm your email address first: invitations go out only from an address proved");
    expect(html).not.toContain("Send invitation");
    // How to verify: the link mailed at sign-up, or the banner's button on the same page.
    expect(html).toContain("Send the link again");
  });
});

describe("invitations from a proved account", () => {
  test("name the shop and the company in the subject, and quote the sender's typed name in the body", async () => {
    const owner = await createUser({ email: fresh("proved-owner"), name: LURE });
    const companyName = await namedCompany(owner.id);
    const to = fresh("colleague");
    expect((await invite(await sessionCookieHeader(owner.id), to, "buyer")).status).toBe(302);
    const [mail] = await waitForMail(to);
    expect(mail.subject).toBe(`PartsWorks: an invitation to order for ${companyName}`);
    expect(mail.subject).not.toMatch(/Security|suspended|http/);
    const text = flat(mail.text);
    expect(text).toContain(`Sent by a member of ${companyName} who gave their name as “${LURE}” (${owner.email}).`);
    expect(text).toContain("checked their email address, not the name or anything else they wrote");
    // The name appears once, inside the quotes, and not in the preview either.
    expect(text.split(LURE)).toHaveLength(2);
    expect(flat(mail.html).split(LURE)).toHaveLength(2);
  });

  test(`are capped at ${INVITATIONS_PER_ACCOUNT_PER_HOUR} an hour per account: then 429 with Retry-After and the reason, nothing written`, async () => {
    const owner = await createUser({ email: fresh("busy-owner") });
    const cookie = await sessionCookieHeader(owner.id);
    for (let sent = 0; sent < INVITATIONS_PER_ACCOUNT_PER_HOUR; sent++) {
      expect((await invite(cookie, fresh("team"), "buyer")).status).toBe(302);
    }
    const over = fresh("one-too-many");
    const refused = await invite(cookie, over, "buyer");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(JSON.stringify(await refused.json())).toMatch(
      new RegExp(
        `You have sent ${INVITATIONS_PER_ACCOUNT_PER_HOUR} invitations this hour, the most one account may send\\. Please try again in \\d+ minutes?\\.`,
      ),
    );
    expect(await Invitation.countDocuments({ invitedBy: owner.id })).toBe(INVITATIONS_PER_ACCOUNT_PER_HOUR);
    expect(await Invitation.exists({ email: over })).toBeNull();
    expect(await Outbox.exists({ to: over })).toBeNull();
  });

  test(`a company holds at most ${MAX_PENDING_INVITATIONS_PER_COMPANY} pending invitations: then 409 with the reason, nothing written`, async () => {
    const owner = await createUser({ email: fresh("full-owner") });
    await Invitation.insertMany(
      Array.from({ length: MAX_PENDING_INVITATIONS_PER_COMPANY }, () => ({
        _id: randomUUID(),
        companyId: owner.companyId,
        email: fresh("waiting"),
        role: "buyer",
        invitedBy: owner.id,
        expiresAt: new Date(Date.now() + 60_000),
      })),
    );
    const refused = await invite(await sessionCookieHeader(owner.id), fresh("fifty-first"), "buyer");
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain(TOO_MANY_PENDING);
    expect(await Invitation.countDocuments({ companyId: owner.companyId })).toBe(MAX_PENDING_INVITATIONS_PER_COMPANY);
  });
});

describe("the real owner proving the address of an account that invited before", () => {
  test("a reset link withdraws its invitations and suspends who joined through them: key 401, webhook gone, signed out; the mail lists it", async () => {
    const attack = await squattedCompany();
    await sendPasswordResetLink(attack.squatter.email);
    const [mail] = await waitForMail(attack.squatter.email, { subject: "Reset your PartsWorks password" });
    const token = new URL(linkIn(mail, `${SHOP}/reset-password?token=`)).searchParams.get("token")!;
    expect((await post(resetAction, "/reset-password", { token, password: "taken-back-4417" })).status).toBe(302);

    await expectTakenBack(attack);
    const [notice] = await waitForMail(attack.squatter.email, { subject: "Your PartsWorks password was changed" });
    expectOwnerToldOf(notice.text, attack);
    const [removed] = await waitForMail(attack.accompliceEmail, {
      subject: `You no longer order for ${attack.companyName} at PartsWorks`,
    });
    expect(removed).toBeTruthy();
  });

  test("the verification link does the same, and the address-confirmed mail lists it", async () => {
    const attack = await squattedCompany();
    await sendVerificationEmail(attack.squatter);
    const [mail] = await waitForMail(attack.squatter.email, { subject: "Confirm your email address for PartsWorks" });
    const token = new URL(linkIn(mail, `${SHOP}/verify-email?token=`)).searchParams.get("token")!;
    expect((await post(verifyAction, "/verify-email", { token })).status).toBe(302);

    await expectTakenBack(attack);
    const [notice] = await waitForMail(attack.squatter.email, { subject: "Your PartsWorks address is confirmed" });
    expectOwnerToldOf(notice.text, attack);
  });

  test("ending what invitations opened a second time (a retry) changes and reports nothing more", async () => {
    const attack = await squattedCompany();
    const first = await endWhatInvitationsOpened(attack.squatter);
    expect(first).toMatchObject({ withdrawn: [attack.pendingEmail], keys: 1, webhooks: 1 });
    expect(first.suspended).toEqual([attack.accompliceEmail, attack.helperEmail]);
    const again = await endWhatInvitationsOpened(attack.squatter);
    expect(again).toEqual({ withdrawn: [], suspended: [], sessions: 0, keys: 0, webhooks: 0 });
    await expectTakenBack(attack);
  });

  test("a reset by an owner whose address was already proved leaves the members they invited alone", async () => {
    const owner = await createUser({ email: fresh("proved-reset") });
    const colleagueEmail = fresh("kept");
    expect((await invite(await sessionCookieHeader(owner.id), colleagueEmail, "buyer")).status).toBe(302);
    const inviteToken = /\/invitations\/([A-Za-z0-9_-]{43})/.exec(
      (await Outbox.findOne({ to: colleagueEmail }).lean())?.text ?? "",
    )![1];
    expect((await acceptAsNew(inviteToken, "Kept Colleague")).status).toBe(302);
    await sendPasswordResetLink(owner.email);
    const [mail] = await waitForMail(owner.email, { subject: "Reset your PartsWorks password" });
    const token = new URL(linkIn(mail, `${SHOP}/reset-password?token=`)).searchParams.get("token")!;
    expect((await post(resetAction, "/reset-password", { token, password: "still-mine-8812" })).status).toBe(302);
    const colleague = await User.findOne({ email: colleagueEmail }).lean();
    expect(String(colleague?.companyId)).toBe(owner.companyId);
    const [notice] = await waitForMail(owner.email, { subject: "Your PartsWorks password was changed" });
    expect(notice.text).not.toContain("withdrawn");
  });
});
