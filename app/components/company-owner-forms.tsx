/** An owner's forms on the company page: invite a colleague, each member's role and limit, and the orders to approve. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { inputAttributes, ErrorList, Field, SelectField, SubmitButton, useIsPending } from "~/components/forms";
import { company as shop } from "~/content/company";
import { CURRENCIES } from "~/content/currencies";
import { COMPANY_ROLE_HELP, COMPANY_ROLE_WORDS, COMPANY_ROLES, type CompanyRole } from "~/domain/company-roles";
import { CURRENCY_CODES, type Currency } from "~/domain/money";
import { formatCents, formatCurrencyName } from "~/format";
import { companyCurrencySchema, inviteSchema } from "~/forms/company-forms";
import { useCurrency, useMoney } from "./money";
import { ApprovalDecision } from "./order-approval";

type Result = SubmissionResult<string[]> | undefined;

export function InviteForm({ lastResult, caps }: { lastResult: Result; caps: { perHour: number; pending: number } }) {
  const isPending = useIsPending();
  const currency = useCurrency();
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
          label={`A buyer's limit per order, in whole ${CURRENCIES[currency].units}`}
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

/** A member of the company as its owner sees them. */
type Member = { id: string; name: string; role: CompanyRole; spendingLimitCents: number | null };

/** An owner's controls for one member: role, limit (buyers), remove (behind a disclosure, no JS needed). */
export function MemberControls({ member, lastResult, self }: { member: Member; lastResult: Result; self: boolean }) {
  const isPending = useIsPending();
  const currency = useCurrency();
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
              Limit per order, {CURRENCIES[currency].symbol} (empty: none)
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

/** An order over its buyer's limit, waiting for an owner. */
type Awaiting = {
  id: string;
  number: string;
  summary: string;
  totalCents: number;
  currency: Currency;
  placedBy: string;
  limitCents: number | null;
  paymentMethod: string;
}[];

/** The orders over a buyer's limit: approve, or decline with a reason (plain forms, no JS needed). */
export function Approvals({ awaiting, lastResult }: { awaiting: Awaiting; lastResult: Result }) {
  // A buyer's limit is in the company's currency; each order's total in its own.
  const money = useMoney();
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
                : {order.summary}, {formatCents(order.totalCents, { currency: order.currency })}
              </p>
              <p className="text-sm text-slate-700">
                Placed by {order.placedBy}
                {order.limitCents !== null ? `, over their limit of ${money(order.limitCents)}` : ""};{" "}
                {order.paymentMethod === "account"
                  ? "on account"
                  : order.paymentMethod === "bank-transfer"
                    ? "by bank transfer"
                    : "by card"}
                .
              </p>
              <ApprovalDecision order={order} lastResult={lastResult} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The currency the company buys in. An owner chooses it until the company's first order (`mayChoose`);
 * after that, or for anyone else, it is said, with the way to have it changed.
 */
export function CompanyCurrency({
  currency,
  mayChoose,
  lastResult,
}: {
  currency: Currency;
  mayChoose: boolean;
  lastResult: Result;
}) {
  const isPending = useIsPending();
  const mine = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent === "currency";
  const [form, fields] = useForm({
    id: "own-currency",
    lastResult: mine ? lastResult : null,
    constraint: getZodConstraint(companyCurrencySchema),
    defaultValue: { currency },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companyCurrencySchema }),
  });
  return (
    <section aria-labelledby="currency-heading" className="mt-4" data-testid="company-currency">
      <h2 id="currency-heading" className="text-lg font-semibold text-slate-900">
        Currency
      </h2>
      {mayChoose ? (
        <Form method="post" {...getFormProps(form)} className="mt-2 grid max-w-xl gap-x-4 sm:grid-cols-[1fr_auto]">
          <input type="hidden" name="intent" value="currency" />
          <SelectField meta={fields.currency} label="Your company buys in" alwaysChosen>
            {CURRENCY_CODES.map((code) => (
              <option key={code} value={code}>
                {CURRENCIES[code].symbol} {CURRENCIES[code].name} ({code})
              </option>
            ))}
          </SelectField>
          <div className="sm:pt-6">
            <SubmitButton pending={isPending} variant="secondary">
              Save currency
            </SubmitButton>
          </div>
          <p className="text-sm text-slate-600 sm:col-span-2">
            Prices, orders, invoices, your credit limit and your statement are in it. Choose it before your first order:
            it is kept from then on.
          </p>
          <div className="sm:col-span-2">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
        </Form>
      ) : (
        <p className="mt-1 text-sm text-slate-800">
          {`Your company buys in ${formatCurrencyName(currency)}.`}{" "}
          <a
            href={`mailto:${shop.email}?subject=${encodeURIComponent("Please change our currency")}`}
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline md:min-h-6"
          >
            Ask us to change it
          </a>
        </p>
      )}
      {/* A change posted after the first order (another tab) is refused: said here, where the form was. */}
      {mayChoose ? null : <ErrorList errors={form.errors} />}
    </section>
  );
}
