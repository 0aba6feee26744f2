/**
 * The company services: joining (inviting is in invitations.server.ts), roles, limits and removing members. Each change
 * goes through one function here, which checks who may make it, calls the models and raises the
 * side effects (mail through the outbox, audit entries, ending a removed member's sessions).
 */
import { createElement } from "react";
import type { Currency } from "~/domain/money";
import { peppolIdWords, type PeppolId } from "~/domain/peppol";
import { RemovedFromCompanyEmail } from "~/emails/company";
import {
  changeMemberRole,
  getMember,
  memberCounts,
  moveMember,
  setSpendingLimit,
} from "~/models/company-member.server";
import {
  COMPANY_ROLE_WORDS,
  getCompany,
  setCompanyTerms,
  setCompanyPeppolId,
  setCompanyLeitwegId,
  setCompanyUnpaidCaps,
  type AccountTerms,
  type CompanyView,
  type CompanyRole,
} from "~/models/company.server";
import { companyHasOrdered, setCompanyCurrency } from "~/models/company-currency.server";
import {
  checkInvitation,
  isInvitationVoided,
  releaseInvitation,
  revokeInvitation,
  spendInvitation,
} from "~/models/invitation.server";
import { deleteUserSessions } from "~/models/session.server";
import { revokeMemberKeys } from "~/models/api-key.server";
import { createPasswordUser } from "~/models/user-credentials.server";
import { getUserByEmail, getUserById, isDuplicateKeyError, type UserView } from "~/models/user.server";
import { markEmailVerified } from "~/models/user-profile.server";
import { audit, type AuditEvent } from "./audit-trail.server";
import { queueEmail, shopUrl } from "./email.server";
import { formatCents, formatCurrencyName } from "~/format";
import { termsWords } from "~/domain/order-states";
import { roleLabel } from "~/domain/company-roles";
import { memoizedForRequest } from "../../server/request-context";

export const INVITATION_DAYS = 7;

type Context = AuditEvent["context"];

/** What a member of each role may do. One table, read by screens and by the checks below. */
export const COMPANY_RIGHTS = {
  /** Members, roles, limits, invitations, company details, approvals. */
  manage: ["owner"],
  /** Placing orders (cart, quick order, order again). */
  order: ["owner", "buyer"],
  /** Every order of the company, its invoices and statement; paying. */
  finance: ["owner", "accounts"],
} as const satisfies Record<string, readonly CompanyRole[]>;

export type CompanyRight = keyof typeof COMPANY_RIGHTS;

export function can(user: Pick<UserView, "role" | "companyRole">, right: CompanyRight) {
  return user.role === "customer" && (COMPANY_RIGHTS[right] as readonly string[]).includes(user.companyRole);
}

/**
 * The role the header and the dashboard's sidebar show beside a person's name: none for a customer
 * alone in their company (a company of one has nobody to be an owner of). Only an owner can be alone
 * (a buyer or an accounts member has an owner beside them), so only an owner costs a count.
 */
export async function headerRoleLabel(user: Pick<UserView, "role" | "companyRole" | "companyId">) {
  if (user.role !== "customer" || user.companyRole !== "owner") return roleLabel(user);
  const members = await memoizedForRequest(
    `members:${user.companyId}`,
    async () => (await memberCounts([user.companyId])).get(user.companyId) ?? 0,
  );
  return roleLabel(user, members);
}

/** The display name of a company: its name, else its first owner's. */
export function companyLabel(companyName: string, fallback: string) {
  return companyName || fallback;
}

const actorOf = (user: UserView) => ({ id: user.id, email: user.email });

export type InvitationPage =
  | { state: "expired" | "used" | "unknown" }
  | {
      state: "valid";
      email: string;
      role: CompanyRole;
      companyName: string;
      /** Whether an account with the invited address exists (then it accepts while signed in). */
      hasAccount: boolean;
      /** A buyer's limit per order, and who invited them (who approves above it). */
      spendingLimitCents: number | null;
      /** The company's currency: the limit's. */
      currency: Currency;
      invitedByName: string | null;
    };

/** What the invitation link shows, without using it. */
export async function describeInvitation(token: string): Promise<InvitationPage> {
  const invitation = await checkInvitation(token);
  if (invitation.state !== "valid") return { state: invitation.state };
  const company = await getCompany(invitation.companyId);
  if (!company) return { state: "unknown" };
  return {
    state: "valid",
    email: invitation.email,
    role: invitation.role,
    companyName: company.company.companyName || "a company",
    hasAccount: Boolean(await getUserByEmail(invitation.email)),
    spendingLimitCents: invitation.spendingLimitCents,
    currency: company.pricing.currency,
    invitedByName: invitation.invitedByName,
  };
}

export type AcceptOutcome =
  { ok: true; userId: string; companyName: string } | { ok: false; status: 403 | 404 | 409 | 410; message: string };

const LINK_PROBLEMS = {
  unknown: { status: 404, message: "This invitation link is not valid." },
  used: { status: 410, message: "This invitation was already accepted: each link works once." },
  expired: { status: 410, message: "This invitation has expired. Ask the company's owner for a new one." },
} as const;

/**
 * The signed-in person accepts: only the account with the invited address, and only once. They
 * leave their own company (refused while they are its last owner with colleagues) for this one.
 */
export async function acceptInvitation(token: string, user: UserView, context?: Context): Promise<AcceptOutcome> {
  const seen = await checkInvitation(token);
  if (seen.state !== "valid") return { ok: false, ...LINK_PROBLEMS[seen.state] };
  if (seen.email !== user.email) {
    return { ok: false, status: 403, message: `This invitation is for ${seen.email}: sign in with that account.` };
  }
  if (user.role !== "customer") return { ok: false, status: 403, message: "A shop admin cannot join a company." };
  if (user.companyId === seen.companyId) {
    return { ok: false, status: 409, message: "You are already a member of this company." };
  }
  const spent = await spendInvitation(token, user.id);
  if (spent.state !== "valid") return { ok: false, ...LINK_PROBLEMS[spent.state] };
  const moved = await moveMember(
    user.id,
    user.companyId,
    { companyId: spent.companyId, role: spent.role },
    { leaveEmpty: true },
  );
  if (moved !== "moved") {
    await releaseInvitation(token);
    return moved === "last-owner"
      ? {
          ok: false,
          status: 409,
          message: "You are the last owner of your company: make a colleague an owner first, then accept.",
        }
      : { ok: false, status: 409, message: "Your account changed meanwhile: open the link again." };
  }
  // The sender's address was proved while this join was being written: it does not stand.
  if (await isInvitationVoided(token)) {
    await moveMember(user.id, spent.companyId, null);
    return { ok: false, ...LINK_PROBLEMS.unknown };
  }
  // The limit the owner set with the invitation (joining clears any earlier one).
  if (spent.role === "buyer" && spent.spendingLimitCents) {
    await setSpendingLimit(spent.companyId, user.id, spent.spendingLimitCents);
  }
  const company = await getCompany(spent.companyId);
  const companyName = company?.company.companyName || "the company";
  await audit({
    context,
    actor: actorOf(user),
    action: "company.join",
    target: { type: "company", id: spent.companyId, label: companyName },
    after: { email: user.email, companyRole: spent.role },
  });
  return { ok: true, userId: user.id, companyName };
}

/**
 * Someone without an account accepts: the link proves the address, so the new account is verified
 * and starts in the company with the invited role.
 */
export async function acceptInvitationAsNewAccount(
  token: string,
  { name, passwordHash }: { name: string; passwordHash: string },
  context?: Context,
): Promise<AcceptOutcome> {
  const seen = await checkInvitation(token);
  if (seen.state !== "valid") return { ok: false, ...LINK_PROBLEMS[seen.state] };
  if (await getUserByEmail(seen.email)) {
    return { ok: false, status: 409, message: `An account with ${seen.email} exists: sign in to accept.` };
  }
  let created: UserView;
  try {
    created = await createPasswordUser({ name, email: seen.email, passwordHash });
  } catch (error) {
    if (isDuplicateKeyError(error)) {
      return { ok: false, status: 409, message: `An account with ${seen.email} exists: sign in to accept.` };
    }
    throw error;
  }
  const user = (await getUserById(created.id))!;
  const outcome = await acceptInvitation(token, user, context);
  if (outcome.ok) await markEmailVerified(user.id, seen.email);
  return outcome;
}

export type MemberOutcome = { ok: true; message: string } | { ok: false; status: 403 | 404 | 409; message: string };

const notOwner = { ok: false, status: 403, message: "Only an owner of the company can do that." } as const;

/** Still an owner now (not removed or demoted by a colleague since this request began). */
async function stillOwner(owner: UserView) {
  return can(owner, "manage") && (await getMember(owner.companyId, owner.id))?.role === "owner";
}
const noSuchMember = { ok: false, status: 404, message: "There is no such member in your company." } as const;
const lastOwner = {
  ok: false,
  status: 409,
  message: "A company keeps at least one owner: make someone else an owner first.",
} as const;

/** An owner gives a member another role (never the last owner's). */
export async function changeRole(
  owner: UserView,
  memberId: string,
  role: CompanyRole,
  context?: Context,
): Promise<MemberOutcome> {
  if (!(await stillOwner(owner))) return notOwner;
  const member = await getMember(owner.companyId, memberId);
  if (!member) return noSuchMember;
  const result = await changeMemberRole(owner.companyId, memberId, role);
  if (result === "missing") return noSuchMember;
  if (result === "last-owner") return lastOwner;
  if (result === "changed") {
    await audit({
      context,
      actor: actorOf(owner),
      action: "company.role",
      target: { type: "user", id: memberId, label: `${member.name} <${member.email}>` },
      before: { companyRole: member.role },
      after: { companyRole: role },
    });
    // Rights are read on every request; sessions stay, the next page shows the new role.
  }
  return { ok: true, message: `${member.name} is now ${COMPANY_ROLE_WORDS[role].toLowerCase()}` };
}

/** An owner sets or clears a buyer's limit per order. */
export async function changeSpendingLimit(
  owner: UserView,
  memberId: string,
  cents: number | null,
  context?: Context,
): Promise<MemberOutcome> {
  if (!(await stillOwner(owner))) return notOwner;
  const member = await getMember(owner.companyId, memberId);
  if (!member) return noSuchMember;
  if (member.role !== "buyer") return { ok: false, status: 409, message: "Only a buyer has a spending limit." };
  if (!(await setSpendingLimit(owner.companyId, memberId, cents))) return noSuchMember;
  await audit({
    context,
    actor: actorOf(owner),
    action: "company.limit",
    target: { type: "user", id: memberId, label: `${member.name} <${member.email}>` },
    before: { spendingLimitCents: member.spendingLimitCents },
    after: { spendingLimitCents: cents },
  });
  return { ok: true, message: cents === null ? `${member.name} has no limit now` : `${member.name}'s limit is saved` };
}

/**
 * An owner removes a member (or, with their own id, leaves): they get a company of their own, their
 * sessions end at once, and their orders stay with this company.
 */
export async function removeMember(owner: UserView, memberId: string, context?: Context): Promise<MemberOutcome> {
  if (!(await stillOwner(owner))) return notOwner;
  const member = await getMember(owner.companyId, memberId);
  if (!member) return noSuchMember;
  const result = await moveMember(memberId, owner.companyId, null);
  if (result === "missing") return noSuchMember;
  if (result === "last-owner") return lastOwner;
  await deleteUserSessions(memberId);
  // Their keys of this company stop at once (the API also refuses a key whose maker left its company).
  await revokeMemberKeys(owner.companyId, memberId);
  const company = await getCompany(owner.companyId);
  const companyName = company?.company.companyName || `${owner.name}'s company`;
  await queueEmail({
    key: `company-removed:${owner.companyId}:${memberId}:${Date.now()}`,
    to: member.email,
    subject: `You no longer order for ${companyName} at PartsWorks`,
    body: createElement(RemovedFromCompanyEmail, { name: member.name, companyName, shopUrl: shopUrl() }),
  });
  await audit({
    context,
    actor: actorOf(owner),
    action: "company.remove",
    target: { type: "user", id: memberId, label: `${member.name} <${member.email}>` },
    before: { companyRole: member.role },
    after: { sessions: "ended", apiKeys: "revoked" },
  });
  return { ok: true, message: `${member.name} was removed and signed out` };
}

/** An owner withdraws a pending invitation. */
export async function withdrawInvitation(owner: UserView, handle: string): Promise<MemberOutcome> {
  if (!can(owner, "manage")) return notOwner;
  if (!(await revokeInvitation(owner.companyId, handle))) {
    return { ok: false, status: 404, message: "There is no such pending invitation." };
  }
  return { ok: true, message: "Invitation withdrawn" };
}

/**
 * Paying, cancelling and the invoice of an order: its placer, or whoever handles the company's
 * money (owner, accounts). A buyer sees a colleague's order (to order it again), not its money.
 */
export function mayHandleOrder(user: Pick<UserView, "id" | "role" | "companyRole">, order: { userId: string }) {
  return user.role === "admin" || order.userId === user.id || can(user, "finance");
}

// --- The shop's side: terms and caps on the company record ------------------------------------------

type Admin = { id: string; email: string };
const companyTarget = (company: CompanyView) => ({
  type: "company" as const,
  id: company.id,
  label: company.company.companyName || "Unnamed company",
});

/** An admin sets a company's payment terms and credit limit (every member orders within them); audited. */
export async function setTermsOfCompany(admin: Admin, company: CompanyView, terms: AccountTerms, context?: Context) {
  if (!(await setCompanyTerms(company.id, terms))) return false;
  await audit({
    context,
    actor: admin,
    action: "company.set-terms",
    target: companyTarget(company),
    before: { terms: termsWords(company.account.termsDays), creditLimitCents: company.account.creditLimitCents },
    after: { terms: termsWords(terms.termsDays), creditLimitCents: terms.creditLimitCents },
  });
  return true;
}

/**
 * An admin sets the currency a company buys in (its orders keep theirs); audited when it changes.
 * False when the company is gone.
 */
export async function setCurrencyOfCompany(admin: Admin, company: CompanyView, currency: Currency, context?: Context) {
  if (!(await setCompanyCurrency(company.id, currency))) return false;
  if (company.pricing.currency !== currency) {
    await audit({
      context,
      actor: admin,
      action: "company.set-currency",
      target: companyTarget(company),
      before: { currency: company.pricing.currency },
      after: { currency },
    });
  }
  return true;
}

export const CURRENCY_SET_BY_ORDERS = "Your company has ordered in its currency, so it stays: ask us to change it.";

/**
 * An owner chooses the currency their company buys in, only before its first order: after that its
 * orders, invoices and balance are in it, and staff change it (setCurrencyOfCompany). Audited.
 */
export async function chooseCompanyCurrency(
  owner: UserView,
  currency: Currency,
  context?: Context,
): Promise<MemberOutcome> {
  if (!(await stillOwner(owner))) return notOwner;
  const company = await getCompany(owner.companyId);
  if (!company) return { ok: false, status: 404, message: "We could not find your company." };
  if (await companyHasOrdered(company.id)) return { ok: false, status: 409, message: CURRENCY_SET_BY_ORDERS };
  if (!(await setCompanyCurrency(company.id, currency))) {
    return { ok: false, status: 404, message: "We could not find your company." };
  }
  if (company.pricing.currency !== currency) {
    await audit({
      context,
      actor: actorOf(owner),
      action: "company.set-currency",
      target: companyTarget(company),
      before: { currency: company.pricing.currency },
      after: { currency },
    });
  }
  return { ok: true, message: `Your company buys in ${formatCurrencyName(currency)}` };
}

export type UnpaidCaps = { orders: number | null; valueCents: number | null };

/** How caps read in the audit log and the toast: the value in the company's currency. */
export const capsWords = (caps: UnpaidCaps, currency?: Currency) =>
  `${caps.orders ?? "default"} orders, ${caps.valueCents === null ? "default value" : formatCents(caps.valueCents, { currency })}`;

/** An admin sets (or clears, with nulls) a company's own caps on unpaid card orders; audited. */
export async function setCapsOfCompany(admin: Admin, company: CompanyView, caps: UnpaidCaps, context?: Context) {
  if (!(await setCompanyUnpaidCaps(company.id, caps))) return false;
  await audit({
    context,
    actor: admin,
    action: "company.unpaid-caps",
    target: companyTarget(company),
    before: { caps: capsWords(company.unpaidCaps, company.pricing.currency) },
    after: { caps: capsWords(caps, company.pricing.currency) },
  });
  return true;
}

/** An admin sets (or with null removes) a company's Peppol participant id; audited. */
export async function setPeppolOfCompany(
  admin: Admin,
  company: CompanyView,
  peppol: PeppolId | null,
  context?: Context,
) {
  if (!(await setCompanyPeppolId(company.id, peppol))) return false;
  await audit({
    context,
    actor: admin,
    action: "company.set-peppol-id",
    target: companyTarget(company),
    before: { peppolId: company.company.peppol ? peppolIdWords(company.company.peppol) : null },
    after: { peppolId: peppol ? peppolIdWords(peppol) : null },
  });
  return true;
}

/**
 * An admin sets (or with null removes) a German company's Leitweg-ID; audited. False when the company
 * is gone or, setting one, is no longer German (the form checks its country first).
 */
export async function setLeitwegOfCompany(
  admin: Admin,
  company: CompanyView,
  leitwegId: string | null,
  context?: Context,
) {
  if (!(await setCompanyLeitwegId(company.id, leitwegId))) return false;
  await audit({
    context,
    actor: admin,
    action: "company.set-leitweg-id",
    target: companyTarget(company),
    before: { leitwegId: company.company.leitwegId },
    after: { leitwegId },
  });
  return true;
}
