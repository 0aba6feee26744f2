/**
 * Emails that ran out of attempts: an admin sees them on Shop Today and /dashboard/failedMail and
 * sends one again (a plain form); nobody else can, and a bad or stale request changes nothing.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { addFailedMail, Outbox } from "~/models/outbox.server";
import { action, loader } from "~/routes/dashboard.failedMail";
import { createUser, sessionCookieHeader } from "../setup/factories";
import { waitForMail } from "../setup/mail";
import { actionArgs, fetchPage, loaderArgs, getRequest, pageText, postRequest, settle } from "../setup/requests";

async function failedMail() {
  const to = `failed-${randomUUID().slice(0, 8)}@example.com`;
  const id = `test:failed:${randomUUID()}`;
  await addFailedMail({
    _id: id,
    to,
    subject: "A message the server refused",
    html: "<p>Hello</p>",
    text: "Hello",
    attempts: 10,
    lastError: "550 Mailbox unavailable",
  });
  return { id, to };
}

describe("emails not sent", () => {
  test("Shop Today lists them for an admin, with the last error and a Send again form", async () => {
    const { to } = await failedMail();
    const admin = await createUser({ role: "admin" });
    const html = await pageText(await fetchPage("/dashboard/admin", await sessionCookieHeader(admin.id)));
    expect(html).toMatch(/Emails not sent \(\d+\)/);
    expect(html).toContain(`A message the server refused to ${to}`);
    expect(html).toContain("550 Mailbox unavailable");
    expect(html).toContain("Send again");
  });

  test("Send again gives it fresh attempts: it arrives once, and the audit log names the admin", async () => {
    const { id, to } = await failedMail();
    const admin = await createUser({ role: "admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const response = await settle(
      action(actionArgs(postRequest("/dashboard/failedMail", { outboxId: id }, { cookie }))),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard/failedMail");
    const [mail] = await waitForMail(to);
    expect(mail.subject).toBe("A message the server refused");
    await expect.poll(async () => (await Outbox.findById(id).lean())?.status).toBe("sent");
    expect(await Audit.exists({ action: "mail.resend", targetId: id, actorEmail: admin.email })).toBeTruthy();

    // Again, now that it is sent: refused with a message, nothing sent twice.
    const again = await settle(action(actionArgs(postRequest("/dashboard/failedMail", { outboxId: id }, { cookie }))));
    expect(again.status).toBe(409);
    expect(JSON.stringify(await again.json())).toContain("That email is no longer waiting to be sent again.");
  });

  test("an empty form is a 400 with a message; a customer is sent to sign in and changes nothing", async () => {
    const { id } = await failedMail();
    const admin = await createUser({ role: "admin" });
    const empty = await settle(
      action(actionArgs(postRequest("/dashboard/failedMail", {}, { cookie: await sessionCookieHeader(admin.id) }))),
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("Choose an email");

    const customer = await createUser();
    const cookie = await sessionCookieHeader(customer.id);
    const refused = await settle(
      action(actionArgs(postRequest("/dashboard/failedMail", { outboxId: id }, { cookie }))),
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toMatch(/^\/login/);
    expect((await Outbox.findById(id).lean())?.status).toBe("failed");
    const list = await settle(loader(loaderArgs(getRequest("/dashboard/failedMail", { cookie }))));
    expect(list.status).toBe(302);
  });
});
