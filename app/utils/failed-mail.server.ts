import { listFailedMail, retryFailedMail } from "~/models/outbox.server";
import { audit, type AuditEvent } from "./audit.server";
import { queueDelivery } from "./jobs.server";

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
  await queueDelivery(outboxId);
  await audit({
    context,
    actor: admin,
    action: "mail.resend",
    target: { type: "mail", id: outboxId, label: `${message.subject} → ${message.to}` },
  });
  return message;
}
