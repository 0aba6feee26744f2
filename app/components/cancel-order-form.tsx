import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useState, type ComponentProps, type ReactNode } from "react";
import { Button, ErrorList, Field, SubmitButton } from "~/components/forms";
import { useHydrated } from "~/hooks/hydrated";
import { describeOrder } from "~/domain/order-lines";
import { CANCEL_WORD, cancelOrderSchema } from "~/forms/shop-forms";

type CancelTarget = { id: string; summary: string; lineCount: number; totalQuantity: number; state?: string };

export function cancelOrderPath(orderId: string) {
  return `/dashboard/orders/${orderId}/cancel`;
}

/**
 * The cancel confirmation: the customer types "cancel" to enable the drop button (with
 * JavaScript); the server checks the word again. Shared by the modal and the confirmation page.
 */
function CancelOrderFields({
  order,
  lastResult,
  pending,
  FormComponent,
  keep,
}: {
  order: CancelTarget;
  lastResult: SubmissionResult<string[]> | null | undefined;
  pending: boolean;
  FormComponent: typeof Form | ReturnType<typeof useFetcher>["Form"];
  keep: ReactNode;
}) {
  const [form, fields] = useForm({
    id: `cancel-${order.id}`,
    lastResult,
    constraint: getZodConstraint(cancelOrderSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: cancelOrderSchema }),
  });
  const [typed, setTyped] = useState("");
  const hydrated = useHydrated();
  const formProps: ComponentProps<typeof Form> = {
    method: "post",
    action: cancelOrderPath(order.id),
    ...getFormProps(form),
  };
  return (
    <FormComponent {...formProps}>
      <p className="text-slate-800">
        {order.state === "approval" ? "Withdraw your order of" : "Drop your unpaid order of"} {describeOrder(order)}?
        The units go back into stock.
      </p>
      <Field
        className="mt-4"
        meta={fields.confirm}
        label={
          <>
            Type <strong>{CANCEL_WORD}</strong> to confirm
          </>
        }
        inputProps={{ autoComplete: "off", onChange: (event) => setTyped(event.currentTarget.value) }}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="mt-2 flex justify-end gap-3">
        {keep}
        <SubmitButton
          variant="danger"
          pending={pending}
          pendingText="Dropping…"
          disabled={hydrated && typed !== CANCEL_WORD}
        >
          Drop
        </SubmitButton>
      </div>
    </FormComponent>
  );
}

/** Inside the modal: a fetcher, so a wrong word keeps the modal open with the server's message. */
export function CancelOrderDialogForm({ order, onKeep }: { order: CancelTarget; onKeep: () => void }) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  return (
    <CancelOrderFields
      order={order}
      lastResult={fetcher.data}
      pending={fetcher.state !== "idle"}
      FormComponent={fetcher.Form}
      keep={
        <Button type="button" variant="secondary" onClick={onKeep}>
          Keep the order
        </Button>
      }
    />
  );
}

/** On the confirmation page (no JavaScript needed). */
export function CancelOrderPageForm({
  order,
  lastResult,
  pending,
}: {
  order: CancelTarget;
  lastResult: SubmissionResult<string[]> | null | undefined;
  pending: boolean;
}) {
  return (
    <CancelOrderFields
      order={order}
      lastResult={lastResult}
      pending={pending}
      FormComponent={Form}
      keep={
        <Link
          to="/dashboard/orders"
          className="inline-flex items-center rounded border border-brand-700 px-4 py-2 font-medium text-brand-700 hover:bg-brand-50"
        >
          Keep the order
        </Link>
      }
    />
  );
}
