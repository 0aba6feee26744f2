import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Pagination } from "~/components/pagination";
import { memberCounts } from "~/models/company-member.server";
import { listCompanies } from "~/models/company.server";
import { owedOfAccounts } from "~/orders/model/ledger-reads.server";
import { OwedBothWays } from "~/components/account-owed";
import { requireAdmin } from "~/services/guards.server";
import { formatCents } from "~/format";
import { termsWords } from "~/domain/order-states";

const PER_PAGE = 20;

/**
 * The shop's customers as companies: name, members, terms and credit, what each owes and is owed
 * (the ledger); search by the name's start.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const raw = url.searchParams.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 60);
  const { companies, total } = await listCompanies({ page, perPage: PER_PAGE, q: q || undefined });
  const ids = companies.map((company) => company.id);
  const [counts, owed] = await Promise.all([memberCounts(ids), owedOfAccounts(ids)]);
  return data(
    {
      q,
      page,
      pageCount: Math.max(1, Math.ceil(total / PER_PAGE)),
      total,
      companies: companies.map((company) => ({
        id: company.id,
        name: company.company.companyName,
        members: counts.get(company.id) ?? 0,
        terms: termsWords(company.account.termsDays),
        creditLimitCents: company.account.creditLimitCents,
        // The credit limit is in the company's currency; what is owed, a line a currency it was sold in.
        currency: company.pricing.currency,
        owed: owed.get(company.id) ?? [],
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CompaniesPage() {
  const { companies, q, page, pageCount, total } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="companies-heading">
      <h1 id="companies-heading" className="text-2xl font-bold text-slate-900">
        Companies
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        {total} {total === 1 ? "company" : "companies"}
        {q ? ` whose name starts with “${q}”` : ", newest first"}.
      </p>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-2">
        <label className="text-sm text-slate-800">
          <span className="mb-1 block font-medium">Company name starts with</span>
          <input
            name="q"
            defaultValue={q}
            maxLength={60}
            className="block min-h-11 w-64 max-w-full rounded border border-slate-400 bg-white px-3 py-2"
          />
        </label>
        <button type="submit" className="min-h-11 rounded bg-brand-700 px-4 py-2 font-medium text-white">
          Search
        </button>
      </Form>
      <ul className="mt-4 space-y-2">
        {companies.map((company) => (
          <li
            key={company.id}
            data-testid="company-row"
            className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
          >
            <Link to={`/dashboard/companies/${company.id}`} className="font-medium text-brand-700 underline">
              {company.name || "Unnamed company"}
            </Link>
            <span className="block text-sm text-slate-700">
              {company.members} {company.members === 1 ? "member" : "members"} · buys in {company.currency} ·{" "}
              {company.terms} · credit limit {formatCents(company.creditLimitCents, { currency: company.currency })}
            </span>
            <span className="block text-sm text-slate-700">
              <OwedBothWays owed={company.owed} currency={company.currency} testId="company-owed" />
            </span>
          </li>
        ))}
      </ul>
      {companies.length === 0 ? <p className="mt-3 text-slate-700">No company matches.</p> : null}
      <Pagination page={page} pageCount={pageCount} label="Pages of companies" />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Companies — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
