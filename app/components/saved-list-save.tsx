/** "Save to a list": the part page, the cart and an order put their lines on a saved list. */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { useFetcher } from "@remix-run/react";
import { ErrorList, Field, inputAttributes, SelectField, SubmitButton } from "~/components/forms";
import {
  LISTS_PATH,
  NEW_LIST,
  saveToListSchema,
  type ListChoice,
  type SaveToListSource,
} from "~/forms/saved-list-forms";

const SUMMARIES: Record<SaveToListSource["intent"], string> = {
  "save-part": "Save to a list",
  "save-cart": "Save cart as a list",
  "save-order": "Save as a list",
};

/**
 * A small form in a disclosure: choose one of the customer's lists or name a new one (shared with
 * the company if ticked). It posts to the lists page, which goes back to `redirectTo` with a toast;
 * a refusal shows by the field, here with JavaScript, on the lists page without.
 */
type Props = {
  source: SaveToListSource;
  lists: ListChoice[];
  redirectTo: string;
  lastResult?: SubmissionResult<string[]>;
};

export function SaveToListForm(props: Props) {
  // A list made by the form starts it afresh, with the new list among the choices.
  return <SaveToListBody key={props.lists.length} {...props} />;
}

function SaveToListBody({ source, lists, redirectTo, lastResult }: Props) {
  const fetcher = useFetcher<{ result: SubmissionResult<string[]> }>();
  const [form, fields] = useForm({
    id: `${source.intent}-form`,
    lastResult: fetcher.data?.result ?? lastResult,
    constraint: getZodConstraint(saveToListSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      listId: lists[0]?.id ?? NEW_LIST,
      ...(source.intent === "save-part" ? { quantity: String(source.minimum) } : {}),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: saveToListSchema }),
  });
  const failed = Boolean(lastResult?.error && Object.keys(lastResult.error).length);
  const { key: _sharedKey, ...sharedProps } = inputAttributes(fields.shared, { type: "checkbox" });
  return (
    <details className="mt-4 rounded border border-slate-200 bg-white p-3" open={failed || undefined}>
      <summary className="flex min-h-11 cursor-pointer items-center font-medium text-brand-700">
        {SUMMARIES[source.intent]}
      </summary>
      <fetcher.Form
        method="post"
        action={LISTS_PATH}
        className="mt-2 grid gap-x-3 sm:grid-cols-2"
        {...getFormProps(form)}
      >
        <input type="hidden" name="intent" value={source.intent} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {source.intent === "save-part" ? <input type="hidden" name="partId" value={source.partId} /> : null}
        {source.intent === "save-order" ? <input type="hidden" name="orderId" value={source.orderId} /> : null}
        <SelectField meta={fields.listId} label="List" alwaysChosen>
          {lists.map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
          <option value={NEW_LIST}>A new list…</option>
        </SelectField>
        <Field
          meta={fields.name}
          label="Or start a list called"
          help="Only when you chose a new list."
          inputProps={{ autoComplete: "off" }}
        />
        {source.intent === "save-part" ? (
          <Field
            meta={fields.quantity}
            label="Units for the list"
            type="number"
            inputProps={{ step: 1, inputMode: "numeric" }}
          />
        ) : null}
        <div className="flex min-h-11 items-center gap-2 sm:col-span-2">
          <input {...sharedProps} className="h-5 w-5" />
          <label htmlFor={fields.shared.id}>Share a new list with my company</label>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="sm:col-span-2">
          <SubmitButton variant="secondary" pending={fetcher.state !== "idle"} pendingText="Saving…">
            Save to the list
          </SubmitButton>
        </div>
      </fetcher.Form>
    </details>
  );
}
