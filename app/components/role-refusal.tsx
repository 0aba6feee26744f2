import { Link } from "@remix-run/react";

/**
 * What an accounts member meets on an ordering screen (a bookmark, an old link): why, in the
 * dashboard, with where to go instead; never an error page.
 */
export function NotForYourRole({ what }: { what: string }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8" data-testid="not-for-your-role">
      <h1 className="text-2xl font-bold">{what} is for buyers and owners</h1>
      <p className="mt-3 text-slate-800">
        Your role in your company is <strong>Accounts</strong>: you see every order, invoice and the statement, and pay
        them. A buyer or an owner of your company places orders; ask one of them to order what you need.
      </p>
      <p className="mt-4 flex flex-wrap gap-4">
        <Link to="/dashboard/orders" className="inline-flex min-h-11 items-center font-medium text-brand-700 underline">
          Your company&apos;s orders
        </Link>
        <Link
          to="/dashboard/statement"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Statement of account
        </Link>
        <Link
          to="/dashboard/company"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Who can order
        </Link>
      </p>
    </div>
  );
}
