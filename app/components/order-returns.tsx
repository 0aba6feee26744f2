import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import {
  DEFAULT_RETURN_CONDITION,
  RETURN_CONDITION_CHOICES,
  RETURN_CONDITION_WORDS,
  RETURN_CONDITIONS,
  RETURN_REASON_WORDS,
  RETURN_STATUS_WORDS,
  RETURNS_ADDRESS_LINES,
  rmaPath,
  type ReturnCondition,
  type ReturnReason,
  type ReturnStatus,
} from "~/domain/returns";
import { formatDay } from "~/domain/order-states";
import { declineReturnSchema, receiveReturnSchema } from "~/forms/return-forms";
import { ErrorList, Field, SelectField, SubmitButton } from "./forms";
import { formatQuantity } from "~/format";

export type ReturnEntry = {
  id: string;
  number: string | null;
  status: ReturnStatus;
  reason: ReturnReason;
  note: string;
  lines: {
    partNumber: string;
    productName: string;
    quantity: number;
    receivedQuantity: number | null;
    condition: ReturnCondition | null;
  }[];
  requestedAt: string;
  requestedByName: string;
  decidedAt: string | null;
  declineReason: string | null;
  receivedAt: string | null;
};

/** An order's returns as the customer and staff read them; staff get a link to act on each open one. */
export function OrderReturns({
  returns,
  viewer,
  orderId,
  mayAsk,
  linkToActions = true,
}: {
  returns: ReturnEntry[];
  viewer: "customer" | "admin";
  orderId: string;
  /** Whether a "Return parts" link is offered (the customer, with units left to return). */
  mayAsk?: boolean;
  /** Staff's link to act on an open return (not on that return's own page). */
  linkToActions?: boolean;
}) {
  if (!returns.length && !mayAsk) return null;
  return (
    <section id="returns" aria-labelledby="returns-heading" className="mt-8 scroll-mt-4">
      <h2 id="returns-heading" className="text-lg font-semibold">
        Returns
      </h2>
      {returns.length ? (
        <ul className="mt-2 grid gap-3" data-testid="returns">
          {returns.map((entry) => (
            <li key={entry.id} className="rounded border border-slate-200 p-3" data-testid="return">
              <p className="font-medium">
                {entry.number ?? "Return request"}:{" "}
                <span data-testid="return-status">{RETURN_STATUS_WORDS[entry.status]}</span>
              </p>
              <p className="text-sm text-slate-700">
                {RETURN_REASON_WORDS[entry.reason]}, asked on {formatDay(entry.requestedAt)} by {entry.requestedByName}
                {entry.note ? <span className="block [overflow-wrap:anywhere]">“{entry.note}”</span> : null}
              </p>
              <ul className="mt-1 text-sm">
                {entry.lines.map((line, index) => (
                  <li key={index}>
                    {formatQuantity(line.quantity)} × {line.productName}
                    {line.partNumber ? ` (${line.partNumber})` : ""}
                    {line.receivedQuantity !== null ? `: ${formatQuantity(line.receivedQuantity)} received` : ""}
                    {(line.receivedQuantity ?? 0) > 0 && line.condition ? (
                      <span data-testid="return-line-condition">
                        , {RETURN_CONDITION_WORDS[line.condition].toLowerCase()}
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
              {entry.status === "declined" && entry.declineReason ? (
                <p className="mt-1 text-sm">Declined: {entry.declineReason}</p>
              ) : null}
              {entry.status === "approved" && viewer === "customer" ? (
                <div className="mt-1 text-sm">
                  <p>Print the return label, stick it on the parcel and send the parts to:</p>
                  <address className="not-italic" data-testid="returns-address">
                    {RETURNS_ADDRESS_LINES.map((line) => (
                      <span key={line} className="block">
                        {line}
                      </span>
                    ))}
                  </address>
                </div>
              ) : null}
              {entry.number && (entry.status === "approved" || entry.status === "received") ? (
                <Link
                  to={rmaPath(orderId, entry.number)}
                  className="mt-1 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
                >
                  Return label and papers ({entry.number})
                </Link>
              ) : null}
              {entry.status === "received" && entry.receivedAt ? (
                <p className="mt-1 text-sm">Received on {formatDay(entry.receivedAt)}</p>
              ) : null}
              {viewer === "admin" && linkToActions && (entry.status === "requested" || entry.status === "approved") ? (
                <Link
                  to={`/dashboard/manageOrders/${orderId}/returns/${entry.id}`}
                  className="mt-2 inline-flex min-h-11 items-center font-medium text-brand-700 underline"
                >
                  {entry.status === "requested" ? "Approve or decline" : "Record what came back"}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {mayAsk ? (
        <Link
          to={`/dashboard/orders/${orderId}/return`}
          className="mt-3 inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Return parts
        </Link>
      ) : null}
    </section>
  );
}

type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined;

function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/** Staff's answer to a return asked for: approve it (an RMA number, mailed), or decline it with the reason. */
export function DecideReturnForms({ reply }: { reply: Reply }) {
  const [form, fields] = useForm({
    id: "decline-return",
    lastResult: reply?.intent === "decline" ? reply.result : null,
    constraint: getZodConstraint(declineReturnSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: declineReturnSchema }),
  });
  const approving = usePendingIntent("approve");
  const declining = usePendingIntent("decline");
  return (
    <div className="grid gap-6">
      <Form method="post">
        <input type="hidden" name="intent" value="approve" />
        <ErrorList errors={reply?.intent === "approve" ? (reply.result.error?.[""] ?? null) : null} />
        <SubmitButton pending={approving} pendingText="Approving…">
          Approve the return
        </SubmitButton>
      </Form>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="decline" />
        <Field meta={fields.reason} label="Why it is declined (the customer reads this)" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={declining} pendingText="Declining…" variant="danger">
          Decline the return
        </SubmitButton>
      </Form>
    </div>
  );
}

/**
 * What came back of an approved return: per line the units (at first all of them) and their
 * condition (at first the one the return's reason suggests: damaged parts, or the wrong part sent,
 * are inspected).
 */
export function ReceiveReturnForm({ entry, reply }: { entry: ReturnEntry; reply: Reply }) {
  const [form, fields] = useForm({
    id: "receive-return",
    lastResult: reply?.intent === "receive" ? reply.result : null,
    constraint: getZodConstraint(receiveReturnSchema),
    defaultValue: {
      lines: entry.lines.map((line) => ({
        quantity: String(line.quantity),
        condition: DEFAULT_RETURN_CONDITION[entry.reason],
      })),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: receiveReturnSchema }),
  });
  const pending = usePendingIntent("receive");
  const lineFields = fields.lines.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-2">
      <input type="hidden" name="intent" value="receive" />
      <fieldset>
        <legend className="mb-1 block text-sm font-medium text-slate-800">Units received and their condition</legend>
        <p className="mb-2 text-sm text-slate-700">
          Good units go back to stock (backorders get them first); units held for inspection or scrapped are not put on
          sale.
        </p>
        <ul className="divide-y divide-slate-200 rounded border border-slate-200">
          {entry.lines.map((line, index) => {
            const row = lineFields[index]?.getFieldset();
            if (!row) return null;
            const name = line.partNumber || line.productName;
            return (
              <li key={index} className="grid gap-2 p-3 sm:grid-cols-[13rem_1fr] sm:items-start">
                <p className="text-sm sm:col-span-2">
                  {line.productName} ({line.partNumber}): {formatQuantity(line.quantity)} approved
                </p>
                <Field
                  meta={row.quantity}
                  label={`Units of ${name} received`}
                  type="number"
                  inputProps={{ min: 0, max: line.quantity, step: 1, inputMode: "numeric" }}
                />
                <SelectField meta={row.condition} label={`Condition of ${name}`} alwaysChosen>
                  {RETURN_CONDITIONS.map((condition) => (
                    <option key={condition} value={condition}>
                      {RETURN_CONDITION_CHOICES[condition]}
                    </option>
                  ))}
                </SelectField>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <ErrorList id={form.errorId} errors={form.errors} />
      <div>
        <SubmitButton pending={pending} pendingText="Recording…">
          Record the return received
        </SubmitButton>
      </div>
    </Form>
  );
}
