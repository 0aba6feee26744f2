import { ActionLink, EmailLayout, Paragraph, SHOP_NAME } from "./email-layout";

/**
 * The inviter's name is what they typed: it is quoted as theirs, beside their proved address, and
 * never in the subject or the preview.
 */
export function CompanyInvitationEmail({
  inviter,
  inviterEmail,
  companyName,
  roleWords,
  acceptUrl,
  shopUrl,
  days,
}: {
  inviter: string;
  inviterEmail: string;
  companyName: string;
  roleWords: string;
  acceptUrl: string;
  shopUrl: string;
  days: number;
}) {
  return (
    <EmailLayout preview={`${SHOP_NAME}: an invitation to order for ${companyName}`} shopUrl={shopUrl}>
      <Paragraph>Hello,</Paragraph>
      <Paragraph>
        You are invited to join {companyName} on {SHOP_NAME} as {roleWords}. The link works once, for {days} days.
      </Paragraph>
      <Paragraph>
        Sent by a member of {companyName} who gave their name as “{inviter}” ({inviterEmail}). {SHOP_NAME} checked their
        email address, not the name or anything else they wrote.
      </Paragraph>
      <ActionLink href={acceptUrl}>Accept the invitation</ActionLink>
      <Paragraph>
        If you already have a {SHOP_NAME} account with this address, sign in to it to accept. If you did not expect
        this, ignore this email.
      </Paragraph>
    </EmailLayout>
  );
}

export function RemovedFromCompanyEmail({
  name,
  companyName,
  shopUrl,
}: {
  name: string;
  companyName: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`You no longer order for ${companyName}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        An owner of {companyName} removed you from its account on {SHOP_NAME}, and you were signed out. The orders you
        placed stay with {companyName}. Your own account stays: sign in again to order for yourself.
      </Paragraph>
    </EmailLayout>
  );
}

export function ApprovalNeededEmail({
  ownerName,
  buyerName,
  orderNumber,
  total,
  limit,
  holdUntil,
  approvalsUrl,
  shopUrl,
}: {
  ownerName: string;
  buyerName: string;
  orderNumber: string;
  total: string;
  limit: string;
  /** When the held stock goes back if nobody decides, in words. */
  holdUntil: string;
  approvalsUrl: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`${orderNumber} from ${buyerName} waits for your approval`} shopUrl={shopUrl}>
      <Paragraph>Hello {ownerName},</Paragraph>
      <Paragraph>
        {buyerName} placed order {orderNumber} for {total}, over their limit of {limit} per order. Its stock is held
        until {holdUntil}: approve it to go on, or decline it with a reason. Undecided by then, it is cancelled.
      </Paragraph>
      <ActionLink href={approvalsUrl}>See orders awaiting approval</ActionLink>
    </EmailLayout>
  );
}

/** To each owner: nobody decided in time, so the order waiting for approval is cancelled. */
export function ApprovalExpiredEmail({
  ownerName,
  buyerName,
  orderNumber,
  total,
  shopUrl,
}: {
  ownerName: string;
  buyerName: string;
  orderNumber: string;
  total: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`${orderNumber} from ${buyerName} was not approved in time`} shopUrl={shopUrl}>
      <Paragraph>Hello {ownerName},</Paragraph>
      <Paragraph>
        Order {orderNumber} from {buyerName} ({total}) waited for an owner&apos;s approval until its hold ended. It is
        cancelled and its stock is back on sale; {buyerName} can place it again.
      </Paragraph>
    </EmailLayout>
  );
}

/** To the buyer: their order is over their limit and waits for an owner; nothing is due until then. */
export function ApprovalSubmittedEmail({
  name,
  orderNumber,
  total,
  limit,
  approvers,
  holdUntil,
  orderUrl,
  shopUrl,
}: {
  name: string;
  orderNumber: string;
  total: string;
  limit: string;
  /** Who decides, in words ("Olga Owner" or "Olga Owner or Omar Owner"). */
  approvers: string;
  /** When the held stock goes back if nobody decides, in words. */
  holdUntil: string;
  orderUrl: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`${orderNumber} waits for approval by ${approvers}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Your order {orderNumber} for {total} is over your limit of {limit} per order, so it is submitted for approval by{" "}
        {approvers}. Nothing is due until it is approved. Its stock is held until {holdUntil}; undecided by then, it is
        cancelled. You can withdraw it until an owner decides.
      </Paragraph>
      <ActionLink href={orderUrl}>Open order {orderNumber}</ActionLink>
    </EmailLayout>
  );
}

/** To the buyer: an owner approved their order; what comes next (paying by card, or the invoice on account). */
export function OrderApprovedEmail({
  name,
  orderNumber,
  ownerName,
  decidedOn,
  note,
  next,
  orderUrl,
  shopUrl,
}: {
  name: string;
  orderNumber: string;
  ownerName: string;
  decidedOn: string;
  note: string | null;
  /** What happens now, in a sentence ("Pay it by …", "It is invoiced on account, due …"). */
  next: string;
  orderUrl: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`${orderNumber} was approved by ${ownerName}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        {ownerName} approved your order {orderNumber} on {decidedOn}. {next}
      </Paragraph>
      {note ? <Paragraph>Their note: {note}</Paragraph> : null}
      <ActionLink href={orderUrl}>Open order {orderNumber}</ActionLink>
    </EmailLayout>
  );
}

/** To the buyer: an owner declined their order, with the owner's reason. */
export function OrderDeclinedEmail({
  name,
  orderNumber,
  ownerName,
  decidedOn,
  reason,
  orderUrl,
  shopUrl,
}: {
  name: string;
  orderNumber: string;
  ownerName: string;
  decidedOn: string;
  reason: string | null;
  orderUrl: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`${orderNumber} was declined by ${ownerName}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        {ownerName} declined your order {orderNumber} on {decidedOn}. It is cancelled and its stock is released; nothing
        is due.
      </Paragraph>
      {reason ? <Paragraph>Their reason: {reason}</Paragraph> : null}
      <ActionLink href={orderUrl}>Open order {orderNumber}</ActionLink>
    </EmailLayout>
  );
}

/** To each accounts member: an approved order on account is invoiced. */
export function InvoiceIssuedEmail({
  name,
  invoiceNumber,
  orderNumber,
  total,
  buyerName,
  ownerName,
  due,
  invoiceUrl,
  shopUrl,
}: {
  name: string;
  invoiceNumber: string;
  orderNumber: string;
  total: string;
  buyerName: string;
  ownerName: string;
  due: string;
  invoiceUrl: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`Invoice ${invoiceNumber} for ${orderNumber} is issued`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Invoice {invoiceNumber} for order {orderNumber} ({total}) is issued on account, due {due}. {buyerName} placed
        the order and {ownerName} approved it.
      </Paragraph>
      <ActionLink href={invoiceUrl}>Open invoice {invoiceNumber}</ActionLink>
    </EmailLayout>
  );
}
