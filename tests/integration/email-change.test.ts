/**
 * My Profile's email settings: a new address takes effect only once the link mailed to it is
 * opened (the old address stays until then and is told afterwards), and order update emails can be
 * turned off and on again.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { User } from "~/models/user.server";
import { loader as changeEmailLoader } from "~/routes/change-email";
import { action as profileAction } from "~/routes/dashboard._index";
import { EMAIL_TAKEN, SAME_EMAIL } from "~/utils/account-schemas";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { linkIn, waitForMail } from "../setup/mail";
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

describe("change of email", () => {
  test("the new address counts only once its link is opened; the old one is told; the link works once", async () => {
    const user = await createUser({ name: "Cleo Change", email: fresh("old") });
    const cookie = await sessionCookieHeader(user.id);
    const newEmail = fresh("new");

    const response = await postProfile({ intent: "change-email", newEmail: newEmail.toUpperCase() }, cookie);
    expect(response.status).toBe(302);
    expect((await User.findById(user.id).lean())?.email).toBe(user.email);
    const profile = await fetch(`${shopUrl}/dashboard`, { headers: { Cookie: cookie } });
    expect(await profile.text()).toContain(user.email);

    const [mail] = await waitForMail(newEmail, { subject: "Confirm your new email address for PartsWorks" });
    const link = new URL(linkIn(mail, `${shopUrl}/change-email?token=`));
    const opened = await settle(
      changeEmailLoader(loaderArgs(getRequest(`${link.pathname}${link.search}`, { cookie }))),
    );
    expect(opened.status).toBe(302);
    const after = await User.findById(user.id).lean();
    expect(after?.email).toBe(newEmail);
    expect(after?.emailVerifiedAt).toBeInstanceOf(Date);
    const [notice] = await waitForMail(user.email, { subject: "Your PartsWorks email address was changed" });
    expect(notice.text).toContain(newEmail);

    const again = await settle(changeEmailLoader(loaderArgs(getRequest(`${link.pathname}${link.search}`))));
    expect(again.status).toBe(400);
    expect(JSON.stringify(await again.json())).toContain("already been used");
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
        await postProfile({ intent: "change-email", newEmail: value }, cookie),
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
