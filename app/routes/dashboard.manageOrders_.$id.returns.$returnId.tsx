import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DecideReturnForms, OrderReturns, ReceiveReturnForm } from "~/components/order-returns";
import { getOrderById } from "~/orders/model/reads.server";
import { decideOnReturn, receiveReturnedParts } from "~/orders/returns.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";
import { returnDecisionSchema } from "~/forms/return-forms";
import { refuseMalformedList } from "~/forms/list-fields";
import { redirectWithSuccess } from "~/services/toast.server";
import { formatCents } from "~/format";

const NOT_FOUND = "There is no such return on that order.";

/** One return of an order, for staff: approve or decline it, then record what came back. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const order = await getOrderById(params.id ?? "");
  const entry = order?.returns.find((candidate) => candidate.id === params.returnId);
  if (!order || !entry) throw new Response(NOT_FOUND, { status: 404 });
  return data(
    { order: { id: order.id, number: order.number, userName: order.userName, companyName: order.companyName }, entry },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const order = await getOrderById(params.id ?? "");
  const entry = order?.returns.find((candidate) => candidate.id === params.returnId);
  if (!order || !entry) throw new Response(NOT_FOUND, { status: 404 });
  const formData = await readForm(request);
  refuseMalformedList(formData, "lines", ["quantity"]);
  const intent = String(formData.get("intent") ?? "approve");
  const submission = parseForm(formData, { schema: returnDecisionSchema(intent) });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const options = { actor: { id: admin.id, email: admin.email }, context };
  const value = submission.value;
  const outcome =
    value.intent === "receive"
      ? await receiveReturnedParts(order.id, entry.id, { lines: value.lines, condition: value.condition }, options)
      : await decideOnReturn(
          order.id,
          entry.id,
          value.intent === "approve" ? { approve: true } : { approve: false, reason: value.reason },
          options,
        );
  if (!outcome.ok) {
    const reply =
      outcome.lineIndex !== undefined
        ? submission.reply({ fieldErrors: { [`lines[${outcome.lineIndex}].quantity`]: [outcome.message] } })
        : submission.reply({ formErrors: [outcome.message] });
    return data({ intent, result: reply }, { status: outcome.status });
  }
  const done = outcome.entry;
  const message =
    done.status === "approved"
      ? `Return ${done.number} approved; the customer is emailed how to send the parts`
      : done.status === "declined"
        ? `Return declined; the customer is emailed why`
        : done.condition === "restock"
          ? `Return ${done.number} received: the parts are back in stock`
          : `Return ${done.number} received: the parts are scrapped`;
  const note = "creditNote" in outcome ? outcome.creditNote : null;
  return redirectWithSuccess(
    `/dashboard/manageOrders/${order.id}#${note ? "credit-notes" : "returns"}`,
    note ? `${message}; credit note ${note.number} of ${formatCents(note.totalCents)} is issued` : message,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AdminReturnPage() {
  const { order, entry } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <Link to={`/dashboard/manageOrders/${order.id}`} className="text-sm font-medium text-brand-700 underline">
        ← {order.number}
      </Link>
      <h1 className="mt-2 text-2xl font-bold">
        {entry.number ?? "Return request"} of {order.number}
      </h1>
      <p className="text-slate-700">
        {order.userName}
        {order.companyName ? `, ${order.companyName}` : ""}
      </p>
      <OrderReturns returns={[entry]} viewer="admin" orderId={order.id} linkToActions={false} />
      <div className="mt-6">
        {entry.status === "requested" ? <DecideReturnForms reply={reply} /> : null}
        {entry.status === "approved" ? <ReceiveReturnForm entry={entry} reply={reply} /> : null}
        {entry.status === "declined" || entry.status === "received" ? <p>This return is closed.</p> : null}
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.entry.number ?? "Return"} of ${data?.order.number ?? "an order"} — PartsWorks` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
