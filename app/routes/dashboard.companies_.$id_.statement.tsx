import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { statementPeriodSchema } from "~/domain/statement";
import { statementView } from "~/orders/statement-document.server";
import { getCompany } from "~/models/company.server";
import { parseForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";
import { PeriodForm, StatementBody } from "./dashboard.statement/statement-view";

const NOT_FOUND = "There is no company with that id.";

const staffOrderPath = (orderId: string) => `/dashboard/manageOrders/${orderId}`;

/** A company's statement of account for staff: the same statement its owners and accounts people see. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = params.id ?? "";
  const headers = { "Cache-Control": "private, no-store" };
  const submission = parseForm(new URL(request.url).searchParams, { schema: statementPeriodSchema });
  if (submission.status !== "success") {
    const found = await getCompany(id);
    if (!found) throw new Response(NOT_FOUND, { status: 404 });
    const company = { id, name: found.company.companyName };
    return data({ result: submission.reply(), company, view: null }, { status: 400, headers });
  }
  const view = await statementView(id, submission.value);
  if (!view) throw new Response(NOT_FOUND, { status: 404 });
  return data({ result: submission.reply(), company: { id, name: view.customer.name }, view }, { headers });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function CompanyStatement() {
  const { result, company, view } = useLoaderData<typeof loader>();
  const path = `/dashboard/companies/${company.id}/statement`;
  return (
    <section aria-labelledby="company-statement-heading">
      <p className="text-sm">
        <Link
          to={`/dashboard/companies/${company.id}`}
          className="inline-flex min-h-11 items-center text-brand-700 underline"
        >
          {company.name || "Unnamed company"}
        </Link>
      </p>
      <h1 id="company-statement-heading" className="text-2xl font-bold text-slate-900">
        Statement of account
      </h1>
      <p className="text-sm text-slate-700">
        As {company.name || "the customer"} sees it: &ldquo;you&rdquo; is the customer, &ldquo;we&rdquo; the shop.
      </p>
      <PeriodForm result={result} />
      {view ? (
        <StatementBody data={view} downloadPath={path} orderHref={staffOrderPath} />
      ) : (
        <p className="mt-4 text-slate-700" data-testid="statement-bad-period">
          Correct the dates above to see the statement.
        </p>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Company statement — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
