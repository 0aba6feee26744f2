import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";
import { ConfirmDialog, confirmLinkClass } from "~/components/confirm-dialog";
import { Button, ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { approveSchema, declineSchema } from "~/forms/company-forms";
import { formatDateTime } from "~/format";
import { useMoney } from "./money";

type Reply = SubmissionResult<string[]> | null | undefined;
/** The order an owner decides on, as the forms name it. */
export type Deciding = { id: string; number: string; placedBy: string };

export function declineOrderPath(orderId: string) {
  return `/dashboard/orders/${orderId}/decline`;
}

/**
 * An owner's decision on an order awaiting approval: Approve (with an optional note) posts to the
 * page it is on; Decline opens its confirmation, which asks for the reason (a page without JavaScript).
 * The two sit at either end of one row, so a thumb on a phone does not hit one for the other.
 */
export function ApprovalDecision({ order, lastResult }: { order: Deciding; lastResult?: Reply }) {
  // On a page of several orders the reply is this form's only when it names this order.
  const reply = (lastResult?.initialValue as { order?: unknown } | undefined)?.order === order.id ? lastResult : null;
  const [form, fields] = useForm({
    id: `approve-${order.id}`,
    lastResult: reply,
    constraint: getZodConstraint(approveSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: approveSchema }),
  });
  const isPending = useIsPending();
  return (
    <div className="mt-2" data-testid="approval-decision">
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="order" value={order.id} />
        <Field meta={fields.note} label={`Note for ${order.placedBy} (optional)`} inputProps={{ maxLength: 300 }} />
      </Form>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SubmitButton form={form.id} pending={isPending} pendingText="Approving…">
          Approve<span className="sr-only"> {order.number}</span>
        </SubmitButton>
        <ConfirmDialog
          label="Decline…"
          accessibleLabel={`Decline ${order.number}`}
          href={declineOrderPath(order.id)}
          title={`Decline ${order.number}?`}
          className={confirmLinkClass}
        >
          {(close) => <DeclineDialogForm order={order} onKeep={close} />}
        </ConfirmDialog>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
    </div>
  );
}

/** The decline confirmation: what happens, and the reason the buyer is sent. Shared by the modal and the page. */
function DeclineFields({
  order,
  lastResult,
  pending,
  FormComponent,
  keep,
}: {
  order: Deciding;
  lastResult: Reply;
  pending: boolean;
  FormComponent: typeof Form | ReturnType<typeof useFetcher>["Form"];
  keep: ReactNode;
}) {
  const [form, fields] = useForm({
    id: `decline-${order.id}`,
    lastResult,
    constraint: getZodConstraint(declineSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: declineSchema }),
  });
  const formProps: ComponentProps<typeof Form> = {
    method: "post",
    action: declineOrderPath(order.id),
    ...getFormProps(form),
  };
  return (
    <FormComponent {...formProps}>
      <p className="text-slate-800">
        Declining cancels {order.number} from {order.placedBy} and puts its stock back on sale. {order.placedBy} is sent
        your reason by email.
      </p>
      <Field
        className="mt-4"
        meta={fields.reason}
        label={`Reason for ${order.placedBy}`}
        inputProps={{ maxLength: 300, autoComplete: "off" }}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="mt-2 flex flex-wrap justify-end gap-3">
        {keep}
        <SubmitButton variant="danger" pending={pending} pendingText="Declining…">
          Decline {order.number}
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

/** Inside the modal: a fetcher, so a missing reason keeps the modal open with the message. */
function DeclineDialogForm({ order, onKeep }: { order: Deciding; onKeep: () => void }) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  return (
    <DeclineFields
      order={order}
      lastResult={fetcher.data}
      pending={fetcher.state !== "idle"}
      FormComponent={fetcher.Form}
      keep={
        <Button type="button" variant="secondary" onClick={onKeep}>
          Keep it
        </Button>
      }
    />
  );
}

/** On the confirmation page (no JavaScript needed). */
export function DeclinePageForm({
  order,
  lastResult,
  pending,
}: {
  order: Deciding;
  lastResult: Reply;
  pending: boolean;
}) {
  return (
    <DeclineFields
      order={order}
      lastResult={lastResult}
      pending={pending}
      FormComponent={Form}
      keep={
        <Link
          to={`/dashboard/orders/${order.id}`}
          className="inline-flex min-h-11 items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Keep it
        </Link>
      }
    />
  );
}

type Approval = {
  limitCents: number | null;
  outcome: "approved" | "declined" | null;
  decidedByName: string | null;
  decidedAt: string | null;
  note: string | null;
  approvers: string | null;
  mayWithdraw: boolean;
};

/**
 * Why an order waited for approval and who decides, or who decided and when; the buyer's way to
 * withdraw it, and an owner's Approve and Decline.
 */
export function ApprovalNotice({
  approval,
  order,
  totalCents,
  withdrawPath,
  lastResult,
}: {
  approval: Approval | null;
  order: Deciding & { mayDecide: boolean };
  totalCents: number;
  withdrawPath: string;
  lastResult?: Reply;
}) {
  const money = useMoney();
  if (!approval) return null;
  // Said to the buyer who placed it as theirs; to a colleague as the buyer's.
  const whose = approval.mayWithdraw ? "your" : `${order.placedBy}'s`;
  const over = `Its total of ${money(totalCents)} is over ${whose} limit of ${money(approval.limitCents ?? 0)} per order`;
  if (approval.outcome) {
    const by = `${approval.decidedByName ?? "an owner"}${approval.decidedAt ? ` on ${formatDateTime(approval.decidedAt)}` : ""}`;
    return (
      <p className="mt-3 rounded border border-slate-200 bg-slate-50 p-3 text-slate-800" data-testid="approval-reason">
        {over}. {approval.outcome === "approved" ? `Approved by ${by}` : `Declined by ${by}`}
        {approval.note ? `${approval.outcome === "approved" ? ":" : ", reason:"} “${approval.note}”` : ""}.
      </p>
    );
  }
  if (!approval.approvers) return null;
  return (
    <div
      className="mt-3 rounded border-l-4 border-amber-600 bg-amber-50 p-3 text-amber-900"
      data-testid="approval-reason"
    >
      <p>
        {over}, so it needs approval by <strong>{approval.approvers}</strong>. Nothing is due until it is approved.
      </p>
      {approval.mayWithdraw ? (
        <Link
          to={withdrawPath}
          className="mt-1 inline-flex min-h-11 items-center font-medium text-brand-700 underline hover:text-brand-800"
        >
          Withdraw the order
        </Link>
      ) : null}
      {order.mayDecide ? <ApprovalDecision order={order} lastResult={lastResult} /> : null}
    </div>
  );
}
