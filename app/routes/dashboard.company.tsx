import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputAttributes, ErrorList, Field, SelectField, SubmitButton, useIsPending } from "~/components/forms";
import { VerifyFirstNotice } from "~/components/verify-email-banner";
import { listMembers } from "~/models/company-member.server";
import { getCompany } from "~/models/company.server";
import { listInvitations } from "~/models/invitation.server";
import { listAwaitingApproval } from "~/orders/model/approvals.server";
import { approveCompanyOrder, declineCompanyOrder } from "~/orders/approvals.server";
import { requireCustomer } from "~/services/guards.server";
import { companyActionSchema, inviteSchema } from "~/forms/company-forms";
import { COMPANY_ROLE_HELP, COMPANY_ROLE_WORDS, COMPANY_ROLES, type CompanyRole } from "~/domain/company-roles";
import {
  can,
  changeRole,
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
import { termsWords } from "~/domain/order-states";
import { formatDateTime } from "~/format";
import { redirectWithSuccess } from "~/services/toast.server";

/** Your company: its members and their roles; an owner invites, changes roles and limits, removes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const owner = can(user, "manage");
  const [company, members, invitations, awaiting] = await Promise.all([
    getCompany(user.companyId),
    listMembers(user.companyId),
    owner ? listInvitations(user.companyId) : Promise.resolve([]),
    owner ? listAwaitingApproval(user.companyId) : Promise.resolve([]),
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
      },
      members,
      invitations: invitations.filter((invitation) => invitation.status === "pending"),
      awaiting: awaiting.map((order) => ({
        id: order.id,
        number: order.number,
        summary: order.summary,
        totalCents: order.totalCents,
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
    const decide = value.intent === "approve" ? approveCompanyOrder : declineCompanyOrder;
    const decided = await decide(user, value.order, value.note ?? null);
    if (!decided.ok) return data(submission.reply({ formErrors: [decided.message] }), { status: decided.status });
    return redirectWithSuccess(
      "/dashboard/company#approvals",
      `${decided.order.number} ${value.intent === "approve" ? "approved" : "declined"}`,
    );
  }
  let outcome: MemberOutcome;
  if (value.intent === "role") outcome = await changeRole(user, value.member, value.role, context);
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

function InviteForm({ lastResult, caps }: { lastResult: Result; caps: { perHour: number; pending: number } }) {
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "invite",
    lastResult,
    constraint: getZodConstraint(inviteSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
  });
  return (
    <section
      aria-labelledby="invite-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="invite-heading" className="text-lg font-semibold text-slate-900">
        Invite a colleague
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Up to {caps.perHour} invitations an hour; {caps.pending} may wait for an answer at once.
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-3 grid gap-x-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="invite" />
        <Field meta={fields.email} type="email" label="Their email" inputProps={{ autoComplete: "off" }} />
        <SelectField
          meta={fields.role}
          label="Role"
          alwaysChosen
          selectProps={{ defaultValue: fields.role.initialValue ?? "buyer" }}
        >
          {COMPANY_ROLES.map((role) => (
            <option key={role} value={role}>
              {COMPANY_ROLE_WORDS[role]}: {COMPANY_ROLE_HELP[role]}
            </option>
          ))}
        </SelectField>
        <Field
          meta={fields.limit}
          type="number"
          label="A buyer's limit per order, in whole dollars"
          help="Empty: no limit. Orders over it wait for an owner's approval. Other roles have none."
          inputProps={{ min: 1, step: 1, inputMode: "numeric" }}
        />
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Sending…">
            Send invitation
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

type Member = ReturnType<typeof useLoaderData<typeof loader>>["members"][number];

/** An owner's controls for one member: role, limit (buyers), remove (behind a disclosure, no JS needed). */
function MemberControls({ member, lastResult, self }: { member: Member; lastResult: Result; self: boolean }) {
  const isPending = useIsPending();
  const [limitForm, limitFields] = useForm({
    id: `limit-${member.id}`,
    lastResult,
    defaultValue: { limit: member.spendingLimitCents ? String(member.spendingLimitCents / 100) : "" },
  });
  return (
    <div className="mt-2 grid gap-2">
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="member" value={member.id} />
        <label className="text-sm text-slate-800">
          <span className="mb-1 block font-medium">Role of {member.name}</span>
          <select
            name="role"
            defaultValue={member.role}
            className="block min-h-11 rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
          >
            {COMPANY_ROLES.map((role) => (
              <option key={role} value={role}>
                {COMPANY_ROLE_WORDS[role]}
              </option>
            ))}
          </select>
        </label>
        <SubmitButton pending={isPending} variant="secondary">
          Change role
        </SubmitButton>
      </Form>
      {member.role === "buyer" ? (
        <Form method="post" {...getFormProps(limitForm)} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="limit" />
          <input type="hidden" name="member" value={member.id} />
          <div>
            <label htmlFor={limitFields.limit.id} className="mb-1 block text-sm font-medium text-slate-800">
              Limit per order, $ (empty: none)
            </label>
            <input
              {...inputAttributes(limitFields.limit, { type: "number" })}
              key={limitFields.limit.key}
              min={1}
              step={1}
              className="block min-h-11 w-36 rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
            />
            <ErrorList id={limitFields.limit.errorId} errors={limitFields.limit.errors} />
          </div>
          <SubmitButton pending={isPending} variant="secondary" className="mb-8">
            Save limit
          </SubmitButton>
        </Form>
      ) : null}
      <details>
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-medium text-red-700">
          {self ? "Leave the company…" : `Remove ${member.name}…`}
        </summary>
        <Form method="post" className="mt-2 rounded border border-red-200 bg-red-50 p-3">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="member" value={member.id} />
          <p className="text-sm text-slate-800">
            {self
              ? "You will be signed out and get an account of your own; your orders stay with the company."
              : `${member.name} will be signed out at once. Their orders stay with the company.`}
          </p>
          <SubmitButton pending={isPending} variant="danger" className="mt-2">
            {self ? "Leave the company" : `Remove ${member.name}`}
          </SubmitButton>
        </Form>
      </details>
    </div>
  );
}

type Awaiting = ReturnType<typeof useLoaderData<typeof loader>>["awaiting"];

/** The orders over a buyer's limit: approve, or decline with a note (plain forms, no JS needed). */
function Approvals({ awaiting }: { awaiting: Awaiting }) {
  const isPending = useIsPending();
  return (
    <section id="approvals" aria-labelledby="approvals-heading" className="mt-4">
      <h2 id="approvals-heading" className="text-lg font-semibold text-slate-900">
        Orders awaiting approval
      </h2>
      {awaiting.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No order waits for your approval.</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {awaiting.map((order) => (
            <li
              key={order.id}
              data-testid="awaiting-approval"
              className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm"
            >
              <p className="font-medium text-slate-900">
                <Link to={`/dashboard/orders/${order.id}`} className="text-brand-700 underline">
                  {order.number}
                </Link>
                : {order.summary}, {formatCents(order.totalCents)}
              </p>
              <p className="text-sm text-slate-700">
                Placed by {order.placedBy}
                {order.limitCents !== null ? `, over their limit of ${formatCents(order.limitCents)}` : ""};{" "}
                {order.paymentMethod === "account"
                  ? "on account"
                  : order.paymentMethod === "bank-transfer"
                    ? "by bank transfer"
                    : "by card"}
                .
              </p>
              <Form method="post" className="mt-2 grid gap-2 sm:flex sm:flex-wrap sm:items-end">
                <input type="hidden" name="order" value={order.id} />
                <label className="block text-sm text-slate-800 sm:flex-1">
                  <span className="mb-1 block font-medium">Note for {order.placedBy} (optional)</span>
                  <input
                    name="note"
                    maxLength={300}
                    className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900"
                  />
                </label>
                <SubmitButton pending={isPending} name="intent" value="approve">
                  Approve {order.number}
                </SubmitButton>
                <SubmitButton pending={isPending} name="intent" value="decline" variant="danger">
                  Decline
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function CompanyPage() {
  const { me, owner, verifyFirst, inviteCaps, company, members, invitations, awaiting } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as Result;
  const formErrors = lastResult && "error" in lastResult ? lastResult.error?.[""] : null;
  return (
    <section aria-labelledby="company-page-heading">
      <h1 id="company-page-heading" className="text-2xl font-bold text-slate-900">
        {company.name || "Your company"}
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        You are {COMPANY_ROLE_WORDS[me.role as CompanyRole].toLowerCase()}: {COMPANY_ROLE_HELP[me.role as CompanyRole]}.
        {company.terms ? ` Terms: ${company.terms}, credit limit ${formatCents(company.creditLimitCents ?? 0)}.` : ""}
      </p>
      <div role="alert">
        <ErrorList errors={formErrors} />
      </div>

      {owner ? <Approvals awaiting={awaiting} /> : null}

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
                  ? `, up to ${formatCents(member.spendingLimitCents)} an order`
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
  );
}

export const meta: MetaFunction = () => [{ title: "Your company — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
