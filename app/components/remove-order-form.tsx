import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button, ErrorList, Field, SubmitButton } from "~/components/forms";
import { describeOrder } from "~/domain/order-lines";
import { CANCEL_REASON_LABEL, removeOrderSchema } from "~/forms/cancel-reason";

type RemoveTarget = {
  id: string;
  number: string;
  summary: string;
  lineCount: number;
  totalQuantity: number;
  userName: string;
};

export const removeOrderPath = (orderId: string) => `/dashboard/manageOrders/${orderId}/remove`;

/**
 * Staff remove an unpaid order: why (the customer reads it on the order page and in the mail), then
 * Remove. Shared by the Manage Orders modal and the confirmation page; the server checks the reason again.
 */
function RemoveOrderFields({
  order,
  action,
  lastResult,
  pending,
  FormComponent,
  keep,
}: {
  order: RemoveTarget;
  action: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  pending: boolean;
  FormComponent: typeof Form | ReturnType<typeof useFetcher>["Form"];
  keep: ReactNode;
}) {
  const [form, fields] = useForm({
    id: `remove-${order.id}`,
    lastResult,
    constraint: getZodConstraint(removeOrderSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: removeOrderSchema }),
  });
  return (
    <FormComponent method="post" action={action} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="orderId" value={order.id} />
      <p className="text-slate-800">
        {order.number}, {describeOrder(order)} for {order.userName}, will be removed and the units go back into stock.
      </p>
      <Field className="mt-4" meta={fields.reason} label={CANCEL_REASON_LABEL} inputProps={{ autoComplete: "off" }} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="mt-2 flex justify-end gap-3">
        {keep}
        <SubmitButton variant="danger" pending={pending} pendingText="Removing…">
          Remove
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

/** Inside the Manage Orders modal: a fetcher, so a missing reason keeps the modal open with its message. */
export function RemoveOrderDialogForm({
  order,
  action,
  onKeep,
}: {
  order: RemoveTarget;
  /** The list's action, with its filters (the list comes back as it was). */
  action: string;
  onKeep: () => void;
}) {
  const fetcher = useFetcher<{ result?: SubmissionResult<string[]> }>();
  return (
    <RemoveOrderFields
      order={order}
      action={action}
      lastResult={fetcher.data?.result}
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

/** On the confirmation page (no JavaScript needed): it posts to the page itself. */
export function RemoveOrderPageForm({
  order,
  lastResult,
  pending,
}: {
  order: RemoveTarget;
  lastResult: SubmissionResult<string[]> | null | undefined;
  pending: boolean;
}) {
  return (
    <RemoveOrderFields
      order={order}
      action={removeOrderPath(order.id)}
      lastResult={lastResult}
      pending={pending}
      FormComponent={Form}
      keep={
        <Link
          to="/dashboard/manageOrders"
          className="inline-flex items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Keep it
        </Link>
      }
    />
  );
}
