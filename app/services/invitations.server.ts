/**
 * Invitations to a company, and what an unproved account's invitations opened. Only an address
 * proved to be its owner's sends invitations, within caps per account and per company, and the mail
 * carries no words of the sender's in its subject. An account that invited before its address was
 * proved (sent before this rule, or its owner's address typed by someone else) loses what it opened
 * the day the real owner proves the address: pending invitations are withdrawn, and whoever joined
 * through them is taken out of the company, signed out, their API keys revoked and webhooks removed.
 */
import { createElement } from "react";
import { CompanyInvitationEmail, RemovedFromCompanyEmail } from "~/emails/company";
import { getMember, moveMember } from "~/models/company-member.server";
import { COMPANY_ROLE_WORDS, getCompany, type CompanyRole } from "~/models/company.server";
import {
  countPendingInvitations,
  createInvitation,
  voidInvitationsAcceptedFrom,
  withdrawInvitationsSentBy,
} from "~/models/invitation.server";
import { getUserByEmail, type UserView } from "~/models/user.server";
import { endAccessMadeBefore } from "./account-access.server";
import { audit, personLabel, type AuditEvent } from "./audit-trail.server";
import { companyLabel, INVITATION_DAYS } from "./companies.server";
import { queueEmail, shopUrl } from "./email.server";
import { invitationAllowed } from "./mail-throttle.server";

const DAY_MS = 24 * 60 * 60 * 1000;
type Context = AuditEvent["context"];

/** Invitations of one company waiting for an answer at once. */
export const MAX_PENDING_INVITATIONS_PER_COMPANY = 50;

/** Why an unproved account cannot invite (the company screen shows it in place of the form). */
export const VERIFY_TO_INVITE =
  "Confirm your email address first: invitations go out only from an address proved to be yours. Use the link we mailed you, or ask for a new one with “Send the link again” at the top of this page.";

export const TOO_MANY_PENDING = `Your company has ${MAX_PENDING_INVITATIONS_PER_COMPANY} invitations waiting for an answer, the most it may have. Withdraw some below, or wait until they are accepted or expire.`;

/** Whether this person may send invitations: a proved address. */
export const mayInvite = (user: Pick<UserView, "emailVerified">) => user.emailVerified;

export type InviteOutcome =
  | { ok: true }
  | { ok: false; field: "email"; status: 409; message: string }
  | { ok: false; field: null; status: 403 | 409 | 429; message: string; retryAfterSeconds?: number };

/**
 * An owner invites someone by email, with a role; the link goes through the outbox. The subject
 * names the shop and the company only; the inviter's name, as they typed it, is quoted in the body.
 */
export async function inviteMember(
  owner: UserView,
  { email, role, limit }: { email: string; role: CompanyRole; limit?: number },
  context?: Context,
): Promise<InviteOutcome> {
  if (!mayInvite(owner)) return { ok: false, field: null, status: 403, message: VERIFY_TO_INVITE };
  const normalized = email.trim().toLowerCase();
  const existing = await getUserByEmail(normalized);
  if (existing?.companyId === owner.companyId) {
    return { ok: false, field: "email", status: 409, message: `${existing.name} is already a member of your company` };
  }
  if (existing?.role === "admin") {
    return {
      ok: false,
      field: "email",
      status: 409,
      message: "That address belongs to a shop admin, who cannot join a company",
    };
  }
  if ((await countPendingInvitations(owner.companyId)) >= MAX_PENDING_INVITATIONS_PER_COMPANY) {
    return { ok: false, field: null, status: 409, message: TOO_MANY_PENDING };
  }
  const throttled = await invitationAllowed(owner.id);
  if (throttled) return { ok: false, field: null, status: 429, ...throttled };

  const company = await getCompany(owner.companyId);
  const companyName = companyLabel(company?.company.companyName ?? "", "a company");
  const token = await createInvitation({
    companyId: owner.companyId,
    email: normalized,
    role,
    invitedBy: owner.id,
    invitedByName: owner.name,
    spendingLimitCents: role === "buyer" && limit ? limit * 100 : null,
    ttlMs: INVITATION_DAYS * DAY_MS,
  });
  await queueEmail({
    key: `invite:${token.slice(0, 16)}`,
    to: normalized,
    subject: invitationSubject(companyName),
    body: createElement(CompanyInvitationEmail, {
      inviter: owner.name,
      inviterEmail: owner.email,
      companyName,
      roleWords: `${COMPANY_ROLE_WORDS[role].toLowerCase()}`,
      acceptUrl: shopUrl(`/invitations/${token}`),
      shopUrl: shopUrl(),
      days: INVITATION_DAYS,
    }),
  });
  await audit({
    context,
    actor: { id: owner.id, email: owner.email },
    action: "company.invite",
    target: { type: "company", id: owner.companyId, label: companyName },
    after: {
      email: normalized,
      companyRole: role,
      ...(role === "buyer" && limit ? { spendingLimitCents: limit * 100 } : {}),
    },
  });
  return { ok: true };
}

/** The invitation's subject: the shop and the company, never what the inviter typed as their name. */
export const invitationSubject = (companyName: string) => `PartsWorks: an invitation to order for ${companyName}`;

/** What the proof of an address ended among the invitations the account sent before it. */
export type InvitationsEnded = {
  /** The addresses whose pending invitations were withdrawn. */
  withdrawn: string[];
  /** The members taken out of the company (their addresses). */
  suspended: string[];
  /** What ended with those members. */
  sessions: number;
  keys: number;
  webhooks: number;
};

const NOTHING_ENDED: InvitationsEnded = { withdrawn: [], suspended: [], sessions: 0, keys: 0, webhooks: 0 };

const SUSPEND_WHY = "they joined through an invitation sent before the inviter's address was proved";
/** Enough for any real company's chain of invitations; a bound on the work one proof can cause. */
const MAX_MEMBERS_REACHED = 200;

/**
 * Call when an account's address is proved for the first time (a verification link, or a reset
 * link of an account never proved), before it is marked proved: a failure part way leaves the
 * account unproved, and the next proof runs it again; each step is a conditional update that
 * does nothing the second time. Withdraws the pending invitations the account sent, and takes out
 * of their company everyone who joined through its invitations (and, in turn, through theirs to
 * the same company): their sessions end, their API keys are revoked and their webhooks removed.
 */
export async function endWhatInvitationsOpened(
  sender: Pick<UserView, "id" | "email" | "name">,
  context?: Context,
): Promise<InvitationsEnded> {
  const ended: InvitationsEnded = { ...NOTHING_ENDED, withdrawn: [], suspended: [] };
  const actor = { id: sender.id, email: sender.email };
  const reached = new Set<string>();
  const inviters: { id: string; companyId?: string }[] = [{ id: sender.id }];
  for (let next = inviters.shift(); next; next = inviters.shift()) {
    for (const invitation of await withdrawInvitationsSentBy(next.id, next.companyId)) {
      ended.withdrawn.push(invitation.email);
      await audit({
        context,
        actor,
        action: "company.withdraw-invitation",
        target: { type: "company", id: invitation.companyId, label: null },
        before: { email: invitation.email },
        after: { why: "the sender's address was proved only now" },
      });
    }
    for (const joined of await voidInvitationsAcceptedFrom(next.id, next.companyId)) {
      const key = `${joined.userId}:${joined.companyId}`;
      if (joined.userId === sender.id || reached.has(key) || reached.size >= MAX_MEMBERS_REACHED) continue;
      reached.add(key);
      // Whatever they sent to that company goes too, even once they are out of it (a retry).
      inviters.push({ id: joined.userId, companyId: joined.companyId });
      const member = await getMember(joined.companyId, joined.userId);
      if (!member) continue;
      // Access first: with no session left, nothing new is made before they are out.
      const access = await endAccessMadeBefore({ ...member, role: "customer" }, { actor, context, why: SUSPEND_WHY });
      if ((await moveMember(member.id, joined.companyId, null)) !== "moved") continue;
      ended.suspended.push(member.email);
      ended.sessions += access.sessions;
      ended.keys += access.keys;
      ended.webhooks += access.webhooks;
      const company = await getCompany(joined.companyId);
      const companyName = companyLabel(company?.company.companyName ?? "", "the company");
      await queueEmail({
        key: `company-suspended:${joined.companyId}:${member.id}:${Date.now()}`,
        to: member.email,
        subject: `You no longer order for ${companyName} at PartsWorks`,
        body: createElement(RemovedFromCompanyEmail, { name: member.name, companyName, shopUrl: shopUrl() }),
      });
      await audit({
        context,
        actor,
        action: "company.suspend",
        target: { type: "user", id: member.id, label: personLabel(member) },
        before: { companyRole: member.role },
        after: {
          why: SUSPEND_WHY,
          sessions: "ended",
          apiKeysRevoked: access.keys,
          webhooksRemoved: access.webhooks,
        },
      });
    }
  }
  return ended;
}

/** The lines of the owner's notice, or null when nothing ended. */
export function invitationsEndedInWords(ended: InvitationsEnded) {
  if (!ended.withdrawn.length && !ended.suspended.length) return null;
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return {
    withdrawn: ended.withdrawn.length
      ? `${plural(ended.withdrawn.length, "pending invitation", "pending invitations")} withdrawn: ${ended.withdrawn.join(", ")}`
      : null,
    suspended: ended.suspended.length
      ? `${plural(ended.suspended.length, "member", "members")} who joined through them suspended (taken out of the company and signed out): ${ended.suspended.join(", ")}`
      : null,
    credentials:
      ended.keys || ended.webhooks
        ? [
            ended.keys ? `${plural(ended.keys, "API key", "API keys")} of theirs revoked` : "",
            ended.webhooks ? `${plural(ended.webhooks, "webhook", "webhooks")} of theirs disabled` : "",
          ]
            .filter(Boolean)
            .join(", ")
        : null,
  };
}

export type InvitationsEndedWords = NonNullable<ReturnType<typeof invitationsEndedInWords>>;
