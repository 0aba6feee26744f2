import { Form, useNavigation } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { formatDateTime } from "~/format";

export type FailedMailItem = {
  id: string;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  failedAt: string | null;
};

/** Emails that ran out of attempts, each with a "Send again" form (a plain POST without JavaScript). */
export function FailedMailList({ items }: { items: FailedMailItem[] }) {
  const navigation = useNavigation();
  const pendingId = navigation.state !== "idle" ? navigation.formData?.get("outboxId") : null;
  return (
    <ul className="mt-2 divide-y divide-slate-200 rounded border border-red-200 bg-white">
      {items.map((mail) => (
        <li key={mail.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm" data-testid="failed-mail">
          <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
            <span className="font-medium">{mail.subject}</span> to {mail.to}
            <span className="block text-xs text-slate-600">
              {mail.attempts} {mail.attempts === 1 ? "attempt" : "attempts"}
              {mail.failedAt ? `, gave up ${formatDateTime(mail.failedAt)}` : ""}
              {mail.lastError ? `: ${mail.lastError}` : ""}
            </span>
          </div>
          <Form method="post" action="/dashboard/failedMail">
            <input type="hidden" name="outboxId" value={mail.id} />
            <SubmitButton
              variant="secondary"
              pending={pendingId === mail.id}
              pendingText="Sending…"
              className="px-3 py-1 text-sm"
            >
              Send again
              <span className="sr-only">
                : {mail.subject} to {mail.to}
              </span>
            </SubmitButton>
          </Form>
        </li>
      ))}
    </ul>
  );
}

export function toFailedMailItems(
  items: { _id: string; to: string; subject: string; attempts: number; lastError?: string; failedAt?: Date }[],
): FailedMailItem[] {
  return items.map((mail) => ({
    id: mail._id,
    to: mail.to,
    subject: mail.subject,
    attempts: mail.attempts,
    lastError: mail.lastError?.slice(0, 160) ?? null,
    failedAt: mail.failedAt ? mail.failedAt.toISOString() : null,
  }));
}
