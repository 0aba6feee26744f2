import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirectWithSuccess } from "~/utils/toast.server";
import { ErrorList, SubmitButton } from "~/components/forms";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listUsers, makeAdmin } from "~/models/user.server";
import { MakeAdminSchema } from "~/utils/account-schemas";
import { getUser, requireAdmin } from "~/utils/auth.server";
import { readForm } from "~/utils/form.server";
import { audit } from "~/utils/audit.server";

const PER_PAGE = 20;
/** Spec 8: what the page shows when the server refuses a promotion (403). */
const MAKE_ADMIN_FAILED = "Failed to Make an admin";

function pageFrom(request: Request) {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, page);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const page = pageFrom(request);
  const { users, total } = await listUsers({ page, perPage: PER_PAGE });
  return json({
    adminId: admin.id,
    users: users.map(({ id, name, email, role, emailVerified }) => ({ id, name, email, role, emailVerified })),
    page,
    pageCount: Math.max(1, Math.ceil(total / PER_PAGE)),
    total,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Spec 6: the server answers 403 when someone without rights tries to make a user admin.
  const user = await getUser(request);
  if (!user || user.role !== "admin") throw new Response(MAKE_ADMIN_FAILED, { status: 403 });

  const submission = parseWithZod(await readForm(request), { schema: MakeAdminSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { userId } = submission.value;
  if (userId === user.id) {
    return json(submission.reply({ formErrors: ["You cannot change your own role."] }), { status: 400 });
  }
  if (!(await makeAdmin(userId))) {
    return json(
      submission.reply({ formErrors: [`${MAKE_ADMIN_FAILED}: that user does not exist or is already an admin.`] }),
      {
        status: 409,
      },
    );
  }
  await audit({
    context,
    actor: user,
    action: "user.make-admin",
    target: { type: "user", id: userId },
    before: { role: "customer" },
    after: { role: "admin" },
  });
  const page = pageFrom(request);
  return redirectWithSuccess(`/dashboard/allUsers${page > 1 ? `?page=${page}` : ""}`, "Successfully made an admin");
}

const COLUMNS: Column[] = [
  { label: "#" },
  { label: "Name" },
  { label: "Email" },
  { label: "Role" },
  { label: "Action" },
];

export default function AllUsers() {
  const { users, adminId, page, pageCount, total } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pendingUserId = navigation.state !== "idle" ? navigation.formData?.get("userId") : null;
  const formErrors = lastResult && "error" in lastResult ? lastResult.error?.[""] : null;

  return (
    <section aria-labelledby="all-users-heading">
      <h1 id="all-users-heading" className="text-2xl font-bold text-slate-900">
        All Users
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        {total} {total === 1 ? "user" : "users"}, newest first.
      </p>
      <ErrorList errors={formErrors} />
      <DataTable caption="Users, newest first" className="mt-2" columns={COLUMNS}>
        {users.map((user, index) => (
          <tr key={user.id} data-testid="user-row" data-email={user.email}>
            <td className="px-4 py-3 text-slate-600" data-label="#">
              {(page - 1) * PER_PAGE + index + 1}
            </td>
            <td className="px-4 py-3 text-slate-900" data-label="Name">
              {user.name}
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
            <td className="px-4 py-3">
              {/* Make Admin is hidden for users who are already admins (spec 4). */}
              {user.role !== "admin" ? (
                <Form method="post">
                  <input type="hidden" name="userId" value={user.id} />
                  <SubmitButton
                    pending={pendingUserId === user.id}
                    pendingText="Making admin…"
                    className="px-3 py-1 text-sm"
                  >
                    Make Admin<span className="sr-only"> ({user.name})</span>
                  </SubmitButton>
                </Form>
              ) : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {pageCount > 1 ? (
        <nav aria-label="Pages of users" className="mt-4 flex items-center gap-4 text-sm">
          {page > 1 ? (
            <Link to={`?page=${page - 1}`} className="inline-flex min-h-11 items-center text-brand-700 underline">
              Previous page
            </Link>
          ) : null}
          <span className="text-slate-700">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={`?page=${page + 1}`} className="inline-flex min-h-11 items-center text-brand-700 underline">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "All Users | PartsWorks" }];

/** A refused promotion (403) shows "Failed to Make an admin" inside the dashboard. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
