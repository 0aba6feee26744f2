import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "express";
import type { SMTPServer } from "smtp-server";
import { isFromThisMachine } from "./local-request";

/**
 * A local SMTP server that keeps what it receives, for development, demos and tests: the shop
 * starts one itself when SMTP_URL is unset (as it starts the local database when MONGODB_URI is),
 * and the test harness starts one for the shop under test. Messages arrive over real SMTP
 * (smtp-server) and are parsed with mailparser; the newest few hundred are kept in memory.
 */

export type CaughtMail = {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};

export type MailCatcher = {
  smtpUrl: string;
  port: number;
  messages: () => CaughtMail[];
  clear: () => void;
  /** Stops accepting mail (a mail server that is down); `start` takes the same port again. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
};

const KEEP = 500;

export async function startMailCatcher({ port = 0, host = "127.0.0.1" } = {}): Promise<MailCatcher> {
  // Loaded here, not at the top: a shop with SMTP_URL set never starts a catcher and need not load them.
  const [{ simpleParser }, { SMTPServer }] = await Promise.all([import("mailparser"), import("smtp-server")]);
  const caught: CaughtMail[] = [];
  let server: SMTPServer | undefined;
  let boundPort = port;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const smtp = new SMTPServer({
        // Plain SMTP on localhost: no login and no STARTTLS (nodemailer would refuse a self-signed one).
        authOptional: true,
        disabledCommands: ["AUTH", "STARTTLS"],
        logger: false,
        size: 10 * 1024 * 1024,
        onData(stream, session, callback) {
          simpleParser(stream)
            .then((parsed) => {
              const headers: Record<string, string> = {};
              for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.key.length + 1).trim();
              caught.push({
                id: randomUUID(),
                receivedAt: new Date().toISOString(),
                from: parsed.from?.text ?? "",
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                html: typeof parsed.html === "string" ? parsed.html : "",
                headers,
              });
              if (caught.length > KEEP) caught.splice(0, caught.length - KEEP);
              callback();
            })
            .catch((error: Error) => callback(error));
        },
      });
      // A client that drops its connection (a shop stopped mid-send) must not bring the catcher down.
      smtp.on("error", () => {});
      smtp.server.once("error", reject);
      smtp.listen(boundPort, host, () => {
        boundPort = (smtp.server.address() as AddressInfo).port;
        server = smtp;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      const closing = server;
      server = undefined;
      closing.close(() => resolve());
    });

  await listen();
  return {
    smtpUrl: `smtp://${host}:${boundPort}`,
    port: boundPort,
    messages: () => [...caught],
    clear: () => void caught.splice(0),
    stop,
    start: () => (server ? Promise.resolve() : listen()),
  };
}

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The caught mail over HTTP: `/dev/mail` (a page, newest first, each message's HTML in a sandboxed
 * frame), `/dev/mail.json` (all of them), `/dev/mail/{id}.html` (one message's HTML part).
 *
 * Reset and verification links are in there, so only a browser on this machine may read them,
 * straight, not through a proxy (server/local-request.ts); server.ts mounts these pages only in a
 * demo on this machine. Any other request gets the shop's own 404, as if the pages did not exist.
 */
export function mailInbox(
  catcher: Pick<MailCatcher, "messages" | "clear">,
  { proxyConfigured = false }: { proxyConfigured?: boolean } = {},
): RequestHandler {
  return (req, res, next) => {
    if (!req.path.startsWith("/dev/mail") || !isFromThisMachine(req, { proxyConfigured })) return next();
    // Only on the catcher's own answers: set before next() it doubled every page's Cache-Control.
    res.setHeader("Cache-Control", "no-store");
    if (req.method === "GET" && req.path === "/dev/mail.json") return void res.json(catcher.messages());
    if (req.method === "DELETE" && req.path === "/dev/mail.json") {
      catcher.clear();
      return void res.status(204).end();
    }
    const one = /^\/dev\/mail\/([\w-]+)\.html$/.exec(req.path);
    if (req.method === "GET" && one) {
      const message = catcher.messages().find((mail) => mail.id === one[1]);
      if (!message) return void res.status(404).type("text/plain").send("No such message");
      // The message's own HTML, with no scripts and no requests of its own beyond images.
      res.setHeader(
        "Content-Security-Policy",
        "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; sandbox",
      );
      return void res.type("html").send(message.html);
    }
    if (req.method === "GET" && req.path === "/dev/mail") {
      const items = catcher
        .messages()
        .reverse()
        .map(
          (mail) => `<article>
  <h2>${escape(mail.subject)}</h2>
  <p><b>To</b> ${escape(mail.to.join(", "))} · <b>From</b> ${escape(mail.from)} · ${escape(mail.receivedAt)}
   · <a href="/dev/mail/${mail.id}.html">HTML part</a></p>
  <pre>${escape(mail.text)}</pre>
</article>`,
        )
        .join("\n<hr>\n");
      return void res.type("html").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Caught mail | PartsWorks</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f1f5f9;padding:1rem}</style></head>
<body><h1>Caught mail</h1><p>Mail the shop sent while SMTP_URL is unset: nothing left this machine. Newest first.</p>
${items || "<p>No mail yet.</p>"}</body></html>`);
    }
    next();
  };
}
