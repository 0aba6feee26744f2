import { ActionLink, EmailLayout, Paragraph, SHOP_NAME } from "./layout";

export function CompanyInvitationEmail({
  inviter,
  companyName,
  roleWords,
  acceptUrl,
  shopUrl,
  days,
}: {
  inviter: string;
  companyName: string;
  roleWords: string;
  acceptUrl: string;
  shopUrl: string;
  days: number;
}) {
  return (
    <EmailLayout preview={`${inviter} invites you to order for ${companyName} at ${SHOP_NAME}`} shopUrl={shopUrl}>
      <Paragraph>Hello,</Paragraph>
      <Paragraph>
        {inviter} invites you to join {companyName} on {SHOP_NAME} as {roleWords}. The link works once, for {days} days.
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
