import type { ReactElement } from "react";
import { addToOutbox, Outbox } from "~/models/outbox.server";
import { getEnv } from "./env.server";
import { queueMail } from "./delivery-jobs.server";

/** An absolute link into the shop (PUBLIC_URL). */
export function shopUrl(pathname = "/") {
  return new URL(pathname, getEnv().PUBLIC_URL).toString();
}

/**
 * A message's HTML and plain-text parts. The renderer starts every document with XHTML 1.0's
 * doctype; the markup it writes is HTML, so the HTML doctype says so (docs/behaviour.md, "Email HTML").
 */
export async function renderEmail(body: ReactElement) {
  // Loaded at the first message: the renderer brings Prettier and html-to-text, a slower start otherwise.
  const { render } = await import("@react-email/render");
  const [html, text] = await Promise.all([render(body), render(body, { plainText: true })]);
  return { html: html.replace(/^<!DOCTYPE[^>]*>/i, "<!DOCTYPE html>"), text };
}

/**
 * Account mail (welcome and verification, reset, password changed, change of email) has no sweep
 * behind it, unlike order mail (orders/event-sweep.server.ts): the person asked for it and can ask again.
 *
 * Writes a message to the outbox and queues its delivery. `key` names the event that causes it
 * (e.g. `order:<id>:placed`): a second call with the same key writes and sends nothing. The HTML
 * and plain-text parts are rendered now, from the facts as they are at the change.
 */
export async function queueEmail({
  key,
  to,
  subject,
  body,
  headers,
}: {
  key: string;
  to: string;
  subject: string;
  body: ReactElement;
  headers?: Record<string, string>;
}) {
  if (await Outbox.exists({ _id: key })) return false; // this event already has its message
  const { html, text } = await renderEmail(body);
  const isNew = await addToOutbox({ _id: key, to, subject, html, text, headers });
  if (isNew) await queueMail(key);
  return isNew;
}
