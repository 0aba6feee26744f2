/**
 * My Profile's email settings: a change of address asks for the current password (an account
 * without one approves by a link to its current address), takes effect only once the button on
 * the page of the link mailed to it is pressed (the old address stays until then and is told
 * afterwards), ends every other session and retires links mailed before; order update emails can
 * be turned off and on again.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Session } from "~/models/session.server";
import { User } from "~/models/user.server";
import { action as changeEmailAction, loader as changeEmailLoader } from "~/routes/change-email";
import { action as profileAction } from "~/routes/dashboard._index/route";
import { action as resetAction } from "~/routes/reset-password";
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG, EMAIL_TAKEN, SAME_EMAIL } from "~/forms/account-schemas";
import { sendPasswordResetLink } from "~/services/password-reset.server";
import { createUser, sessionCookieHeader, sessionCookieValue, TEST_PASSWORD } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
import { settledMailTo } from "../setup/mail-settled";
import { actionArgs, getRequest, loaderArgs, postRequest, settle, testContext } from "../setup/requests";
import { expectFieldError } from "./ordering.helpers";

const shopUrl = process.env.SHOP_URL!;
const fresh = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

function postProfile(fields: Record<string, string>, cookie: string) {
  return settle(
    profileAction({
      ...actionArgs(postRequest("/dashboard?index", fields, { cookie })),
      context: testContext({ clientIp: `198.51.100.${Math.floor(Math.random() * 250)}` }),
    }),
  );
}

const confirmLink = (link: URL, cookie?: string) =>
  settle(
    changeEmailAction(
      actionArgs(postRequest("/change-email", { token: link.searchParams.get("token")! }, cookie ? { cookie } : {})),
    ),
  );

describe("change of email", () => {
  test("the new address counts only once its page's button is pressed; the old one is told; the link works once", async () => {
    const user = await createUser({ name: "Cleo Change", email: fresh("old") });
    const { sessionId, value } = await sessionCookieValue(user.id);
    const cookie = `__session=${value}`;
    const elsewhere = await sessionCookieValue(user.id);
    const newEmail = fresh("new");

    const response = await postProfile(
      { intent: "change-email", newEmail: newEmail.toUpperCase(), currentPassword: TEST_PASSWORD },
      cookie,
    );
    expect(response.status).toBe(302);
    expect((await User.findById(user.id).lean())?.email).toBe(user.email);
    const profile = await fetch(`${shopUrl}/dashboard`, { headers: { Cookie: cookie } });
    expect(await profile.text()).toContain(user.email);

    const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
    const link = new URL(linkIn(mail, `${shopUrl}/change-email?token=`));
    // Opening the link (a mail scanner's GET) shows the button and changes nothing.
    const opened = await settle(
      changeEmailLoader(loaderArgs(getRequest(`${link.pathname}${link.search}`, { cookie }))),
    );
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ problem: null, email: newEmail, step: "confirm" });
    expect((await fetch(link)).status).toBe(200);
    expect((await User.findById(user.id).lean())?.email).toBe(user.email);

    const confirmed = await confirmLink(link, cookie);
    expect(confirmed.status).toBe(302);
    const after = await User.findById(user.id).lean();
    expect(after?.email).toBe(newEmail);
    expect(after?.emailVerifiedAt).toBeInstanceOf(Date);
    const [notice] = await waitForMail(user.email, { subject: "Your PartsWorks email address was changed" });
    expect(notice.text).toContain(newEmail);
    // The browser that confirmed stays signed in; every other session ended.
    expect(await Session.exists({ _id: sessionId })).toBeTruthy();
    expect(await Session.exists({ _id: elsewhere.sessionId })).toBeNull();

    const again = await confirmLink(link);
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain("already been used");
  });

  test("the current password is asked for; a missing or wrong one changes nothing and mails nothing", async () => {
    const user = await createUser({ email: fresh("guard") });
    const cookie = await sessionCookieHeader(user.id);
    const newEmail = fresh("thief");
    for (const [fields, message] of [
      [{}, CURRENT_PASSWORD_REQUIRED],
      [{ currentPassword: "not-the-password" }, CURRENT_PASSWORD_WRONG],
    ] as const) {
      const response = await postProfile({ intent: "change-email", newEmail, ...fields }, cookie);
      await expectFieldError(response, "currentPassword", message);
    }
    // Nothing to the new address: none written, none on its way (rather than a wait that finds nothing).
    expect(await settledMailTo(newEmail)).toEqual([]);
    expect((await User.findById(user.id).lean())?.email).toBe(user.email);
  });

  test("a reset link mailed to the old address stops working once the email has changed", async () => {
    const user = await createUser({ email: fresh("before") });
    const cookie = await sessionCookieHeader(user.id);
    await sendPasswordResetLink(user.email);
    const [resetMail] = await waitForMail(user.email, { subject: "Reset your PartsWorks password" });
    const resetToken = new URL(linkIn(resetMail, `${shopUrl}/reset-password?token=`)).searchParams.get("token")!;

    const newEmail = fresh("after");
    await postProfile({ intent: "change-email", newEmail, currentPassword: TEST_PASSWORD }, cookie);
    const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
    expect((await confirmLink(new URL(linkIn(mail, `${shopUrl}/change-email?token=`)), cookie)).status).toBe(302);

    const reset = await settle(
      resetAction(actionArgs(postRequest("/reset-password", { token: resetToken, password: "taken-over-77" }))),
    );
    expect(reset.status).toBe(400);
    expect(JSON.stringify(await reset.json())).toContain("already been used");
  });

  test("an account that signs in only with Google approves the change from its current address first", async () => {
    const user = await createUser({ email: fresh("google-only") });
    await User.updateOne({ _id: user.id }, { $unset: { passwordHash: "" }, $set: { googleId: `g-${user.id}` } });
    const cookie = await sessionCookieHeader(user.id);
    const newEmail = fresh("google-new");

    expect((await postProfile({ intent: "change-email", newEmail }, cookie)).status).toBe(302);
    const [approval] = await waitForMail(user.email, {
      subject: "Approve a change of your PartsWorks email address",
    });
    const approve = new URL(linkIn(approval, `${shopUrl}/change-email?token=`));
    const page = await settle(changeEmailLoader(loaderArgs(getRequest(`${approve.pathname}${approve.search}`))));
    expect(await page.json()).toMatchObject({ problem: null, email: newEmail, step: "approve" });
    expect(await settledMailTo(newEmail)).toEqual([]);

    expect((await confirmLink(approve, cookie)).status).toBe(302);
    const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
    expect((await confirmLink(new URL(linkIn(mail, `${shopUrl}/change-email?token=`)), cookie)).status).toBe(302);
    expect((await User.findById(user.id).lean())?.email).toBe(newEmail);
  });

  test("a bad, unchanged or taken address is refused next to the field and changes nothing", async () => {
    const user = await createUser({ email: fresh("stay") });
    const other = await createUser({ email: fresh("other") });
    const cookie = await sessionCookieHeader(user.id);
    for (const [value, message] of [
      ["", "Email is Required"],
      ["not-an-email", "Provide a valid Email"],
      [user.email, SAME_EMAIL],
      [other.email.toUpperCase(), EMAIL_TAKEN],
    ] as const) {
      await expectFieldError(
        await postProfile({ intent: "change-email", newEmail: value, currentPassword: TEST_PASSWORD }, cookie),
        "newEmail",
        message,
      );
    }
    expect((await User.findById(user.id).lean())?.email).toBe(user.email);
  });
});

describe("email settings", () => {
  test("order update emails turn off (checkbox cleared) and on again", async () => {
    const user = await createUser();
    const cookie = await sessionCookieHeader(user.id);
    expect((await postProfile({ intent: "email-preferences" }, cookie)).status).toBe(302);
    expect((await User.findById(user.id).lean())?.orderUpdateEmails).toBe(false);
    expect((await postProfile({ intent: "email-preferences", orderUpdateEmails: "on" }, cookie)).status).toBe(302);
    expect((await User.findById(user.id).lean())?.orderUpdateEmails).toBe(true);
  });
});
