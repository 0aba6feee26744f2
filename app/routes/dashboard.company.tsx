import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Approvals, CompanyCurrency, InviteForm, MemberControls } from "~/components/company-owner-forms";
import { InCurrency } from "~/components/money";
import { ErrorList, SubmitButton } from "~/components/forms";
import { VerifyFirstNotice } from "~/components/verify-email-banner";
import { listMembers } from "~/models/company-member.server";
import { getCompany } from "~/models/company.server";
import { companyHasOrdered } from "~/models/company-currency.server";
import { listInvitations } from "~/models/invitation.server";
import { listAwaitingApproval } from "~/orders/model/approvals.server";
import { approveCompanyOrder, declineCompanyOrder } from "~/orders/approvals.server";
import { requireCustomer } from "~/services/guards.server";
import { companyActionSchema } from "~/forms/company-forms";
import { COMPANY_ROLE_HELP, COMPANY_ROLE_WORDS, type CompanyRole } from "~/domain/company-roles";
import {
  can,
  changeRole,
  chooseCompanyCurrency,
  changeSpendingLimit,
  removeMember,
  withdrawInvitation,
  type MemberOutcome,
} from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import {
  inviteMember,
  mayInvite,
  MAX_PENDING_INVITATIONS_PER_COMPANY,
  VERIFY_TO_INVITE,
} from "~/services/invitations.server";
import { INVITATIONS_PER_ACCOUNT_PER_HOUR } from "~/services/mail-throttle.server";
import { formatCents } from "~/format";
import { HOME_CURRENCY } from "~/domain/money";
import { termsWords } from "~/domain/order-states";
import { formatDateTime } from "~/format";
import { redirectWithSuccess } from "~/services/toast.server";

/** Your company: its members and their roles; an owner invites, changes roles and limits, removes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const owner = can(user, "manage");
  const [company, members, invitations, awaiting, ordered] = await Promise.all([
    getCompany(user.companyId),
    listMembers(user.companyId),
    owner ? listInvitations(user.companyId) : Promise.resolve([]),
    owner ? listAwaitingApproval(user.companyId) : Promise.resolve([]),
    owner ? companyHasOrdered(user.companyId) : Promise.resolve(true),
  ]);
  return data(
    {
      me: { id: user.id, role: user.companyRole },
      owner,
      verifyFirst: owner && !mayInvite(user) ? VERIFY_TO_INVITE : null,
      inviteCaps: { perHour: INVITATIONS_PER_ACCOUNT_PER_HOUR, pending: MAX_PENDING_INVITATIONS_PER_COMPANY },
      company: {
        name: company?.company.companyName ?? "",
        terms: owner || can(user, "finance") ? termsWords(company?.account.termsDays ?? 0) : null,
        creditLimitCents: owner || can(user, "finance") ? (company?.account.creditLimitCents ?? 0) : null,
        // Its credit limit and buyers' limits are in it; an owner chooses it until the first order.
        currency: company?.pricing.currency ?? HOME_CURRENCY,
        mayChooseCurrency: owner && !ordered,
      },
      members,
      invitations: invitations.filter((invitation) => invitation.status === "pending"),
      awaiting: awaiting.map((order) => ({
        id: order.id,
        number: order.number,
        summary: order.summary,
        totalCents: order.totalCents,
        currency: order.currency,
        placedBy: order.userName,
        limitCents: order.approval?.limitCents ?? null,
        paymentMethod: order.paymentMethod,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const submission = parseForm(await readForm(request), { schema: companyActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // Every intent here is an owner's: anyone else is refused before anything is read or written.
  if (!can(user, "manage")) {
    return data(submission.reply({ formErrors: ["Only an owner of the company can do that."] }), { status: 403 });
  }
  const value = submission.value;
  if (value.intent === "invite") {
    const invited = await inviteMember(user, { email: value.email, role: value.role, limit: value.limit }, context);
    if (!invited.ok) {
      const reply = invited.field
        ? submission.reply({ fieldErrors: { email: [invited.message] } })
        : submission.reply({ formErrors: [invited.message] });
      const retryAfter = "retryAfterSeconds" in invited ? invited.retryAfterSeconds : undefined;
      return data(reply, {
        status: invited.status,
        ...(retryAfter ? { headers: { "Retry-After": String(retryAfter) } } : {}),
      });
    }
    return redirectWithSuccess("/dashboard/company", `Invitation sent to ${value.email}`);
  }
  if (value.intent === "approve" || value.intent === "decline") {
    const decided =
      value.intent === "approve"
        ? await approveCompanyOrder(user, value.order, value.note ?? null, { context })
        : await declineCompanyOrder(user, value.order, value.note, { context });
    if (!decided.ok) return data(submission.reply({ formErrors: [decided.message] }), { status: decided.status });
    return redirectWithSuccess(
      "/dashboard/company#approvals",
      `${decided.order.number} ${value.intent === "approve" ? "approved" : "declined"}`,
    );
  }
  let outcome: MemberOutcome;
  if (value.intent === "currency") outcome = await chooseCompanyCurrency(user, value.currency, context);
  else if (value.intent === "role") outcome = await changeRole(user, value.member, value.role, context);
  else if (value.intent === "limit") {
    outcome = await changeSpendingLimit(user, value.member, value.limit ? value.limit * 100 : null, context);
  } else if (value.intent === "remove") outcome = await removeMember(user, value.member, context);
  else outcome = await withdrawInvitation(user, value.invitation);
  if (!outcome.ok) return data(submission.reply({ formErrors: [outcome.message] }), { status: outcome.status });
  // Removing yourself signs you out: your next page is the sign-in.
  return redirectWithSuccess(
    value.intent === "remove" && value.member === user.id ? "/login" : "/dashboard/company",
    outcome.message,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type Result = SubmissionResult<string[]> | undefined;

export default function CompanyPage() {
  const { me, owner, verifyFirst, inviteCaps, company, members, invitations, awaiting } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as Result;
  // An approval's errors, and the currency's, show at their own forms.
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
  const ownForm = intent === "approve" || intent === "currency";
  const formErrors = lastResult && "error" in lastResult && !ownForm ? lastResult.error?.[""] : null;
  return (
    <InCurrency currency={company.currency}>
      <section aria-labelledby="company-page-heading">
        <h1 id="company-page-heading" className="text-2xl font-bold text-slate-900">
          {company.name || "Your company"}
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          You are {COMPANY_ROLE_WORDS[me.role as CompanyRole].toLowerCase()}:{" "}
          {COMPANY_ROLE_HELP[me.role as CompanyRole]}.
          {company.terms
            ? ` Terms: ${company.terms}, credit limit ${formatCents(company.creditLimitCents ?? 0, { currency: company.currency })}.`
            : ""}
        </p>
        <div role="alert">
          <ErrorList errors={formErrors} />
        </div>

        <CompanyCurrency currency={company.currency} mayChoose={company.mayChooseCurrency} lastResult={lastResult} />

        {owner ? <Approvals awaiting={awaiting} lastResult={lastResult} /> : null}

        <h2 className="mt-4 text-lg font-semibold text-slate-900">Members</h2>
        <ul className="mt-2 space-y-3" data-testid="members">
          {members.map((member) => (
            <li
              key={member.id}
              data-testid="member"
              data-email={member.email}
              className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
            >
              <p className="font-medium text-slate-900">
                {member.name} {member.id === me.id ? <span className="text-sm text-slate-600">(you)</span> : null}
              </p>
              <p className="break-all text-sm text-slate-600">{member.email}</p>
              <p className="text-sm text-slate-800" data-testid="member-role">
                {COMPANY_ROLE_WORDS[member.role]}
                {member.role === "buyer"
                  ? member.spendingLimitCents
                    ? `, up to ${formatCents(member.spendingLimitCents, { currency: company.currency })} an order`
                    : ", no limit"
                  : ""}
              </p>
              {owner ? <MemberControls member={member} lastResult={lastResult} self={member.id === me.id} /> : null}
            </li>
          ))}
        </ul>

        {owner ? (
          <>
            {verifyFirst ? (
              <section
                aria-labelledby="invite-heading"
                className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
                  Invite a colleague
                </h2>
                <VerifyFirstNotice message={verifyFirst} />
              </section>
            ) : (
              <InviteForm lastResult={lastResult} caps={inviteCaps} />
            )}
            <section aria-labelledby="invitations-heading" className="mt-6">
              <h2 id="invitations-heading" className="text-lg font-semibold text-slate-900">
                Pending invitations
              </h2>
              {invitations.length === 0 ? (
                <p className="mt-1 text-sm text-slate-600">No invitations waiting for an answer.</p>
              ) : (
                <ul className="mt-2 space-y-2">
                  {invitations.map((invitation) => (
                    <li
                      key={invitation.handle}
                      data-testid="invitation"
                      className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 bg-white p-3"
                    >
                      <span className="break-all text-sm text-slate-800">
                        {invitation.email}, {COMPANY_ROLE_WORDS[invitation.role]}, until{" "}
                        {formatDateTime(invitation.expiresAt)}
                      </span>
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="invitation" value={invitation.handle} />
                        <SubmitButton pending={false} variant="secondary">
                          Withdraw
                        </SubmitButton>
                      </Form>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        ) : null}
      </section>
    </InCurrency>
  );
}

export const meta: MetaFunction = () => [{ title: "Your company — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
