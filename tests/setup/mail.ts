/**
 * The mail catcher of the test suites. The harness starts one (`startMailProvider`) and points the
 * shop at it with SMTP_URL; tests read what arrived over real SMTP through MAIL_CATCHER_URL.
 */
import express from "express";
import type { AddressInfo } from "node:net";
import { mailInbox, startMailCatcher, type CaughtMail } from "../../server/mail-catcher";
import type { Provider } from "./providers";

export type { CaughtMail };

export async function startMailProvider(): Promise<Provider> {
  const catcher = await startMailCatcher();
  const app = express();
  // Test-only switches: the mail server goes down (refuses connections) and comes back on its port.
  app.post("/smtp/down", (_req, res) => void catcher.stop().then(() => res.status(204).end()));
  app.post("/smtp/up", (_req, res) => void catcher.start().then(() => res.status(204).end()));
  app.use(mailInbox(catcher));
  const http = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  const port = (http.address() as AddressInfo).port;
  return {
    env: { SMTP_URL: catcher.smtpUrl, MAIL_CATCHER_URL: `http://127.0.0.1:${port}` },
    stop: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await catcher.stop();
    },
  };
}

/** Every message the catcher (the suite's, or `catcherUrl`) has received so far. */
export async function caughtMail(catcherUrl = process.env.MAIL_CATCHER_URL): Promise<CaughtMail[]> {
  if (!catcherUrl) throw new Error("MAIL_CATCHER_URL is not set: run the tests through tests/harness.ts");
  const response = await fetch(`${catcherUrl}/dev/mail.json`);
  return (await response.json()) as CaughtMail[];
}

/** Takes the suite's mail server down, or brings it back. */
export async function setMailServer(state: "down" | "up", catcherUrl = process.env.MAIL_CATCHER_URL) {
  const response = await fetch(`${catcherUrl}/smtp/${state}`, { method: "POST" });
  if (response.status !== 204) throw new Error(`mail server ${state}: ${response.status}`);
}

/** Waits for messages to `to` (matching `subject` when given) and returns them all. */
export async function waitForMail(
  to: string,
  {
    subject,
    count = 1,
    timeoutMs = 20_000,
    catcherUrl,
  }: { subject?: string | RegExp; count?: number; timeoutMs?: number; catcherUrl?: string } = {},
) {
  const deadline = Date.now() + timeoutMs;
  const matches = (mail: CaughtMail) =>
    mail.to.includes(to.toLowerCase()) &&
    (subject === undefined || (typeof subject === "string" ? mail.subject === subject : subject.test(mail.subject)));
  for (;;) {
    const found = (await caughtMail(catcherUrl)).filter(matches);
    if (found.length >= count || Date.now() > deadline) {
      if (found.length < count) throw new Error(`expected ${count} mail(s) to ${to}, got ${found.length}`);
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The first link in a message's plain text that starts with `prefix` (e.g. the shop URL + /reset-password). */
export function linkIn(mail: CaughtMail, prefix: string) {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s\\])]*`));
  if (!match) throw new Error(`no link starting with ${prefix} in "${mail.subject}"`);
  return match[0];
}
