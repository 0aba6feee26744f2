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
import { lineNotInReturn, RETURN_CONDITION_WORDS, RETURN_CONDITIONS, type ReturnCondition } from "~/domain/returns";

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
  refuseMalformedList(formData, "lines", ["quantity", "condition"]);
  const intent = String(formData.get("intent") ?? "approve");
  const submission = parseForm(formData, { schema: returnDecisionSchema(intent) });
  // A row beyond the return's lines has no field on the page to show its error: say so above the form.
  const beyond = rowsBeyond(formData, entry.lines.length);
  if (intent === "receive" && beyond)
    return data({ intent, result: submission.reply({ formErrors: [beyond] }) }, { status: 422 });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const options = { actor: { id: admin.id, email: admin.email }, context };
  const value = submission.value;
  const outcome =
    value.intent === "receive"
      ? await receiveReturnedParts(order.id, entry.id, { lines: value.lines }, options)
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
        : `Return ${done.number} received: ${receivedWords(done)}`;
  const note = "creditNote" in outcome ? outcome.creditNote : null;
  return redirectWithSuccess(
    `/dashboard/manageOrders/${order.id}#${note ? "credit-notes" : "returns"}`,
    note
      ? `${message}; credit note ${note.number} of ${formatCents(note.totalCents, { currency: order.currency })} is issued`
      : message,
  );
}

/** The highest row a receipt posts beyond the return's `count` lines, as the refusal says it; else null. */
function rowsBeyond(formData: FormData, count: number) {
  const rows = [...formData.keys()].map((name) => Number(/^lines\[(\d+)\]/.exec(name)?.[1] ?? -1));
  const last = Math.max(-1, ...rows);
  if (last < count) return null;
  return lineNotInReturn(count, last + 1);
}

/** What became of the units, for the toast: "the parts are back in stock", or per condition when they differ. */
function receivedWords(entry: { condition: ReturnCondition | null; lines: { condition: ReturnCondition | null }[] }) {
  if (entry.condition === "restock") return "the parts are back in stock";
  if (entry.condition === "scrap") return "the parts are scrapped";
  if (entry.condition === "inspect") return "the parts are held for inspection, not on sale";
  const each = RETURN_CONDITIONS.filter((condition) => entry.lines.some((line) => line.condition === condition));
  return `each line as recorded (${each.map((condition) => RETURN_CONDITION_WORDS[condition].toLowerCase()).join(", ")})`;
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
