/**
 * Mail goes through the outbox and agenda to a real SMTP server (the suite's mail catcher): each
 * message once, with an HTML and a plain-text part, even with several shop processes working the
 * same jobs, and none lost while the mail server is down.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createElement } from "react";
import { afterAll, describe, expect, test } from "vitest";
import { PasswordChangedEmail } from "~/emails/account";
import { Outbox } from "~/models/outbox.server";
import { queueEmail } from "~/services/email.server";
import type { LocalDb } from "../../server/local-db";
import { startShop, type Shop } from "../../scripts/bench/shop";
import { setMailServer, waitForMail } from "../setup/mail";
import { settledMailTo } from "../setup/mail-settled";

const shopUrl = process.env.SHOP_URL!;
const body = () =>
  createElement(PasswordChangedEmail, { name: "Mia Mail", shopUrl, forgotUrl: `${shopUrl}/forgot-password` });
const address = () => `mail-${randomUUID().slice(0, 8)}@example.com`;

describe("sending", () => {
  test("a queued message arrives over SMTP once, with HTML and plain text, and is marked sent", async () => {
    const to = address();
    const key = `test:${randomUUID()}`;
    expect(await queueEmail({ key, to, subject: "Your PartsWorks password was changed", body: body() })).toBe(true);
    // The same event again writes nothing new.
    expect(await queueEmail({ key, to, subject: "Your PartsWorks password was changed", body: body() })).toBe(false);
    const [mail] = await waitForMail(to);
    expect(mail.subject).toBe("Your PartsWorks password was changed");
    expect(mail.from).toContain("PartsWorks");
    expect(mail.html).toContain(`href="${shopUrl}`);
    expect(mail.html).not.toMatch(/<img/i);
    expect(mail.text).toContain("Hello Mia Mail");
    await expect.poll(async () => (await Outbox.findById(key).lean())?.status).toBe("sent");
    expect(await settledMailTo(to)).toHaveLength(1);
  });

  test("while the mail server is down nothing is lost: the message arrives once it is back", async () => {
    const to = address();
    const key = `test:${randomUUID()}`;
    await setMailServer("down");
    try {
      await queueEmail({ key, to, subject: "Sent after the outage", body: body() });
      // The first tries fail and are retried later.
      await expect
        .poll(async () => (await Outbox.findById(key).lean())?.lastError ?? null, { timeout: 20_000 })
        .not.toBeNull();
      expect((await Outbox.findById(key).lean())?.status).not.toBe("sent");
    } finally {
      await setMailServer("up");
    }
    const [mail] = await waitForMail(to, { timeoutMs: 40_000 });
    expect(mail.subject).toBe("Sent after the outage");
    await expect.poll(async () => (await Outbox.findById(key).lean())?.status).toBe("sent");
  }, 90_000);
});

describe("two more shop processes on the same database", () => {
  const work = mkdtempSync(path.join(tmpdir(), "shop-mail-"));
  let shops: Shop[] = [];
  afterAll(async () => {
    await Promise.all(shops.map((shop) => shop.stop()));
    rmSync(work, { recursive: true, force: true });
  });

  test("every message is sent exactly once", async () => {
    const db = { uri: process.env.MONGODB_URI! } as LocalDb;
    const extraEnv = { SESSION_SECRET: process.env.SESSION_SECRET!, SMTP_URL: process.env.SMTP_URL! };
    shops = await Promise.all([1, 2].map(() => startShop({ work, db, buildDir: process.env.BUILD_DIR!, extraEnv })));
    const to = address();
    const keys = Array.from({ length: 12 }, () => `test:${randomUUID()}`);
    await Promise.all(keys.map((key, i) => queueEmail({ key, to, subject: `Message ${i}`, body: body() })));
    const mails = await waitForMail(to, { count: keys.length, timeoutMs: 40_000 });
    // Once nothing is left to send, a second sending would have shown up.
    const all = await settledMailTo(to);
    expect(all).toHaveLength(keys.length);
    expect(new Set(mails.map((mail) => mail.subject)).size).toBe(keys.length);
  }, 150_000);
});
