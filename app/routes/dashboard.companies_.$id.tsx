import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { listMembers } from "~/models/company-member.server";
import { getCompany } from "~/models/company.server";
import { listOrdersOfUser, openAccountOrders } from "~/models/order.server";
import { requireAdmin } from "~/utils/guards.server";
import { COMPANY_ROLE_WORDS } from "~/domain/company-roles";
import { formatCents } from "~/domain/format";
import { orderStateText, termsWords } from "~/domain/order-states";

/** One company for the shop: its members and roles, limits, terms, open balance and latest orders. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const company = await getCompany(params.id ?? "");
  if (!company) throw new Response("There is no company with that id.", { status: 404 });
  const scope = { id: "", companyId: company.id };
  const [members, open, latest] = await Promise.all([
    listMembers(company.id),
    openAccountOrders(scope),
    listOrdersOfUser(scope, { perPage: 10 }),
  ]);
  return json(
    {
      company: {
        id: company.id,
        name: company.company.companyName,
        taxId: company.company.taxId,
        billingAddress: company.company.billingAddress,
        terms: termsWords(company.account.termsDays),
        creditLimitCents: company.account.creditLimitCents,
      },
      members,
      balanceCents: open.balanceCents,
      orders: latest.orders.map((order) => ({
        id: order.id,
        number: order.number,
        summary: order.summary,
        totalCents: order.totalCents,
        placedBy: order.userName,
        state: order.state,
        dueAt: order.dueAt,
      })),
      orderCount: latest.total,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CompanyRecord() {
  const { company, members, balanceCents, orders, orderCount } = useLoaderData<typeof loader>();
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
        <dt className="font-medium text-slate-700">Terms</dt>
        <dd data-testid="company-terms">{company.terms}</dd>
        <dt className="font-medium text-slate-700">Credit limit</dt>
        <dd>{formatCents(company.creditLimitCents)}</dd>
        <dt className="font-medium text-slate-700">Open on account</dt>
        <dd data-testid="company-balance">{formatCents(balanceCents)}</dd>
        {company.taxId ? (
          <>
            <dt className="font-medium text-slate-700">Tax number</dt>
            <dd>{company.taxId}</dd>
          </>
        ) : null}
        {company.billingAddress ? (
          <>
            <dt className="font-medium text-slate-700">Billing address</dt>
            <dd className="whitespace-pre-line">{company.billingAddress}</dd>
          </>
        ) : null}
      </dl>
      <p className="mt-2 text-sm text-slate-700">
        Terms and caps are set on an owner&apos;s record (All Users); they apply to the whole company.
      </p>

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
                  ? `, limit ${formatCents(member.spendingLimitCents)} an order`
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
            {order.summary}, {formatCents(order.totalCents)}
            <span className="block text-slate-600">
              {orderStateText(order)} · placed by {order.placedBy}
            </span>
          </li>
        ))}
      </ul>
      {orders.length === 0 ? <p className="mt-1 text-sm text-slate-600">No orders yet.</p> : null}
      <p className="mt-3 text-sm">
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
