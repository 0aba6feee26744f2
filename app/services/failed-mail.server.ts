import { addFailedMail, listFailedMail, retryFailedMail } from "~/models/outbox.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { queueMail } from "./delivery-jobs.server";

export { listFailedMail };

/**
 * An admin sends an email that ran out of attempts again: it gets a fresh set of attempts and a
 * job, and the audit log says who asked. Null when it is not (or no longer) failed.
 */
export async function sendFailedMailAgain({
  outboxId,
  admin,
  context,
}: {
  outboxId: string;
  admin: { id: string; email: string };
  context?: AuditEvent["context"];
}) {
  const message = await retryFailedMail(outboxId);
  if (!message) return null;
  await queueMail(outboxId);
  await audit({
    context,
    actor: admin,
    action: "mail.resend",
    target: { type: "mail", id: outboxId, label: `${message.subject} → ${message.to}` },
  });
  return message;
}

/**
 * The demo's one email the mail server refused, so that Shop Today shows its "Emails not sent"
 * list on a first start; Send again delivers it to the local mail catcher (/dev/mail). Once.
 */
export async function ensureDemoFailedMail(to: string) {
  await addFailedMail({
    _id: "demo:failed-mail",
    to,
    subject: "Your PartsWorks price list for next year",
    html: "<p>Hello,</p><p>Next year's price list is ready in the shop.</p><p>PartsWorks</p>",
    text: "Hello,\n\nNext year's price list is ready in the shop.\n\nPartsWorks",
    attempts: 10,
    lastError: "550 5.1.1 Mailbox temporarily unavailable (a demo of an email the mail server refused)",
  });
}
