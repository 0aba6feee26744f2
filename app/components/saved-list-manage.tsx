/** Changing a saved list: add a part by number, rename, share or stop sharing, delete. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { ConfirmDialog, ConfirmFetcherForm, confirmLinkClass } from "~/components/confirm-dialog";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { deleteListPath, listName, listQuantity } from "~/forms/saved-list-forms";

const addSchema = z.object({
  partNumber: z.string({ required_error: "Give a part number" }).trim().min(1, "Give a part number").max(40),
  quantity: listQuantity,
});
const renameSchema = z.object({ name: listName });

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function AddPartForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "add-to-list",
    lastResult,
    constraint: getZodConstraint(addSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addSchema }),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="grid gap-x-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,9rem)_auto]"
    >
      <input type="hidden" name="intent" value="add" />
      <Field
        meta={fields.partNumber}
        label="Part number"
        inputProps={{ autoComplete: "off", placeholder: "PW-1003" }}
      />
      <Field meta={fields.quantity} label="Quantity" type="number" inputProps={{ step: 1, inputMode: "numeric" }} />
      <div className="sm:pt-6">
        <SubmitButton variant="secondary" pending={usePending("add")} pendingText="Adding…">
          Add to the list
        </SubmitButton>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  );
}

export function RenameListForm({ name, lastResult }: { name: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "rename-list",
    lastResult,
    constraint: getZodConstraint(renameSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { name },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: renameSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-x-3 sm:grid-cols-[minmax(0,20rem)_auto]">
      <input type="hidden" name="intent" value="rename" />
      <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
      <div className="sm:pt-6">
        <SubmitButton variant="secondary" pending={usePending("rename")} pendingText="Renaming…">
          Rename
        </SubmitButton>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  );
}

export function ShareListForm({ shared, errors }: { shared: boolean; errors: string[] }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="share" />
      {shared ? null : <input type="hidden" name="shared" value="on" />}
      <p className="text-slate-700">
        {shared
          ? "Everyone in your company sees this list and may fill their cart from it."
          : "Only you see this list. Shared, everyone in your company sees it and may fill their cart from it."}
      </p>
      <SubmitButton variant="secondary" className="mt-2" pending={usePending("share")} pendingText="Saving…">
        {shared ? "Stop sharing" : "Share with my company"}
      </SubmitButton>
      <ErrorList errors={errors} />
    </Form>
  );
}

export function DeleteListButton({ id, name }: { id: string; name: string }) {
  return (
    <ConfirmDialog
      label="Delete the list"
      href={deleteListPath(id)}
      title={`Delete “${name}”?`}
      className={confirmLinkClass}
    >
      {(close) => (
        <ConfirmFetcherForm
          action={deleteListPath(id)}
          hidden={{ intent: "delete" }}
          message={<p>The list and its lines go for good; your cart and orders stay as they are.</p>}
          confirmLabel="Delete the list"
          pendingLabel="Deleting…"
          onKeep={close}
        />
      )}
    </ConfirmDialog>
  );
}
