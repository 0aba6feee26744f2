/**
 * Sign-up mails a welcome with a link that verifies the address, once: the link opens a page with
 * one button, and only its POST verifies (a mail scanner's GET changes nothing).
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { User } from "~/models/user.server";
import { action as signupAction } from "~/routes/signup";
import { action as verifyAction, loader as verifyLoader } from "~/routes/verify-email";
import { action as emailAction } from "~/routes/dashboard.email";
import { loader as allUsersLoader } from "~/routes/dashboard.allUsers";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { getRequest, postRequest, settle, testContext } from "../setup/requests";

const shopUrl = process.env.SHOP_URL!;

describe("welcome and verification", () => {
  test("sign-up sends a welcome whose link opens a confirm page; its button verifies the address once", async () => {
    const email = `welcome-${randomUUID().slice(0, 8)}@example.com`;
    const request = postRequest("/signup", { name: "Wes Welcome", email, password: "secret-pass" });
    const signup = await settle(
      signupAction({ request, params: {}, context: testContext({ clientIp: `192.0.2.${randomUUID()}` }) }),
    );
    expect(signup.status).toBe(302);
    expect((await User.findOne({ email }).lean())?.emailVerifiedAt).toBeUndefined();

    const [mail] = await waitForMail(email, { subject: "Welcome to PartsWorks: please confirm your email address" });
    expect(mail.html).toContain("Confirm my email address");
    const link = new URL(linkIn(mail, `${shopUrl}/verify-email?token=`));
    const token = link.searchParams.get("token")!;

    // Opening the link (any number of times, as a scanner does) shows the button and verifies nothing.
    for (let i = 0; i < 2; i++) {
      const opened = await settle(
        verifyLoader({ request: getRequest(`${link.pathname}${link.search}`), params: {}, context: testContext() }),
      );
      expect(opened.status).toBe(200);
      expect(await opened.json()).toMatchObject({ problem: null, token, email });
    }
    // And over HTTP, the page a mail scanner fetches: a form with the button, and still unverified.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('method="post"');
    expect(html).toContain("Confirm my email address");
    expect((await User.findOne({ email }).lean())?.emailVerifiedAt).toBeUndefined();

    const confirm = () =>
      settle(verifyAction({ request: postRequest("/verify-email", { token }), params: {}, context: testContext() }));
    const first = await confirm();
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/login");
    expect((await User.findOne({ email }).lean())?.emailVerifiedAt).toBeInstanceOf(Date);

    const again = await confirm();
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain("already been used");
  });
});

describe("until the address is verified", () => {
  test("the dashboard shows a banner whose button mails a new link; admins see who is verified", async () => {
    const user = await createUser({ name: "Una Unverified", verified: false });
    const cookie = await sessionCookieHeader(user.id);
    const dashboard = await fetch(`${shopUrl}/dashboard`, { headers: { Cookie: cookie } });
    expect(await dashboard.text()).toContain("Please confirm your email address");

    const resend = await settle(
      emailAction({
        request: postRequest("/dashboard/email", { intent: "resend-verification" }, { cookie }),
        params: {},
        context: testContext({ clientIp: `192.0.2.${randomUUID()}` }),
      }),
    );
    expect(resend.status).toBe(302);
    const [mail] = await waitForMail(user.email, { subject: "Confirm your email address for PartsWorks" });
    const link = new URL(linkIn(mail, `${shopUrl}/verify-email?token=`));
    await settle(
      verifyAction({
        request: postRequest("/verify-email", { token: link.searchParams.get("token")! }, { cookie }),
        params: {},
        context: testContext(),
      }),
    );
    const after = await fetch(`${shopUrl}/dashboard`, { headers: { Cookie: cookie } });
    expect(await after.text()).not.toContain("Please confirm your email address");

    const admin = await createUser({ role: "admin" });
    const other = await createUser({ name: "Otto Other", verified: false });
    const page = await settle(
      allUsersLoader({
        request: getRequest("/dashboard/allUsers", { cookie: await sessionCookieHeader(admin.id) }),
        params: {},
        context: testContext(),
      }),
    );
    const { users } = (await page.json()) as { users: { id: string; emailVerified: boolean }[] };
    expect(users.find((row) => row.id === user.id)?.emailVerified).toBe(true);
    expect(users.find((row) => row.id === admin.id)?.emailVerified).toBe(true);
    expect(users.find((row) => row.id === other.id)?.emailVerified).toBe(false);
  });
});
