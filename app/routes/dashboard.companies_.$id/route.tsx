import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { UnpaidCapsForm } from "~/components/hold-forms";
import { InCurrency } from "~/components/money";
import { listMembers } from "~/models/company-member.server";
import { getCompany } from "~/models/company.server";
import { listOrdersOfUser } from "~/orders/model/reads.server";
import { accountLedger } from "~/orders/model/ledger-reads.server";
import { OwedBothWays } from "~/components/account-owed";
import { HeldCredits, type PayoutReply } from "~/components/credit-payout";
import { accountTermsSchema, companyCurrencySchema, companyPeppolSchema } from "./forms";
import { CurrencyForm, TermsForm } from "./account-forms";
import { PeppolIdForm } from "~/components/peppol-id-form";
import { LeitwegIdForm } from "~/components/leitweg-id-form";
import { setLeitwegFromForm, type LeitwegReply } from "./leitweg.server";
import { peppolIdWords } from "~/domain/peppol";
import { payOutFromForm } from "./payout.server";
import { requireAdmin } from "~/services/guards.server";
import { COMPANY_ROLE_WORDS } from "~/domain/company-roles";
import {
  capsWords,
  setCapsOfCompany,
  setCurrencyOfCompany,
  setPeppolOfCompany,
  setTermsOfCompany,
} from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { unpaidCapsSchema } from "~/forms/hold-forms";
import { formatCents, formatCurrencyName } from "~/format";
import { shopUnpaidCaps } from "~/models/unpaid-caps.server";
import { orderStateText, termsWords } from "~/domain/order-states";
import { CURRENCIES } from "~/content/currencies";
import { redirectWithSuccess } from "~/services/toast.server";

const NOT_FOUND = "There is no company with that id.";

/**
 * One company for the shop: its members and roles, limits, what it owes and is owed (the ledger),
 * the credit notes holding credit to pay out, its latest orders, and where an admin sets its payment
 * terms, credit limit and caps on unpaid orders (they are the company's: every member orders within them).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const company = await getCompany(params.id ?? "");
  if (!company) throw new Response(NOT_FOUND, { status: 404 });
  const scope = { id: "", companyId: company.id };
  const [members, ledger, latest] = await Promise.all([
    listMembers(company.id),
    accountLedger(company.id),
    listOrdersOfUser(scope, { perPage: 10 }),
  ]);
  return data(
    {
      company: {
        id: company.id,
        name: company.company.companyName,
        taxId: company.company.taxId,
        billingAddress: company.company.billingAddress,
        billingToConfirm: company.company.billingToConfirm,
        peppol: company.company.peppol,
        country: company.company.country,
        leitwegId: company.company.leitwegId,
        terms: termsWords(company.account.termsDays),
        termsDays: company.account.termsDays,
        creditLimitCents: company.account.creditLimitCents,
        // The credit limit, caps and buyers' limits are in it; each order is in its own.
        currency: company.pricing.currency,
        unpaidCaps: company.unpaidCaps,
      },
      // A company's members may or may not have verified their email: the form names the verified default.
      capDefaults: shopUnpaidCaps(true),
      members,
      owed: ledger.owed,
      credits: ledger.credits,
      orders: latest.orders.map((order) => ({
        id: order.id,
        number: order.number,
        summary: order.summary,
        totalCents: order.totalCents,
        currency: order.currency,
        placedBy: order.userName,
        state: order.state,
        dueAt: order.dueAt,
      })),
      orderCount: latest.total,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type Reply =
  | { intent: "terms" | "currency" | "unpaid-caps" | "peppol"; result: SubmissionResult<string[]> }
  | PayoutReply
  | LeitwegReply;

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const company = await getCompany(params.id ?? "");
  if (!company) throw new Response(NOT_FOUND, { status: 404 });
  const formData = await readForm(request);
  const path = `/dashboard/companies/${company.id}`;
  const label = company.company.companyName || "The company";
  const changed = ["This company changed meanwhile; reload the page."];
  if (formData.get("intent") === "payout")
    return payOutFromForm(formData, { admin, context, back: `${path}#credit-held`, accountId: company.id });
  if (formData.get("intent") === "leitweg" || formData.get("intent") === "leitweg-remove")
    return setLeitwegFromForm(formData, { admin, company, context, back: path });
  if (formData.get("intent") === "peppol" || formData.get("intent") === "peppol-remove") {
    const intent = "peppol" as const;
    const removing = formData.get("intent") === "peppol-remove";
    const submission = parseForm(formData, { schema: companyPeppolSchema });
    if (!removing && submission.status !== "success")
      return data<Reply>({ intent, result: submission.reply() }, { status: 400 });
    const peppol =
      !removing && submission.status === "success"
        ? { scheme: submission.value.scheme, id: submission.value.id }
        : null;
    if (!(await setPeppolOfCompany(admin, company, peppol, context)))
      return data<Reply>({ intent, result: submission.reply({ formErrors: changed }) }, { status: 409 });
    return redirectWithSuccess(
      path,
      peppol
        ? `${label} receives its e-invoices at ${peppolIdWords(peppol)} (Peppol)`
        : `${label} has no Peppol id now`,
    );
  }
  if (formData.get("intent") === "currency") {
    const intent = "currency" as const;
    const submission = parseForm(formData, { schema: companyCurrencySchema });
    if (submission.status !== "success") return data<Reply>({ intent, result: submission.reply() }, { status: 400 });
    const { currency } = submission.value;
    if (!(await setCurrencyOfCompany(admin, company, currency, context)))
      return data<Reply>({ intent, result: submission.reply({ formErrors: changed }) }, { status: 409 });
    return redirectWithSuccess(path, `${label} buys in ${formatCurrencyName(currency)}`);
  }
  if (formData.get("intent") === "unpaid-caps") {
    const submission = parseForm(formData, { schema: unpaidCapsSchema });
    const intent = "unpaid-caps" as const;
    if (submission.status !== "success") return data<Reply>({ intent, result: submission.reply() }, { status: 400 });
    const minor = 10 ** CURRENCIES[company.pricing.currency].minorUnits;
    const caps = {
      orders: submission.value.orders ?? null,
      valueCents: submission.value.value === undefined ? null : submission.value.value * minor,
    };
    if (!(await setCapsOfCompany(admin, company, caps, context))) {
      return data<Reply>({ intent, result: submission.reply({ formErrors: changed }) }, { status: 409 });
    }
    return redirectWithSuccess(path, `${label} may hold unpaid: ${capsWords(caps, company.pricing.currency)}`);
  }
  const currency = company.pricing.currency;
  const submission = parseForm(formData, { schema: accountTermsSchema(currency) });
  const intent = "terms" as const;
  if (submission.status !== "success") return data<Reply>({ intent, result: submission.reply() }, { status: 400 });
  const creditLimitCents = submission.value.creditLimit * 10 ** CURRENCIES[currency].minorUnits;
  const terms = { termsDays: submission.value.termsDays, creditLimitCents };
  if (!(await setTermsOfCompany(admin, company, terms, context))) {
    return data<Reply>({ intent, result: submission.reply({ formErrors: changed }) }, { status: 409 });
  }
  return redirectWithSuccess(
    path,
    `${label}: ${termsWords(terms.termsDays)}, credit limit ${formatCents(terms.creditLimitCents, { currency })}`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CompanyRecord() {
  const { company, members, owed, credits, orders, orderCount, capDefaults } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const money = (cents: number) => formatCents(cents, { currency: company.currency });
  return (
    <section aria-labelledby="company-record-heading">
      <p className="text-sm">
        <Link to="/dashboard/companies" className="text-brand-700 underline">
          Companies
        </Link>
      </p>
      <h1 id="company-record-heading" className="text-2xl font-bold text-slate-900">
        {company.name || "Unnamed company"}
      </h1>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-medium text-slate-700">Currency</dt>
        <dd data-testid="company-currency">{formatCurrencyName(company.currency)}</dd>
        <dt className="font-medium text-slate-700">Terms</dt>
        <dd data-testid="company-terms">{company.terms}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd data-testid="company-credit-limit">{money(company.creditLimitCents)}</dd>
        <dt className="font-medium text-slate-700">Open on account</dt>
        <dd>
          <OwedBothWays owed={owed} currency={company.currency} testId="company-balance" />
        </dd>
        {company.taxId ? (
          <>
            <dt className="font-medium text-slate-700">Tax number</dt>
            <dd>{company.taxId}</dd>
          </>
        ) : null}
        {company.billingAddress ? (
          <>
            <dt className="font-medium text-slate-700">Billing address</dt>
            <dd>
              <span className="whitespace-pre-line">{company.billingAddress}</span>
              {company.billingToConfirm ? (
                <p data-testid="billing-to-confirm" className="mt-1 text-sm text-amber-800">
                  Kept as one block of text and not yet checked by the company: documents print it as it is until an
                  owner confirms it field by field in My Profile.
                </p>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="credit-held-heading" id="credit-held" className="mt-6 scroll-mt-4">
        <h2 id="credit-held-heading" className="text-lg font-semibold text-slate-900">
          Credit to pay out
        </h2>
        <HeldCredits credits={credits} reply={reply} />
      </section>

      <section aria-labelledby="terms-heading" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="terms-heading" className="text-lg font-semibold text-slate-900">
          Payment terms and credit
        </h2>
        <p className="text-sm text-slate-600">
          With terms, the company&apos;s owners and buyers may order on account: confirmed at once, invoiced, due after
          the net days, while what is open (and what waits for approval on account) stays within the credit limit.
        </p>
        <TermsForm
          lastResult={reply?.intent === "terms" ? reply.result : null}
          termsDays={company.termsDays}
          creditLimitCents={company.creditLimitCents}
          currency={company.currency}
        />
      </section>

      <section
        aria-labelledby="currency-heading"
        className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="currency-heading" className="text-lg font-semibold text-slate-900">
          Currency
        </h2>
        <p className="text-sm text-slate-600">
          What the company buys in: its prices, new orders, credit limit, caps and buyers&apos; limits (the amounts stay
          as they are, so check them after a change). Orders already placed keep the currency they were placed in.
        </p>
        <CurrencyForm lastResult={reply?.intent === "currency" ? reply.result : null} currency={company.currency} />
      </section>

      <section aria-labelledby="peppol-heading" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="peppol-heading" className="text-lg font-semibold">
          Peppol participant id
        </h2>
        <PeppolIdForm peppol={company.peppol} reply={reply?.intent === "peppol" ? reply.result : undefined} />
      </section>

      <section
        aria-labelledby="leitweg-heading"
        className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="leitweg-heading" className="text-lg font-semibold">
          German public buyer (XRechnung)
        </h2>
        <LeitwegIdForm
          leitwegId={company.leitwegId}
          country={company.country}
          reply={reply?.intent === "leitweg" ? reply.result : undefined}
        />
      </section>

      <section aria-labelledby="caps-heading" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="caps-heading" className="text-lg font-semibold text-slate-900">
          Orders awaiting card payment
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          How much the company may hold unpaid at once, all its members together: each unpaid card order keeps its stock
          from other buyers until it is paid or its hold runs out.
        </p>
        <InCurrency currency={company.currency}>
          <UnpaidCapsForm
            reply={reply?.intent === "unpaid-caps" ? reply : undefined}
            caps={company.unpaidCaps}
            defaults={capDefaults}
          />
        </InCurrency>
      </section>

      <h2 className="mt-6 text-lg font-semibold text-slate-900">Members</h2>
      <ul className="mt-2 space-y-2">
        {members.map((member) => (
          <li key={member.id} data-testid="company-member" className="rounded border border-slate-200 bg-white p-3">
            <Link to={`/dashboard/allUsers/${member.id}`} className="font-medium text-brand-700 underline">
              {member.name}
            </Link>
            <span className="block break-all text-sm text-slate-600">{member.email}</span>
            <span className="block text-sm text-slate-800">
              {COMPANY_ROLE_WORDS[member.role]}
              {member.role === "buyer"
                ? member.spendingLimitCents
                  ? `, limit ${money(member.spendingLimitCents)} an order`
                  : ", no limit"
                : ""}
            </span>
          </li>
        ))}
      </ul>

      <h2 className="mt-6 text-lg font-semibold text-slate-900">Latest orders ({orderCount})</h2>
      <ul className="mt-2 space-y-2">
        {orders.map((order) => (
          <li key={order.id} className="rounded border border-slate-200 bg-white p-3 text-sm">
            <Link to={`/dashboard/manageOrders/${order.id}`} className="font-medium text-brand-700 underline">
              {order.number}
            </Link>{" "}
            {order.summary}, {formatCents(order.totalCents, { currency: order.currency })}
            <span className="block text-slate-600">
              {orderStateText(order)} · placed by {order.placedBy}
            </span>
          </li>
        ))}
      </ul>
      {orders.length === 0 ? <p className="mt-1 text-sm text-slate-600">No orders yet.</p> : null}
      <p className="mt-3 text-sm">
        <Link to={`/dashboard/companies/${company.id}/statement`} className="text-brand-700 underline">
          Its statement of account
        </Link>{" "}
        ·{" "}
        <Link to={`/dashboard/manageOrders?company=${company.id}`} className="text-brand-700 underline">
          All of its orders in Manage Orders
        </Link>{" "}
        ·{" "}
        <Link to={`/dashboard/allUsers?company=${company.id}`} className="text-brand-700 underline">
          Its members in All Users
        </Link>
      </p>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Company — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
