import { Link } from "@remix-run/react";

/** The page a mailed link lands on when it cannot be used: what went wrong, and the way back. */
export function MailedLinkProblem({ title, problem, testId }: { title: string; problem: string; testId: string }) {
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p
          role="alert"
          className="mt-4 rounded border border-red-700 bg-red-50 p-3 text-sm text-red-800"
          data-testid={testId}
        >
          {problem}
        </p>
        <p className="mt-4 text-sm">
          <Link to="/dashboard" className="font-medium text-brand-700 underline hover:text-brand-800">
            Go to My Profile
          </Link>
        </p>
      </div>
    </div>
  );
}
