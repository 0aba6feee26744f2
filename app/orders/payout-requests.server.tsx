/**
 * A customer asks us to pay out what we owe them (their account in credit): staff are told, by an
 * entry in the audit log and a mail to the shop's admins, and pay it out from the credit note on
 * the order page (orders/payouts.server.ts). Nothing moves on the ledger until they do.
 */
import { company } from "~/content/company";
import { ActionLink, EmailLayout, Paragraph } from "~/emails/email-layout";
import type { Currency } from "~/domain/money";
import { formatCents } from "~/format";
import { listAdminRecipients, type UserView } from "~/models/user.server";
import { readStatement } from "~/orders/model/statement.server";
import { audit, personLabel, type AuditEvent } from "~/services/audit-trail.server";
import { queueEmail, shopUrl } from "~/services/email.server";
import { logFailure } from "~/services/log.server";

export type PayoutRequestOutcome =
  { ok: true; amountCents: number; currency: Currency } | { ok: false; message: string };

export const NOTHING_TO_PAY_OUT = "We owe you nothing just now, so there is nothing to pay out.";

type Customer = Pick<UserView, "id" | "name" | "email" | "companyId" | "company">;

/** What we owe, in the currency of the account's statement it was read from. */
type Owed = { amountCents: number; currency: Currency };

/** The customer's request, as staff read it: who, which company, how much, where to act. */
function PayoutRequestEmail({ customer, owed, url }: { customer: Customer; owed: Owed; url: string }) {
  const companyName = customer.company.companyName;
  return (
    <EmailLayout preview={payoutRequestSubject(customer, owed)} shopUrl={shopUrl()}>
      <Paragraph>
        {personLabel(customer)}
        {companyName ? ` of ${companyName}` : ""} asks us to pay out the{" "}
        {formatCents(owed.amountCents, { currency: owed.currency })} we owe them.
      </Paragraph>
      <Paragraph>
        Pay it to their bank, then record the payout against the credit notes holding it (their company&apos;s record
        lists them), with the transfer&apos;s reference.
      </Paragraph>
      <ActionLink href={url}>Open their statement</ActionLink>
    </EmailLayout>
  );
}

const payoutRequestSubject = (customer: Customer, { amountCents, currency }: Owed) =>
  `Payout asked: ${formatCents(amountCents, { currency })} to ${customer.company.companyName || customer.name}`;

/**
 * Tells staff that the customer asks for what we owe them (their statement's balance, in credit).
 * Refused when we owe nothing. Asked twice in a day for the same amount, staff are mailed once.
 */
export async function askForPayout(customer: Customer, context?: AuditEvent["context"]): Promise<PayoutRequestOutcome> {
  // Each currency is its own account: what we owe in the first currency the account is in credit in.
  const { statements } = await readStatement(customer.companyId);
  const statement = statements.find((each) => each.closingCents < 0);
  if (!statement) return { ok: false, message: NOTHING_TO_PAY_OUT };
  const amountCents = -statement.closingCents;
  const owed = { amountCents, currency: statement.currency };
  await audit({
    context,
    action: "company.ask-payout",
    actor: { id: customer.id, email: customer.email },
    target: { type: "company", id: customer.companyId, label: customer.company.companyName || customer.name },
    after: owed,
  });
  const day = new Date().toISOString().slice(0, 10);
  try {
    const admins = await listAdminRecipients();
    await queueEmail({
      key: `payout-request:${customer.companyId}:${owed.currency}:${amountCents}:${day}`,
      to: admins.length ? admins.map((admin) => admin.email).join(", ") : company.email,
      subject: payoutRequestSubject(customer, owed),
      body: (
        <PayoutRequestEmail
          customer={customer}
          owed={owed}
          url={shopUrl(`/dashboard/companies/${customer.companyId}/statement`)}
        />
      ),
    });
  } catch (error) {
    // The audit log has the request; the mail is the nudge.
    logFailure(`Payout request mail for company ${customer.companyId} not written`, error);
  }
  return { ok: true, amountCents, currency: owed.currency };
}
