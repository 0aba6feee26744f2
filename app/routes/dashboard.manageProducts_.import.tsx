import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as dataWithInit } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputAttributes, ErrorList, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { requireAdmin } from "~/services/guards.server";
import { parseForm } from "~/services/form.server";
import { readUploadForm } from "~/services/csv-upload.server";
import { formatCents, formatQuantity } from "~/format";
import { dryRunImport, type DryRun, type ImportConflict } from "~/services/stock-import.server";
import { applyStockChanges } from "~/orders/restock.server";
import { importSchema, importUploadSchema, MAX_IMPORT_LINES } from "~/forms/stock-import";
import { redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return dataWithInit({}, { headers: { "Cache-Control": "private, no-store" } });
}

type Conflict = ImportConflict;
type ActionData =
  | { kind: "form"; result: SubmissionResult<string[]> }
  | { kind: "preview"; result: SubmissionResult<string[]>; report: Omit<DryRun, "changes">; changes: string }
  | { kind: "applied"; result: SubmissionResult<string[]>; applied: number; conflicts: Conflict[]; filled: string[] };

/** Lines of the toast that say where stock went (the toast travels in a cookie: the rest are counted). */
const FILLED_IN_TOAST = 5;

/** A line whose stock went to backorders, in Manage Products' words: "Line 2, PW-1001: 300 received: …". */
const filledWords = (row: { line: number; partNumber: string; words: string }) =>
  `Line ${row.line}, ${row.partNumber}: ${row.words}`;

/**
 * Upload (intent=preview): a dry run that writes nothing. Apply (intent=apply): the dry run's valid
 * changes, checked again, each a conditional single-document update with its own audit entry.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const upload = await readUploadForm(request);
  if ("tooLarge" in upload) {
    return dataWithInit<ActionData>(
      { kind: "form", result: { status: "error", error: { file: [upload.tooLarge] } } },
      { status: 413 },
    );
  }
  const formData = upload.form;
  const submission = parseForm(formData, { schema: importSchema });
  if (submission.status !== "success") {
    return dataWithInit<ActionData>({ kind: "form", result: submission.reply() }, { status: 400 });
  }
  const { value } = submission;

  if (value.intent === "preview") {
    const dryRun = await dryRunImport(value.file);
    if (!dryRun.ok) {
      return dataWithInit<ActionData>(
        { kind: "form", result: submission.reply({ fieldErrors: { file: [dryRun.message] } }) },
        { status: dryRun.status },
      );
    }
    const { changes, ...report } = dryRun;
    return dataWithInit<ActionData>(
      { kind: "preview", result: submission.reply(), report, changes: JSON.stringify(changes) },
      { status: report.problems.length ? 422 : 200 },
    );
  }

  const { applied, conflicts, filled } = await applyStockChanges(value.changes, { actor: admin, context });
  if (conflicts.length === 0) {
    const shown = filled.slice(0, FILLED_IN_TOAST).map(filledWords);
    const more = filled.length - shown.length;
    if (more > 0) shown.push(`${formatQuantity(more)} more ${more === 1 ? "line" : "lines"} filled backorders`);
    return redirectWithSuccess(
      "/dashboard/manageProducts",
      [`Import applied: ${formatQuantity(applied)} ${applied === 1 ? "part" : "parts"} updated`, ...shown].join("; "),
    );
  }
  return dataWithInit<ActionData>(
    { kind: "applied", result: submission.reply(), applied, conflicts, filled: filled.map(filledWords) },
    { status: 409 },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const DRY_RUN_COLUMNS: Column[] = [
  { label: "Line" },
  { label: "Part" },
  { label: "Field" },
  { label: "Before → after" },
];

const FIELD_WORDS = { stock: "Stock", price: "Price", breaks: "Volume breaks", backorder: "Backorders" } as const;

const show = (field: keyof typeof FIELD_WORDS, value: number | string) =>
  typeof value === "string" ? value || "none" : field === "price" ? formatCents(value) : formatQuantity(value);

export default function ImportProducts() {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const [form, fields] = useForm({
    id: "stock-import",
    lastResult: actionData?.kind === "form" ? actionData.result : undefined,
    constraint: getZodConstraint(importUploadSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: importUploadSchema }),
  });

  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Import stock and prices</h1>
      <p className="mt-2 text-slate-700">
        A CSV file with a <strong>part number</strong> column and a <strong>stock</strong> and/or <strong>price</strong>{" "}
        column (whole dollars, such as 37), and if you like <strong>volume breaks</strong>,{" "}
        <strong>may be backordered</strong> (yes or no), <strong>restock date</strong> (such as 2027-01-12) and{" "}
        <strong>lead time (days)</strong>; saved as UTF-8, at most {formatQuantity(MAX_IMPORT_LINES)} lines. An empty
        cell leaves its field alone; <em>none</em> clears a restock date or a lead time. The{" "}
        <a href="/dashboard/manageProducts/export" download className="text-brand-700 underline">
          products CSV
        </a>{" "}
        works as it is: edit it and upload it here. Nothing changes until you apply the dry run.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="preview" />
        <label htmlFor={fields.file.id} className="mb-1 block text-sm font-medium text-slate-800">
          CSV file
        </label>
        <input
          {...inputAttributes(fields.file, { type: "file" })}
          key={fields.file.key}
          accept=".csv,text/csv,text/plain"
          className="block w-full max-w-md text-sm file:mr-3 file:min-h-11 file:cursor-pointer file:rounded file:border file:border-solid file:border-slate-400 file:bg-white file:px-4 file:font-medium file:text-slate-900 hover:file:bg-slate-50"
        />
        <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={busy("preview")} pendingText="Checking…">
          Check the file (dry run)
        </SubmitButton>
      </Form>
      {actionData?.kind === "preview" ? <Preview data={actionData} pending={busy("apply")} /> : null}
      {actionData?.kind === "applied" ? (
        <section className="mt-8" aria-labelledby="applied-heading" role="status">
          <h2 id="applied-heading" className="text-xl font-semibold">
            {formatQuantity(actionData.applied)} {actionData.applied === 1 ? "part" : "parts"} updated;{" "}
            {actionData.conflicts.length} not changed
          </h2>
          <ul className="mt-2 list-disc pl-6" data-testid="import-conflicts">
            {actionData.conflicts.map((conflict) => (
              <li key={conflict.partId}>
                Line {conflict.line}: {conflict.name} {conflict.reason}
              </li>
            ))}
          </ul>
          {actionData.filled.length ? (
            <ul className="mt-2 list-disc pl-6" data-testid="import-filled">
              {actionData.filled.map((words) => (
                <li key={words}>{words}</li>
              ))}
            </ul>
          ) : null}
          <p className="mt-2">Export the products again to see the values now, and upload the file again.</p>
        </section>
      ) : null}
      <p className="mt-8">
        <Link to="/dashboard/manageProducts" className="text-brand-700 underline">
          Back to Manage Products
        </Link>
      </p>
    </div>
  );
}

function Preview({ data, pending }: { data: Extract<ActionData, { kind: "preview" }>; pending: boolean }) {
  const { report } = data;
  const parts = new Set(report.rows.map((row) => row.partId)).size;
  return (
    <section className="mt-8" aria-labelledby="dry-run-heading">
      <h2 id="dry-run-heading" className="text-xl font-semibold">
        Dry run: nothing is written yet
      </h2>
      <p className="mt-1 text-slate-700" data-testid="dry-run-summary">
        {formatQuantity(report.lines)} lines read: {report.rows.length} changes to {parts}{" "}
        {parts === 1 ? "part" : "parts"}, {report.unchanged} unchanged, {report.problems.length} with problems.
      </p>
      {report.rows.length ? (
        <DataTable caption="Changes" columns={DRY_RUN_COLUMNS} className="mt-3" testId="dry-run-changes">
          {report.rows.map((row) => (
            <tr key={`${row.line}-${row.field}`}>
              <td className="px-3 py-2" data-label="Line">
                {row.line}
              </td>
              <th scope="row" className="px-3 py-2 font-medium max-md:order-first">
                <span className="font-mono">{row.partNumber}</span> {row.name}
              </th>
              <td className="px-3 py-2" data-label="Field">
                {FIELD_WORDS[row.field]}
              </td>
              <td className="px-3 py-2" data-label="Before → after">
                {show(row.field, row.before)} → {show(row.field, row.after)}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {report.problems.length ? (
        <>
          <h3 className="mt-4 font-semibold text-red-800">Lines not imported</h3>
          <ul className="mt-1 list-disc pl-6 text-red-800" data-testid="dry-run-problems">
            {report.problems.map((problem) => (
              <li key={problem.line}>
                Line {problem.line}: {problem.reasons.join("; ")}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.rows.length ? (
        <Form method="post" encType="multipart/form-data" className="mt-4">
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="changes" value={data.changes} />
          <SubmitButton pending={pending} pendingText="Applying…">
            Apply {report.rows.length} {report.rows.length === 1 ? "change" : "changes"}
          </SubmitButton>
        </Form>
      ) : (
        <p className="mt-4">There is nothing to apply.</p>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Import stock and prices — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
