/**
 * An account made in someone else's name keeps no door open: until the address is proved it makes
 * no API keys and no webhooks, and when the real owner proves it (the verification link, a reset
 * link) or the password changes, every session, key and webhook made before ends and the owner is
 * told. Sign out everywhere revokes keys too; Your sessions says keys are not sessions and offers
 * to revoke them. Through the screens' real actions and the suite's shop (which sends the mail).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ApiKey, createApiKey } from "~/models/api-key.server";
import { Session } from "~/models/session.server";
import { addEndpoint, WebhookEndpoint } from "~/models/webhook.server";
import { action as allUsersAction } from "~/routes/dashboard.allUsers";
import { action as keysAction, loader as keysLoader } from "~/routes/dashboard.apiKeys/route";
import { action as profileAction } from "~/routes/dashboard._index";
import { action as sessionsAction, loader as sessionsLoader } from "~/routes/dashboard.sessions";
import { action as webhooksAction, loader as webhooksLoader } from "~/routes/dashboard.webhooks/route";
import { action as resetAction } from "~/routes/reset-password";
import { action as verifyAction } from "~/routes/verify-email";
import { VERIFY_FIRST } from "~/services/account-access.server";
import { authenticateToken } from "~/services/api-keys.server";
import { sendVerificationEmail } from "~/services/email-verification.server";
import { sendPasswordResetLink } from "~/services/password-reset.server";
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
