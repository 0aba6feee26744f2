/**
 * Fault test: mail sent exactly once or visibly not. An SMTP server that takes a message and never
 * answers (past the lock of the attempt), then SIGKILL of the shop while it holds messages: after
 * the restart every email goes out exactly once. A message that keeps failing ends "failed", is
 * listed on Shop Today and in the audit log, and an admin sends it again from there.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Audit } from "~/models/audit.server";
import { Order } from "~/orders/model/schema.server";
import { addToOutbox, Outbox } from "~/models/outbox.server";
import { createPart, createUser, sessionCookieHeader } from "../../setup/factories";
import {
  deliveriesSettled,
  killShop,
  ownDatabase,
  postForm,
  sleep,
  spawnShop,
  startCountingSmtp,
  waitHealthy,
  type ShopProcess,
} from "./fault-helpers";
import { addressForm, DETROIT } from "../../fixtures/addresses";

const work = mkdtempSync(path.join(tmpdir(), "shop-fault-mail-"));
let db: Awaited<ReturnType<typeof ownDatabase>>;
let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
const shops: ShopProcess[] = [];

beforeAll(async () => {
  db = await ownDatabase(work);
  smtp = await startCountingSmtp();
}, 60_000);

afterAll(async () => {
  for (const shop of shops) await killShop(shop);
  await smtp?.stop();
  await db?.restore();
  rmSync(work, { recursive: true, force: true });
});

// Shortened: a 10 s lock (an attempt gives up on a silent server after 2.5 s, and another may take
// its message over after 9 s), a sweep every 2 s. A shorter lock let a starved process on a busy
// machine outlive its claim, so that the message went out twice.
const LOCK_MS = 10_000;
const fast = (extra: Record<string, string> = {}) => ({
  SMTP_URL: smtp.url,
  JOBS_POLL_MS: "250",
  MAIL_LOCK_MS: String(LOCK_MS),
  MAIL_SWEEP_MS: "2000",
  ...extra,
});

/**
 * One shop for the last two tests (the sweep's and the failing message's), started by whichever runs
 * first: a shop's start costs more CPU than either test needs of it. Two attempts at most, for the last.
 */
let sweepShop: Promise<ShopProcess> | undefined;
function sweepingShop() {
  sweepShop ??= (async () => {
    const shop = await spawnShop(db.uri, fast({ MAIL_MAX_ATTEMPTS: "2" }));
    shops.push(shop);
    await waitHealthy(shop);
    return shop;
  })();
  return sweepShop;
}

async function placeOrders(shop: ShopProcess, count: number) {
  const part = await createPart({ availableQuantity: 10_000, minOrderQuantity: 1 });
  const user = await createUser({ name: "Stalled Mail" });
  const cookie = await sessionCookieHeader(user.id);
  for (let i = 0; i < count; i++) {
    const answer = await postForm(
      `${shop.url}/parts/${part.id}`,
      { quantity: "1", phone: "555-0100", ...addressForm({ ...DETROIT, line1: `${i} Outbox Road` }) },
      { cookie, origin: `http://localhost:${shop.port}` },
    );
    expect(answer.status).toBe(302);
  }
  const orders = await Order.find({ "lines.partId": part.id }).lean();
  return { user, orders };
}

describe("a mail server that hangs on DATA, then SIGKILL of the shop", () => {
  test("every email is sent exactly once after the restart", async () => {
    smtp.state.hang = true;
    const shop = await spawnShop(db.uri, fast());
    shops.push(shop);
    await waitHealthy(shop);
    const { user, orders } = await placeOrders(shop, 5);
    const keys = orders.map((order) => `order:${order._id}:placed`);
    // The attempts reach the silent server; SIGKILL while one of them holds its message.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (smtp.state.hungAt > 0 && (await Outbox.exists({ _id: { $in: keys }, status: "sending" }))) break;
      await sleep(100);
    }
    expect(smtp.state.hungAt).toBeGreaterThan(0);
    shop.child.kill("SIGKILL");
    await shop.exited;
    expect(smtp.delivered.filter((mail) => mail.to.includes(user.email))).toHaveLength(0);

    smtp.state.hang = false;
    const next = await spawnShop(db.uri, fast());
    shops.push(next);
    await waitHealthy(next);
    const mine = () => smtp.delivered.filter((mail) => mail.to.includes(user.email));
    const until = Date.now() + 120_000;
    while (mine().length < keys.length && Date.now() < until) await sleep(250);
    await sleep(LOCK_MS + 2000); // longer than a lock and a sweep: a second sending would show by now
    expect(mine()).toHaveLength(keys.length);
    expect(new Set(mine().map((mail) => mail.messageId)).size).toBe(keys.length);
    const outbox = await Outbox.find({ _id: { $in: keys } }).lean();
    expect(outbox.map((message) => message.status)).toEqual(keys.map(() => "sent"));
    // The Message-ID each went out with is the one the outbox keeps (the same on every attempt).
    for (const message of outbox) {
      expect(mine().map((mail) => mail.messageId)).toContain(message.messageId);
    }
    await killShop(next); // the next test's shop works the jobs alone
  }, 240_000);
});

describe("mail left behind without a live job", () => {
  test("a message pending with no job, and one held by an attempt that died, are sent by the sweep, once", async () => {
    smtp.state.hang = false;
    await sweepingShop();
    const to = "left-behind@example.com";
    const base = { to, html: "<p>Hello</p>", text: "Hello" };
    // Written, and the process stopped before it queued a job.
    await addToOutbox({ ...base, _id: "test:left-behind:pending", subject: "Pending with no job" });
    // Claimed by an attempt whose process died, its job gone with it.
    await addToOutbox({ ...base, _id: "test:left-behind:claimed", subject: "Claimed by a dead attempt" });
    await Outbox.updateOne(
      { _id: "test:left-behind:claimed" },
      { $set: { status: "sending", sendingSince: new Date(Date.now() - 3_600_000), claimToken: "dead" } },
    );
    const mine = () => smtp.delivered.filter((mail) => mail.to.includes(to));
    await expect.poll(() => mine().length, { timeout: 60_000, interval: 250 }).toBe(2);
    // Both sent and no job left for either: no attempt or sweep can send one twice.
    await expect
      .poll(
        () => deliveriesSettled("outboxes", { _id: { $in: ["test:left-behind:pending", "test:left-behind:claimed"] } }),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    expect(
      mine()
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(["Claimed by a dead attempt", "Pending with no job"]);
  }, 120_000);
});

describe("a message that keeps failing", () => {
  test("ends failed, shows on Shop Today and in the audit log, and an admin sends it again", async () => {
    smtp.state.hang = true;
    const shop = await sweepingShop();
    const { user, orders } = await placeOrders(shop, 1);
    const key = `order:${orders[0]._id}:placed`;
    await expect
      .poll(async () => (await Outbox.findById(key).lean())?.status, { timeout: 60_000, interval: 500 })
      .toBe("failed");
    const failed = (await Outbox.findById(key).lean())!;
    expect(failed.attempts).toBe(2);
    expect(failed.lastError).toBeTruthy();
    // The worker writes the audit entry after the message's state: wait for it, as an admin would.
    await expect
      .poll(() => Audit.exists({ action: "mail.failed", targetId: key }), { timeout: 10_000, interval: 200 })
      .toBeTruthy();

    const admin = await createUser({ role: "admin", name: "Mail Admin" });
    const cookie = await sessionCookieHeader(admin.id);
    const today = await fetch(`${shop.url}/dashboard/admin`, { headers: { Cookie: cookie } });
    const html = await today.text();
    expect(html).toContain("Emails not sent (1)");
    expect(html).toContain(failed.subject);

    smtp.state.hang = false;
    // The form works without JavaScript: a plain POST, answered with a redirect and a toast.
    const resend = await postForm(
      `${shop.url}/dashboard/failedMail`,
      { outboxId: key },
      { cookie, origin: `http://localhost:${shop.port}` },
    );
    expect(resend.status).toBe(302);
    await expect
      .poll(() => smtp.delivered.filter((mail) => mail.to.includes(user.email)).length, { timeout: 30_000 })
      .toBe(1);
    await expect.poll(async () => (await Outbox.findById(key).lean())?.status).toBe("sent");
    expect(await Audit.exists({ action: "mail.resend", targetId: key, actorEmail: admin.email })).toBeTruthy();
    // Sending it again once it went out is refused, not repeated.
    const again = await postForm(
      `${shop.url}/dashboard/failedMail`,
      { outboxId: key },
      { cookie, origin: `http://localhost:${shop.port}` },
    );
    expect(again.status).toBe(409);
    await expect.poll(() => deliveriesSettled("outboxes", { _id: key }), { timeout: 30_000 }).toBe(true);
    expect(smtp.delivered.filter((mail) => mail.to.includes(user.email))).toHaveLength(1);
  }, 180_000);
});
