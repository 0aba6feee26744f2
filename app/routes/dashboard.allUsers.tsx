import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { ErrorList } from "~/components/forms";
import {
  ConfirmDialog,
  ConfirmFetcherForm,
  confirmGrantLinkClass,
  confirmLinkClass,
} from "~/components/confirm-dialog";
import { userConfirmCopy, type UserConfirmIntent } from "~/components/user-confirm-copy";
import { Pagination } from "~/components/pagination";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DataTable, type Column } from "~/components/ui/data-table";
import { getCompany } from "~/models/company.server";
import { getUserById, listUsers } from "~/models/user.server";
import { owedOfAccounts } from "~/orders/model/ledger-reads.server";
import { OwedBothWays } from "~/components/account-owed";
import { COMPANY_ROLE_WORDS } from "~/domain/company-roles";
import { userActionSchema } from "~/forms/account-schemas";
import { getUser, requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { grantAdmin, revokeAdmin, signOutEverywhere } from "~/services/users.server";

const PER_PAGE = 20;
/** Spec 8: what the page shows when the server refuses a promotion (403). */
const MAKE_ADMIN_FAILED = "Failed to Make an admin";
export const LAST_ADMIN = "The shop needs at least one admin: make someone else an admin first.";

function pageFrom(request: Request) {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, page);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const page = pageFrom(request);
  // ?company=<id>: the members of one company (linked from its page and from each row).
  const companyId = new URL(request.url).searchParams.get("company") ?? undefined;
  const company = companyId ? await getCompany(companyId) : null;
  const { users, total } = await listUsers({ page, perPage: PER_PAGE, companyId: company?.id });
  // What each customer's account (their company's) owes and is owed, from the ledger: one read for the page.
  const owed = await owedOfAccounts(users.filter((user) => user.role === "customer").map((user) => user.companyId));
  return {
    adminId: admin.id,
    company: company ? { id: company.id, name: company.company.companyName || "Unnamed company" } : null,
    users: users.map(({ id, name, email, role, emailVerified, companyId, companyRole, company, pricing }) => ({
      id,
      name,
      email,
      role,
      emailVerified,
      companyId,
      companyRole,
      companyName: company.companyName,
      owed: role === "customer" ? (owed.get(companyId) ?? []) : null,
      // The company's currency: an account with nothing on its ledger reads nothing owed in it.
      currency: pricing.currency,
    })),
    page,
    pageCount: Math.max(1, Math.ceil(total / PER_PAGE)),
    total,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Spec 6: the server answers 403 when someone without rights tries to make a user admin.
  const user = await getUser(request);
  if (!user || user.role !== "admin") throw new Response(MAKE_ADMIN_FAILED, { status: 403 });

  const submission = parseForm(await readForm(request), { schema: userActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { userId, intent } = submission.value;
  const page = pageFrom(request);
  const back = `/dashboard/allUsers${page > 1 ? `?page=${page}` : ""}`;
  const target = await getUserById(userId);
  const refuse = (message: string, status: number) => data(submission.reply({ formErrors: [message] }), { status });

  if (intent === "demote") {
    const outcome = await revokeAdmin(userId, target, { actor: user, context });
    if (outcome === "last-admin") return refuse(LAST_ADMIN, 409);
    if (outcome === "not-admin" || !target) return refuse("That user does not exist or is not an admin.", 409);
    // Demoting oneself ends one's admin screens: back to My Profile.
    if (userId === user.id) return redirectWithSuccess("/dashboard", "You are no longer an admin.");
    return redirectWithSuccess(back, `${target.name} is no longer an admin.`);
  }

  if (intent === "sign-out") {
    if (!target) return refuse("That user does not exist.", 404);
    // A key is a way in as good as a session: it ends with them.
    const { keys } = await signOutEverywhere(userId, target, { actor: user, context });
    const revoked = keys ? ` ${keys === 1 ? "1 API key" : `${keys} API keys`} revoked.` : "";
    if (userId === user.id) return redirectWithSuccess("/login", `You have been signed out everywhere.${revoked}`);
    return redirectWithSuccess(back, `${target.name} has been signed out everywhere.${revoked}`);
  }

  if (userId === user.id) return refuse("You cannot change your own role.", 400);
  if (!(await grantAdmin(userId, target, { actor: user, context }))) {
    return refuse(`${MAKE_ADMIN_FAILED}: that user does not exist or is already an admin.`, 409);
  }
  return redirectWithSuccess(back, "Successfully made an admin");
}

const COLUMNS: Column[] = [
  { label: "#" },
  { label: "Name" },
  { label: "Email" },
  { label: "Role" },
  { label: "On account" },
  { label: "Action" },
];

export default function AllUsers() {
  const { users, adminId, page, pageCount, total, company } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const formErrors = lastResult && "error" in lastResult ? lastResult.error?.[""] : null;

  return (
    <section aria-labelledby="all-users-heading">
      <h1 id="all-users-heading" className="text-2xl font-bold text-slate-900">
        All Users
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        {total} {total === 1 ? "user" : "users"}, newest first
        {company ? (
          <>
            , members of{" "}
            <Link to={`/dashboard/companies/${company.id}`} className="font-medium text-brand-700 underline">
              {company.name}
            </Link>{" "}
            (
            <Link to="/dashboard/allUsers" className="text-brand-700 underline">
              show everyone
            </Link>
            )
          </>
        ) : null}
        .
      </p>
      <ErrorList errors={formErrors} />
      <DataTable caption="Users, newest first" className="mt-2" columns={COLUMNS}>
        {users.map((user, index) => (
          <tr key={user.id} data-testid="user-row" data-email={user.email}>
            <td className="px-4 py-3 text-slate-600" data-label="#">
              {(page - 1) * PER_PAGE + index + 1}
            </td>
            <td className="px-4 py-3 text-slate-900" data-label="Name">
              {/* A target of its own line: 44 px tall on a phone, at least 24 px on a desktop (WCAG 2.5.8). */}
              <Link
                to={`/dashboard/allUsers/${user.id}`}
                className="inline-flex min-h-11 items-center font-medium text-brand-700 underline md:min-h-6"
              >
                {user.name}
              </Link>
              {user.role === "customer" && user.companyId ? (
                <span className="block text-xs text-slate-600" data-testid="user-company">
                  <Link to={`/dashboard/companies/${user.companyId}`} className="underline">
                    {user.companyName || "Company of one"}
                  </Link>
                  , {COMPANY_ROLE_WORDS[user.companyRole].toLowerCase()}
                </span>
              ) : null}
            </td>
            <td className="break-all px-4 py-3 text-slate-900 max-md:col-span-2" data-label="Email">
              {user.email}
              <span className="block text-xs text-slate-600" data-testid="email-verified">
                {user.emailVerified ? "verified" : "not verified"}
              </span>
            </td>
            <td className="px-4 py-3 text-slate-900" data-label="Role">
              {user.role === "admin" ? "Admin" : "Customer"}
              {user.id === adminId ? <span className="text-slate-600"> (you)</span> : null}
            </td>
            <td className="px-4 py-3 text-slate-900 max-md:col-span-2" data-label="On account">
              {user.owed ? (
                <OwedBothWays owed={user.owed} currency={user.currency} testId="user-owed" />
              ) : (
                <span className="text-slate-600">None (admin)</span>
              )}
            </td>
            <td className="px-4 py-3 max-md:col-span-2">
              <div className="flex flex-wrap gap-2">
                {/* Make Admin is hidden for users who are already admins (spec 4). */}
                {user.role !== "admin" ? (
                  <UserConfirm user={user} intent="make-admin" page={page} isSelf={user.id === adminId} />
                ) : (
                  <UserConfirm user={user} intent="demote" page={page} isSelf={user.id === adminId} />
                )}
                <UserConfirm user={user} intent="sign-out" page={page} isSelf={user.id === adminId} />
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pagination page={page} pageCount={pageCount} label="Pages of users" />
    </section>
  );
}

/** Make Admin, Remove admin and Sign out everywhere: a modal with JavaScript, a confirmation page without. */
function UserConfirm({
  user,
  intent,
  page,
  isSelf,
}: {
  user: { id: string; name: string; email: string };
  intent: UserConfirmIntent;
  page: number;
  isSelf: boolean;
}) {
  const copy = userConfirmCopy(intent, user, isSelf);
  return (
    <ConfirmDialog
      label={copy.label}
      accessibleLabel={`${copy.label} (${user.name})`}
      href={`/dashboard/allUsers/${user.id}/${intent}${page > 1 ? `?page=${page}` : ""}`}
      title={copy.title}
      className={intent === "make-admin" ? confirmGrantLinkClass : confirmLinkClass}
    >
      {(close) => (
        <ConfirmFetcherForm
          action={`/dashboard/allUsers${page > 1 ? `?page=${page}` : ""}`}
          hidden={{ intent, userId: user.id }}
          message={<p className="break-words">{copy.message}</p>}
          confirmLabel={copy.label}
          pendingLabel={copy.pending}
          tone={copy.tone}
          onKeep={close}
        />
      )}
    </ConfirmDialog>
  );
}

export const meta: MetaFunction = () => [{ title: "All Users — PartsWorks" }];

/** A refused promotion (403) shows "Failed to Make an admin" inside the dashboard. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
