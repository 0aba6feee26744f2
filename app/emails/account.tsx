import { ActionLink, EmailLayout, Paragraph, SHOP_NAME, TextLink } from "./email-layout";

/** What the first proof of an address ended among the invitations the account had sent, in words. */
export type InvitationsEndedLines = { withdrawn: string | null; suspended: string | null; credentials: string | null };

function InvitationsEnded({ lines }: { lines: InvitationsEndedLines }) {
  return (
    <>
      <Paragraph>
        Before its address was proved, the account had sent invitations to join its company. What they opened was ended:
      </Paragraph>
      <ul>
        {[lines.withdrawn, lines.suspended, lines.credentials].filter(Boolean).map((line) => (
          <li key={line}>{line}.</li>
        ))}
      </ul>
      <Paragraph>If you know these people, invite them again from Your company.</Paragraph>
    </>
  );
}

export function PasswordResetEmail({ name, resetUrl, shopUrl }: { name: string; resetUrl: string; shopUrl: string }) {
  return (
    <EmailLayout preview={`Reset your ${SHOP_NAME} password`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Someone asked to reset the password of your {SHOP_NAME} account. If it was you, choose a new password here. The
        link works once, for one hour.
      </Paragraph>
      <ActionLink href={resetUrl}>Choose a new password</ActionLink>
      <Paragraph>If you did not ask for this, ignore this email: your password stays as it is.</Paragraph>
    </EmailLayout>
  );
}

export function PasswordChangedEmail({
  name,
  shopUrl,
  forgotUrl,
  ended = null,
  invitations = null,
}: {
  name: string;
  shopUrl: string;
  forgotUrl: string;
  /** The API keys and webhooks ended with it, in words ("2 API keys and 1 webhook"), if any. */
  ended?: string | null;
  /** What the account's invitations had opened, ended when a reset link first proved the address. */
  invitations?: InvitationsEndedLines | null;
}) {
  return (
    <EmailLayout preview={`Your ${SHOP_NAME} password was changed`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        The password of your {SHOP_NAME} account was just changed, and every device signed in to it was signed out.
      </Paragraph>
      {ended ? (
        <Paragraph>
          The API keys and webhooks made on the account before the change stopped working too ({ended}). Make new ones
          on the dashboard if your systems need them.
        </Paragraph>
      ) : null}
      {invitations ? <InvitationsEnded lines={invitations} /> : null}
      <Paragraph>
        If this was not you, <TextLink href={forgotUrl}>reset your password now</TextLink> and tell us by replying to
        this email.
      </Paragraph>
    </EmailLayout>
  );
}

export function WelcomeEmail({ name, verifyUrl, shopUrl }: { name: string; verifyUrl: string; shopUrl: string }) {
  return (
    <EmailLayout preview={`Welcome to ${SHOP_NAME}: please confirm your email address`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Welcome to {SHOP_NAME}. Your account is ready: browse the parts and order in bulk whenever you like.
      </Paragraph>
      <Paragraph>
        Please confirm that this email address is yours, so that we can reach you about your orders:
      </Paragraph>
      <ActionLink href={verifyUrl}>Confirm my email address</ActionLink>
    </EmailLayout>
  );
}

export function VerifyEmail({ name, verifyUrl, shopUrl }: { name: string; verifyUrl: string; shopUrl: string }) {
  return (
    <EmailLayout preview={`Confirm your email address for ${SHOP_NAME}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>Please confirm that this email address is yours. The link works for one day.</Paragraph>
      <ActionLink href={verifyUrl}>Confirm my email address</ActionLink>
      <Paragraph>If you did not ask for this, ignore this email.</Paragraph>
    </EmailLayout>
  );
}

export function ChangeEmailEmail({
  name,
  confirmUrl,
  newEmail,
  shopUrl,
}: {
  name: string;
  confirmUrl: string;
  newEmail: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`Confirm your new email address for ${SHOP_NAME}`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        You asked to use {newEmail} for your {SHOP_NAME} account. Open this link to confirm it; until then your account
        keeps its old address. The link works once, for one day.
      </Paragraph>
      <ActionLink href={confirmUrl}>Use this email address</ActionLink>
      <Paragraph>If you did not ask for this, ignore this email: nothing changes.</Paragraph>
    </EmailLayout>
  );
}

/** A Google-only account has no password to ask for: its current address approves a change of email. */
export function ApproveEmailChangeEmail({
  name,
  approveUrl,
  newEmail,
  shopUrl,
}: {
  name: string;
  approveUrl: string;
  newEmail: string;
  shopUrl: string;
}) {
  return (
    <EmailLayout preview={`Approve a change of your ${SHOP_NAME} email address`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Someone signed in to your {SHOP_NAME} account asked to change its email address to {newEmail}. Open this link to
        approve it; we then send a link to {newEmail} to confirm it. The link works once, for one day.
      </Paragraph>
      <ActionLink href={approveUrl}>Approve the change</ActionLink>
      <Paragraph>
        If this was not you, ignore this email: nothing changes, and sign out your other sessions on My Profile.
      </Paragraph>
    </EmailLayout>
  );
}

export function EmailChangedEmail({ name, newEmail, shopUrl }: { name: string; newEmail: string; shopUrl: string }) {
  return (
    <EmailLayout preview={`Your ${SHOP_NAME} email address was changed`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Your {SHOP_NAME} account now uses {newEmail}; this address gets no more mail from us. If this was not you, reply
        to this email at once.
      </Paragraph>
    </EmailLayout>
  );
}

/** After an address is proved: what was made on the account before it, and has now ended. */
export function AddressProvedEmail({
  name,
  sessions,
  ended,
  shopUrl,
  forgotUrl,
  invitations = null,
}: {
  name: string;
  sessions: number;
  ended: string | null;
  shopUrl: string;
  forgotUrl: string;
  invitations?: InvitationsEndedLines | null;
}) {
  const signedOut = sessions === 1 ? "1 session" : `${sessions} sessions`;
  const onAccount = [sessions ? `${signedOut} signed out` : "", ended ? `${ended} removed` : ""].filter(Boolean);
  return (
    <EmailLayout preview={`Your ${SHOP_NAME} address is confirmed`} shopUrl={shopUrl}>
      <Paragraph>Hello {name},</Paragraph>
      <Paragraph>
        Your email address is confirmed.
        {onAccount.length
          ? ` To make sure only you hold the account, what was set up on it before was ended: ${onAccount.join(", ")}.`
          : ""}
      </Paragraph>
      {invitations ? <InvitationsEnded lines={invitations} /> : null}
      <Paragraph>
        If you did not create this account, someone may have signed up with your address:{" "}
        <TextLink href={forgotUrl}>choose a new password</TextLink>, and the account is yours alone.
      </Paragraph>
    </EmailLayout>
  );
}
