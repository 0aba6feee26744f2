/** The lists page's two ways to make a list: by name, or from a CSV file. */
import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { ErrorList, Field, inputAttributes, SubmitButton } from "~/components/forms";
import { createListSchema, MAX_LIST_LINES, uploadListSchema } from "~/forms/saved-list-forms";

export type ListFileProblemView = { line: number; message: string };

function SharedBox({ meta }: { meta: FieldMetadata<boolean | undefined> }) {
  const { key: _key, ...props } = inputAttributes(meta, { type: "checkbox" });
  return (
    <div className="flex min-h-11 items-center gap-2">
      <input {...props} className="h-5 w-5" />
      <label htmlFor={meta.id}>Share with my company</label>
    </div>
  );
}

function usePendingIntent(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function CreateListForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "create-list",
    lastResult,
    constraint: getZodConstraint(createListSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createListSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2">
      <input type="hidden" name="intent" value="create" />
      <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
      <SharedBox meta={fields.shared} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton pending={usePendingIntent("create")} pendingText="Creating…">
        Create the list
      </SubmitButton>
    </Form>
  );
}

export function UploadListForm({
  lastResult,
  problems,
}: {
  lastResult?: SubmissionResult<string[]>;
  problems?: ListFileProblemView[];
}) {
  const [form, fields] = useForm({
    id: "upload-list",
    lastResult,
    constraint: getZodConstraint(uploadListSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: uploadListSchema }),
  });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-2">
      <input type="hidden" name="intent" value="upload" />
      <p className="mb-2 text-sm text-slate-700">
        A CSV file with the header <code>part number,quantity</code> and a line per part (at most {MAX_LIST_LINES}). All
        or nothing: if a line has a problem, nothing is saved and the line is listed.
      </p>
      <Field meta={fields.name} label="Name" inputProps={{ autoComplete: "off" }} />
      <label htmlFor={fields.file.id} className="mb-1 block text-sm font-medium text-slate-800">
        CSV file
      </label>
      <input
        {...inputAttributes(fields.file, { type: "file" })}
        key={fields.file.key}
        accept=".csv,text/csv,text/plain"
        className="block w-full text-sm file:mr-3 file:min-h-11 file:cursor-pointer file:rounded file:border file:border-solid file:border-slate-400 file:bg-white file:px-4 file:font-medium file:text-slate-900 hover:file:bg-slate-50"
      />
      <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
      <SharedBox meta={fields.shared} />
      <ErrorList id={form.errorId} errors={form.errors} />
      {problems?.length ? (
        <ul className="mb-3 list-disc pl-6 text-sm text-red-800" data-testid="list-file-problems">
          {problems.map((problem) => (
            <li key={problem.line}>
              Line {problem.line}: {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
      <SubmitButton pending={usePendingIntent("upload")} pendingText="Uploading…">
        Upload the list
      </SubmitButton>
    </Form>
  );
}
