import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputAttributes, ErrorList, Field, SelectField, SubmitButton } from "~/components/forms";
import { DataTable, type Column } from "~/components/ui/data-table";
import { formatRate, parseRate, RATE_CURRENCIES } from "~/domain/exchange-rates";
import { addRateSchema, exchangeRatesSchema, importRatesSchema } from "~/forms/exchange-rate-forms";
import { formatDate, formatDateTime, formatQuantity } from "~/format";
import { listRates } from "~/models/exchange-rate.server";
import { getEnv } from "~/services/env.server";
import { importEcbRates, recordRate } from "~/services/exchange-rates.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";
import { redirectWithSuccess } from "~/services/toast.server";

const PATH = "/dashboard/exchangeRates";
const PAGE_SIZE = 50;

/** Exchange Rates: the ECB's euro reference rates kept, newest first, 50 a page (`?page=2`). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = Math.min(Math.max(Number(new URL(request.url).searchParams.get("page")) || 1, 1), 1000);
  const { rates, more } = await listRates({ page: page - 1, limit: PAGE_SIZE });
  return data({ rates, page, more }, { headers: { "Cache-Control": "private, no-store" } });
}

type ActionData = { intent: "add" | "import"; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  let form: FormData;
  try {
    form = await readForm(request);
  } catch (thrown) {
    if (!(thrown instanceof Response) || thrown.status !== 413) throw thrown;
    const limit = `${formatQuantity(Math.floor(getEnv().BODY_LIMIT_BYTES / 1024))} KB`;
    const message = `The file is larger than ${limit}: import the ECB's 90-day file (eurofxref-hist-90d.xml) or the day's (eurofxref-daily.xml).`;
    return data<ActionData>(
      { intent: "import", result: { status: "error", error: { file: [message] } } },
      { status: 413 },
    );
  }
  const submission = parseForm(form, { schema: exchangeRatesSchema });
  const intent = form.get("intent") === "import" ? "import" : "add";
  if (submission.status !== "success") {
    return data<ActionData>({ intent, result: submission.reply({ hideFields: ["file"] }) }, { status: 400 });
  }
  const { value } = submission;
  const by = { actor: admin, context };
  if (value.intent === "add") {
    const row = { day: value.day, currency: value.currency, rateMicros: parseRate(value.rate) ?? 0 };
    const saved = await recordRate(row, by);
    if (saved.outcome === "refused") {
      return data<ActionData>(
        { intent, result: submission.reply({ fieldErrors: { rate: [saved.message] } }) },
        { status: 409 },
      );
    }
    const words = { recorded: "recorded", corrected: "corrected", unchanged: "was already recorded" }[saved.outcome];
    return redirectWithSuccess(PATH, `1 EUR = ${formatRate(row.rateMicros)} ${row.currency} on ${row.day} ${words}`);
  }
  const imported = await importEcbRates(value.file, new Date().toISOString().slice(0, 10), by);
  if (!imported.ok) {
    return data<ActionData>(
      { intent, result: submission.reply({ fieldErrors: { file: [imported.message] }, hideFields: ["file"] }) },
      { status: 422 },
    );
  }
  const { days, added, corrected, unchanged } = imported;
  return redirectWithSuccess(
    PATH,
    `ECB file imported: ${formatQuantity(days)} ${days === 1 ? "day" : "days"}, ${added} rates added, ${corrected} corrected, ${unchanged} already recorded`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [{ label: "Date" }, { label: "Currency" }, { label: "1 EUR =" }, { label: "Source" }];

export default function ExchangeRates() {
  const { rates, page, more } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-bold">Exchange Rates</h1>
      <p className="mt-1 text-slate-700">
        The European Central Bank&apos;s euro reference rates. An invoice that charges EU VAT states the VAT in euros at
        the newest USD rate on or before its date; without one, its PDF and e-invoice wait.
      </p>
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <ImportForm />
        <AddForm />
      </div>
      <h2 className="mt-8 text-lg font-semibold">Rates kept</h2>
      {rates.length === 0 ? (
        <p className="mt-2 rounded border border-dashed border-slate-300 p-4 text-slate-700">
          No rates yet: import the ECB&apos;s file, or add the day&apos;s rate by hand.
        </p>
      ) : (
        <DataTable caption="Exchange rates, newest first" columns={COLUMNS} testId="exchange-rates">
          {rates.map((rate) => (
            <tr key={`${rate.day}-${rate.currency}`}>
              <th scope="row" className="px-3 py-2 font-medium">
                {formatDate(rate.day)}
              </th>
              <td className="px-3 py-2" data-label="Currency">
                {rate.currency}
              </td>
              <td className="px-3 py-2 font-mono" data-label="1 EUR =">
                {formatRate(rate.rateMicros)} {rate.currency}
              </td>
              <td className="px-3 py-2 max-md:col-span-2 [overflow-wrap:anywhere]" data-label="Source">
                {rate.source === "ecb-file" ? "ECB file" : "By hand"}, {rate.recordedBy},{" "}
                {formatDateTime(rate.recordedAt)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages of rates" className="mt-4 flex gap-6">
        {page > 1 ? (
          <Link to={`${PATH}?page=${page - 1}`} className="inline-flex min-h-11 items-center text-brand-700 underline">
            Newer rates
          </Link>
        ) : null}
        {more ? (
          <Link to={`${PATH}?page=${page + 1}`} className="inline-flex min-h-11 items-center text-brand-700 underline">
            Older rates
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

function useLastResult(intent: ActionData["intent"]) {
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  return actionData?.intent === intent ? actionData.result : undefined;
}

function useBusy(intent: ActionData["intent"]) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function ImportForm() {
  const [form, fields] = useForm({
    id: "import-rates",
    lastResult: useLastResult("import"),
    constraint: getZodConstraint(importRatesSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: importRatesSchema }),
  });
  return (
    <section aria-labelledby="import-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="import-heading" className="text-lg font-semibold">
        Import the ECB&apos;s file
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The XML or CSV file as the ECB publishes it: the day&apos;s (eurofxref-daily.xml, eurofxref.csv) or the last 90
        days&apos; (eurofxref-hist-90d.xml). Rates already kept stay as they are.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="import" />
        <label htmlFor={fields.file.id} className="mb-1 block text-sm font-medium text-slate-800">
          ECB file
        </label>
        <input
          {...inputAttributes(fields.file, { type: "file" })}
          key={fields.file.key}
          accept=".xml,.csv,text/xml,application/xml,text/csv"
          className="block w-full text-sm file:mr-3 file:min-h-11 file:cursor-pointer file:rounded file:border file:border-solid file:border-slate-400 file:bg-white file:px-4 file:font-medium file:text-slate-900 hover:file:bg-slate-50"
        />
        <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pending={useBusy("import")} pendingText="Importing…">
          Import the rates
        </SubmitButton>
      </Form>
    </section>
  );
}

function AddForm() {
  const [form, fields] = useForm({
    id: "add-rate",
    lastResult: useLastResult("add"),
    constraint: getZodConstraint(addRateSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { currency: "USD" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addRateSchema }),
  });
  return (
    <section aria-labelledby="add-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="add-heading" className="text-lg font-semibold">
        Add a rate by hand
      </h2>
      <Form method="post" className="mt-3 grid gap-x-4 sm:grid-cols-2" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="add" />
        <Field meta={fields.day} label="Date" inputProps={{ type: "date" }} />
        <SelectField meta={fields.currency} label="Currency" alwaysChosen>
          {RATE_CURRENCIES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </SelectField>
        <Field
          className="sm:col-span-2"
          meta={fields.rate}
          label="1 EUR ="
          inputProps={{ inputMode: "decimal", placeholder: "1.0921", autoComplete: "off" }}
          help="How much of the currency one euro buys, as the ECB publishes it (at most 6 decimals)."
        />
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={useBusy("add")} pendingText="Saving…">
            Add the rate
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Exchange Rates — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
