/**
 * Forgot password: the same answer for any email, a link by mail (read from the mail catcher) that
 * works once within the hour, the sign-up password rules, every session ended, and a notice mailed.
 */
import { randomUUID } from "node:crypto";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, test } from "vitest";
import { AccountToken, hashToken } from "~/models/account-token.server";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password";
import { verifyLogin } from "~/services/sign-in.server";
import { RESET_LINK_PROBLEMS } from "~/services/password-reset.server";
import { createUser, sessionCookieValue, TEST_PASSWORD } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { getRequest, postRequest, settle, testContext } from "../setup/requests";

const shopUrl = process.env.SHOP_URL!;
const testIp = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
const args = (request: Request, clientIp = testIp()): ActionFunctionArgs & LoaderFunctionArgs => ({
  request,
  params: {},
  context: testContext({ clientIp: `${clientIp}-${randomUUID().slice(0, 6)}` }),
});

async function askForLink(email: string) {
  return settle(forgotAction(args(postRequest("/forgot-password", { email }))));
}

async function resetLinkFor(email: string) {
  expect((await askForLink(email)).headers.get("Location")).toBe("/forgot-password?sent");
  const [mail] = await waitForMail(email, { subject: "Reset your PartsWorks password" });
  return linkIn(mail, `${shopUrl}/reset-password?token=`);
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

async function loaderProblem(link: string) {
  const url = new URL(link);
  const response = await settle(resetLoader(args(getRequest(`${url.pathname}${url.search}`))));
  return ((await response.json()) as { problem: string | null }).problem;
}

function submitReset(token: string, password: string) {
  return settle(resetAction(args(postRequest("/reset-password", { token, password }))));
}

describe("forgot password", () => {
  test("answers the same whether or not the account exists, and mails only a real account", async () => {
    const nobody = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const user = await createUser();
    const [forNobody, forUser] = [await askForLink(nobody), await askForLink(user.email)];
    for (const response of [forNobody, forUser]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/forgot-password?sent");
    }
    await waitForMail(user.email, { subject: "Reset your PartsWorks password" });
    expect(await AccountToken.countDocuments({ email: nobody })).toBe(0);
  });

  test("a bad email is a field error and sends nothing", async () => {
    const response = await settle(forgotAction(args(postRequest("/forgot-password", { email: "not-an-email" }))));
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("Provide a valid Email");
  });

  test("is throttled per email and address: the sixth request in an hour from one address waits", async () => {
    // (The ceiling per email over all addresses, and the owner's own address staying free, are in
    // account-security.test.ts.)
    const email = `flood-${randomUUID().slice(0, 8)}@example.com`;
    const fromOneAddress = () =>
      settle(
        forgotAction({
          request: postRequest("/forgot-password", { email }),
          params: {},
          context: testContext({ clientIp: "198.51.100.201" }),
        }),
      );
    for (let i = 0; i < 5; i++) expect((await fromOneAddress()).status).toBe(302);
    const refused = await fromOneAddress();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("the reset link", () => {
  test("sets a new password once, signs out everywhere and sends a notice", async () => {
    const user = await createUser({ name: "Rosa Reset" });
    const { sessionId } = await sessionCookieValue(user.id);
    const link = await resetLinkFor(user.email);
    const token = tokenOf(link);
    // Only the hash is stored.
    expect(await AccountToken.findById(token)).toBeNull();
    expect(await AccountToken.findById(hashToken(token))).not.toBeNull();
    expect(await loaderProblem(link)).toBeNull();

    const tooShort = await submitReset(token, "12345");
    expect(tooShort.status).toBe(400);
    expect(JSON.stringify(await tooShort.json())).toContain("Must be 6 characters or longer");

    const done = await submitReset(token, "brand-new-pass");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/login");
    expect(await Session.countDocuments({ _id: sessionId })).toBe(0);
    expect(await verifyLogin(user.email, "brand-new-pass")).not.toBeNull();
    expect(await verifyLogin(user.email, TEST_PASSWORD)).toBeNull();
    const [notice] = await waitForMail(user.email, { subject: "Your PartsWorks password was changed" });
    expect(notice.text).toContain("Hello Rosa Reset");

    // Used once: refused with a clear message, the password unchanged.
    expect(await loaderProblem(link)).toBe(RESET_LINK_PROBLEMS.used);
    const again = await submitReset(token, "another-pass-1");
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain(RESET_LINK_PROBLEMS.used);
    expect(await verifyLogin(user.email, "brand-new-pass")).not.toBeNull();
  });

  test("an expired link is refused with a clear message", async () => {
    const user = await createUser();
    const link = await resetLinkFor(user.email);
    await AccountToken.updateOne(
      { _id: hashToken(tokenOf(link)) },
      { $set: { expiresAt: new Date(Date.now() - 1000) } },
    );
    expect(await loaderProblem(link)).toBe(RESET_LINK_PROBLEMS.expired);
    const response = await submitReset(tokenOf(link), "brand-new-pass");
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(RESET_LINK_PROBLEMS.expired);
    expect(await verifyLogin(user.email, TEST_PASSWORD)).not.toBeNull();
  });

  test("a made-up token is refused", async () => {
    expect(await loaderProblem(`${shopUrl}/reset-password?token=${"a".repeat(43)}`)).toBe(RESET_LINK_PROBLEMS.unknown);
    expect((await submitReset("nonsense", "brand-new-pass")).status).toBe(400);
  });

  test("an account made with Google can set a password this way", async () => {
    const email = `google-${randomUUID().slice(0, 8)}@example.com`;
    await User.create({ email, name: "Gia Google", googleId: `g-${randomUUID()}`, role: "customer" });
    const link = await resetLinkFor(email);
    expect((await submitReset(tokenOf(link), "now-with-password")).status).toBe(302);
    expect(await verifyLogin(email, "now-with-password")).not.toBeNull();
  });
});
