import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useIsPending } from "~/components/forms";
import { DeclinePageForm } from "~/components/order-approval";
import { getOwnOrder } from "~/orders/model/reads.server";
import { declineCompanyOrder } from "~/orders/approvals.server";
import { requireCustomerOrSignOutHome } from "~/services/guards.server";
import { can } from "~/services/companies.server";
import { formatCents } from "~/format";
import { declineSchema } from "~/forms/company-forms";
import { parseForm, readForm } from "~/services/form.server";
import { redirectWithSuccess } from "~/services/toast.server";
import type { UserView } from "~/models/user.server";

const NOT_FOUND = "We could not find that order in your account.";
const OWNERS_ONLY = "Only an owner of the company can decline orders.";

/** The order of the owner's company, or a 404 (another company's) or 403 (not an owner). */
async function ownersOrder(user: UserView, id: string) {
  const order = await getOwnOrder(id, user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  if (!can(user, "manage")) throw new Response(OWNERS_ONLY, { status: 403 });
  return order;
}

/** The decline confirmation as a page: what the modal shows, for browsers without JavaScript. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await ownersOrder(user, params.id ?? "");
  return data(
    {
      order: {
        id: order.id,
        number: order.number,
        summary: order.summary,
        currency: order.currency,
        totalCents: order.totalCents,
        placedBy: order.userName,
        waiting: order.status === "approval",
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await ownersOrder(user, params.id ?? "");
  const submission = parseForm(await readForm(request), { schema: declineSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const declined = await declineCompanyOrder(user, order.id, submission.value.reason, { context });
  if (!declined.ok) return data(submission.reply({ formErrors: [declined.message] }), { status: declined.status });
  return redirectWithSuccess(`/dashboard/orders/${order.id}`, `${declined.order.number} declined`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function DeclineOrderPage() {
  const { order } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const isPending = useIsPending();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Decline {order.number}?</h1>
      <p className="mt-2 text-slate-700">
        {order.summary}, {formatCents(order.totalCents, { currency: order.currency })}, placed by {order.placedBy}
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {order.waiting ? (
          <DeclinePageForm order={order} lastResult={lastResult} pending={isPending} />
        ) : (
          <>
            <p>That order is not waiting for approval.</p>
            <Link
              to={`/dashboard/orders/${order.id}`}
              className="mt-4 inline-flex min-h-11 items-center font-medium text-brand-700 underline"
            >
              Back to {order.number}
            </Link>
          </>
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Decline order — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
