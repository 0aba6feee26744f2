import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, SelectField, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { LineQuantitiesFieldset } from "~/components/line-quantities-fieldset";
import { MAX_RETURN_NOTE, RETURN_REASON_WORDS, RETURN_REASONS } from "~/domain/returns";
import { getOwnOrder } from "~/orders/model/reads.server";
import { returnableUnits, returnWindowDays } from "~/orders/model/returns.server";
import { askForReturn } from "~/orders/returns.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireCustomerOrSignOutHome } from "~/services/guards.server";
import { requestReturnSchema } from "~/forms/return-forms";
import { refuseMalformedList } from "~/forms/list-fields";
import { redirectWithSuccess } from "~/services/toast.server";
import { formatQuantity } from "~/format";

const NOT_FOUND = "We could not find that order in your account.";

/**
 * Return parts of a shipped order: any member of the customer's company who sees the order (owner,
 * buyer, accounts) asks, with units per line, a reason and a note; the shop approves or declines.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  const returnable = returnableUnits(order);
  return data(
    {
      order: {
        id: order.id,
        number: order.number,
        lines: order.lines.map((line, index) => ({
          productName: line.productName,
          partNumber: line.partNumber,
          shippedQuantity: line.shippedQuantity,
          returnedQuantity: line.returnedQuantity,
          returnable: returnable[index],
        })),
      },
      windowDays: returnWindowDays(),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomerOrSignOutHome(request);
  const order = await getOwnOrder(params.id ?? "", user);
  if (!order) throw new Response(NOT_FOUND, { status: 404 });
  const formData = await readForm(request);
  refuseMalformedList(formData, "lines", ["quantity"]);
  const submission = parseForm(formData, { schema: requestReturnSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { value } = submission;
  const asked = await askForReturn(
    order.id,
    {
      lines: value.lines.map((line, lineIndex) => ({ lineIndex, quantity: line.quantity })),
      reason: value.reason,
      note: value.note ?? "",
      requestedBy: user.id,
      requestedByName: user.name,
    },
    { actor: { id: user.id, email: user.email }, context },
  );
  if (!asked.ok) {
    const reply =
      asked.lineIndex !== undefined
        ? submission.reply({ fieldErrors: { [`lines[${asked.lineIndex}].quantity`]: [asked.message] } })
        : submission.reply({ formErrors: [asked.message] });
    return data(reply, { status: asked.status });
  }
  return redirectWithSuccess(
    `/dashboard/orders/${order.id}#returns`,
    `Your return request for ${asked.order.number} is sent; we email you when the shop answers`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function ReturnRequestPage() {
  const { order, windowDays } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "return-form",
    lastResult,
    constraint: getZodConstraint(requestReturnSchema),
    defaultValue: { lines: order.lines.map(() => ({ quantity: "0" })) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: requestReturnSchema }),
  });
  const anything = order.lines.some((line) => line.returnable > 0);
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <Link to={`/dashboard/orders/${order.id}`} className="text-sm font-medium text-brand-700 underline">
        ← Order {order.number}
      </Link>
      <h1 className="mt-2 text-2xl font-bold">Return parts of {order.number}</h1>
      <p className="mt-2 text-slate-700">
        Parts can go back within {windowDays} days of leaving us. Tell us how many of each and why; we answer with a
        return number (RMA) and where to send them. Please send nothing before that.
      </p>
      {anything ? (
        <Form method="post" {...getFormProps(form)} className="mt-6 grid gap-2">
          <LineQuantitiesFieldset
            legend="Units to return"
            meta={fields.lines}
            lines={order.lines}
            max={(line) => line.returnable}
            detail={(line) => (
              <>
                {formatQuantity(line.shippedQuantity)} shipped
                {line.returnedQuantity ? `, ${formatQuantity(line.returnedQuantity)} already in a return` : ""}; up to{" "}
                {formatQuantity(line.returnable)} can go back
              </>
            )}
            testId="return-lines"
          />
          <SelectField meta={fields.reason} label="Why do they go back?">
            <option value="">Choose…</option>
            {RETURN_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {RETURN_REASON_WORDS[reason]}
              </option>
            ))}
          </SelectField>
          <TextareaField
            meta={fields.note}
            label="Note (optional)"
            textareaProps={{ maxLength: MAX_RETURN_NOTE }}
            help={{ id: "return-note-help", text: "What is wrong, or what you expected instead." }}
          />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div>
            <SubmitButton pending={pending} pendingText="Sending…">
              Ask to return
            </SubmitButton>
          </div>
        </Form>
      ) : (
        <p className="mt-6 rounded border border-slate-200 bg-slate-50 p-3" data-testid="nothing-to-return">
          Nothing on this order can be returned now: parts go back within {windowDays} days of shipping, once each.
        </p>
      )}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Return parts — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
