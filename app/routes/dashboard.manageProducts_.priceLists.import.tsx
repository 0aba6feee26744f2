import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as dataWithInit } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, inputAttributes, SubmitButton } from "~/components/forms";
import { CURRENCIES } from "~/content/currencies";
import { CURRENCY_CODES, HOME_CURRENCY } from "~/domain/money";
import { formatQuantity } from "~/format";
import { priceListUploadSchema } from "~/forms/price-list-forms";
import { MAX_IMPORT_LINES } from "~/forms/stock-import";
import { parseForm } from "~/services/form.server";
import { readUploadForm } from "~/services/csv-upload.server";
import { requireAdmin } from "~/services/guards.server";
import {
  checkPriceListFile,
  importPriceLists,
  type PriceListConflict,
  type PriceListProblem,
} from "~/services/price-list-import.server";
import { redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return dataWithInit({}, { headers: { "Cache-Control": "private, no-store" } });
}

type ActionData =
  | { kind: "form"; result: SubmissionResult<string[]> }
  | { kind: "problems"; result: SubmissionResult<string[]>; lines: number; problems: PriceListProblem[] }
  | { kind: "unchanged"; result: SubmissionResult<string[]>; lines: number }
  | { kind: "conflict"; result: SubmissionResult<string[]>; conflict: PriceListConflict };

/**
 * One step, all or nothing: the file is checked whole; any bad line refuses it (422, every bad line
 * listed, nothing written); otherwise every change is written, or none if a part changed meanwhile.
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
  const submission = parseForm(formData, { schema: priceListUploadSchema });
  if (submission.status !== "success") {
    return dataWithInit<ActionData>({ kind: "form", result: submission.reply() }, { status: 400 });
  }
  const checked = await checkPriceListFile(submission.value.file);
  if (!checked.ok && "message" in checked) {
    return dataWithInit<ActionData>(
      { kind: "form", result: submission.reply({ fieldErrors: { file: [checked.message] } }) },
      { status: checked.status },
    );
  }
  if (!checked.ok) {
    return dataWithInit<ActionData>(
      { kind: "problems", result: submission.reply(), lines: checked.lines, problems: checked.problems },
      { status: 422 },
    );
  }
  if (checked.changes.length === 0) {
    return dataWithInit<ActionData>({ kind: "unchanged", result: submission.reply(), lines: checked.lines });
  }
  const imported = await importPriceLists(checked.changes, { actor: admin, context });
  if (!imported.ok) {
    return dataWithInit<ActionData>(
      { kind: "conflict", result: submission.reply(), conflict: imported.conflict },
      { status: 409 },
    );
  }
  const parts = imported.applied === 1 ? "part" : "parts";
  return redirectWithSuccess(
    "/dashboard/manageProducts",
    `Price lists imported: ${formatQuantity(imported.applied)} ${parts} changed, ${formatQuantity(checked.unchanged)} unchanged`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const OTHERS = CURRENCY_CODES.filter((code) => code !== HOME_CURRENCY);

export default function ImportPriceLists() {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "price-list-import",
    lastResult: actionData?.result,
    constraint: getZodConstraint(priceListUploadSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: priceListUploadSchema }),
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold">Import price lists</h1>
      <p className="mt-2 text-slate-700">
        A CSV file with the columns <code>part_number</code>, <code>currency</code> ({CURRENCY_CODES.join(", ")}),{" "}
        <code>price</code> (whole units of that currency, such as 37) and if you like <code>breaks</code> (volume breaks
        in that currency, such as <code>500:-5%;1000:30.00</code>; without the column a list keeps its breaks); one line
        per part and currency, saved as UTF-8, at most {formatQuantity(MAX_IMPORT_LINES)} lines. {HOME_CURRENCY} lines
        set the part&apos;s own price, which is never empty; an empty price for{" "}
        {OTHERS.map((code) => CURRENCIES[code].plural).join(" or ")} takes that list away (the part is no longer sold in
        it). The{" "}
        <a href="/dashboard/manageProducts/priceLists/export" download className="text-brand-700 underline">
          price lists CSV
        </a>{" "}
        works as it is: edit it and upload it here.
      </p>
      <p className="mt-2 text-slate-700">
        All or nothing: if any line has a problem, nothing is changed and every such line is listed.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-4" {...getFormProps(form)}>
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
        <SubmitButton pending={navigation.state === "submitting"} pendingText="Importing…">
          Import the price lists
        </SubmitButton>
      </Form>
      {actionData?.kind === "problems" ? (
        <section className="mt-8" aria-labelledby="problems-heading">
          <h2 id="problems-heading" className="text-xl font-semibold text-red-800">
            Nothing imported: {formatQuantity(actionData.problems.length)} of {formatQuantity(actionData.lines)} lines
            have problems
          </h2>
          <ul className="mt-2 list-disc pl-6 text-red-800" data-testid="price-list-problems">
            {actionData.problems.map((problem) => (
              <li key={problem.line}>
                Line {problem.line}: {problem.reasons.join("; ")}
              </li>
            ))}
          </ul>
          <p className="mt-2">Correct these lines and upload the file again.</p>
        </section>
      ) : null}
      {actionData?.kind === "unchanged" ? (
        <p className="mt-8" role="status">
          Every price list in the file ({formatQuantity(actionData.lines)} lines) is already as it says: nothing
          changed.
        </p>
      ) : null}
      {actionData?.kind === "conflict" ? (
        <p className="mt-8 text-red-800" role="alert">
          Nothing imported: {actionData.conflict.partNumber} (line {actionData.conflict.line}){" "}
          {actionData.conflict.reason === "missing" ? "no longer exists" : "changed while the file was imported"}.
          Export the price lists again and upload your changes once more.
        </p>
      ) : null}
      <p className="mt-8">
        <Link to="/dashboard/manageProducts" className="text-brand-700 underline">
          Back to Manage Products
        </Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Import price lists — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
