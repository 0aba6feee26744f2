import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { ConfirmDialog, ConfirmFetcherForm, confirmLinkClass, replyErrors } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { Pagination } from "~/components/pagination";
import { OtherCurrencyPrices } from "~/components/price-list-fields";
import { DataTable, type Column } from "~/components/ui/data-table";
import { getPart, listPartsForAdmin } from "~/models/part.server";
import { removePart } from "~/services/parts.server";
import { restockPart } from "~/orders/restock.server";
import { requireAdmin } from "~/services/guards.server";
import { formatCents, formatQuantity } from "~/format";
import { dollarsToCents, manageProductsSchema, parsePage, priceFieldValue, updatePartSchema } from "~/forms/shop-forms";
import { parseForm, readForm } from "~/services/form.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const result = await listPartsForAdmin({ page });
  return data(result, { headers: { "Cache-Control": "private, no-store" } });
}

/** Two forms post here: a row's price-and-stock edit (intent=update) and a delete confirmation. */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readForm(request);
  // The price as stored decides whether a price with cents is "unchanged" (never the form's word for it).
  const previous = formData.get("intent") === "update" ? await getPart(String(formData.get("partId") ?? "")) : null;
  if (previous) formData.set("currentPriceCents", String(previous.priceCents));
  const submission = parseForm(formData, { schema: manageProductsSchema });
  const posted = { partId: String(formData.get("partId") ?? ""), intent: String(formData.get("intent") ?? "") };
  if (submission.status !== "success") return data({ ...posted, result: submission.reply() }, { status: 400 });

  const { value } = submission;
  if (value.intent === "delete") {
    const deleted = await removePart(value.partId, { actor: admin, context });
    if (!deleted) {
      return data(
        { ...posted, result: submission.reply({ formErrors: ["That part no longer exists."] }) },
        { status: 404 },
      );
    }
    return redirectWithSuccess("/dashboard/manageProducts", `${deleted.name} is deleted`);
  }

  // Stock that arrives goes to the orders waiting on backorder first: the message says where it went.
  const updated = await restockPart(
    {
      partId: value.partId,
      priceCents: dollarsToCents(value.price),
      availableQuantity: value.stock,
      expectedStock: value.expectedStock,
    },
    previous,
    { actor: admin, context },
  );
  if (!updated.ok && updated.reason === "missing") {
    return data(
      { ...posted, result: submission.reply({ formErrors: ["That part no longer exists."] }) },
      { status: 404 },
    );
  }
  if (!updated.ok) {
    const now = updated.part?.availableQuantity ?? 0;
    const message = `Orders changed the stock to ${formatQuantity(now)} while you were editing: check it and save again`;
    return data({ ...posted, result: submission.reply({ fieldErrors: { stock: [message] } }) }, { status: 409 });
  }
  const { search } = new URL(request.url);
  return redirectWithSuccess(
    `/dashboard/manageProducts${search}`,
    `${updated.part.name}: price and stock saved${updated.restock ? `; ${updated.restock.words}` : ""}`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type Row = ReturnType<typeof useLoaderData<typeof loader>>["parts"][number];
type ActionData = { partId: string; intent: string; result: SubmissionResult<string[]> };

/** A part's stock in four labelled columns (part.server.ts, stockOf), each with what it means. */
const STOCK_COLUMNS = [
  { key: "onShelf", label: "On the shelf", testId: "on-shelf", means: "units in the warehouse, not shipped" },
  { key: "held", label: "Held", testId: "held", means: "of those, kept for orders" },
  { key: "available", label: "Available", testId: "available", means: "free to order (what Stock sets)" },
  { key: "backordered", label: "On backorder", testId: "backordered", means: "ordered units waiting for stock" },
] as const;

const COLUMNS: Column[] = [
  { label: "Image" },
  { label: "Name" },
  { label: "Prices", align: "right" },
  ...STOCK_COLUMNS.map(({ label }) => ({ label, align: "right" as const })),
  { label: "Minimum", align: "right" },
  { label: "Edit price and stock" },
  { label: "Delete" },
];

export default function ManageProducts() {
  const { parts, page, pageCount, total } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const rowIds = new Set(parts.map((part) => part.id));
  // A reply that belongs to no row on this page (a forged id, a deleted part) is shown on top.
  const orphanErrors = actionData && !rowIds.has(actionData.partId) ? replyErrors(actionData.result) : [];

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold">Manage Products</h1>
        <Link
          to="/dashboard/addProduct"
          className="inline-flex min-h-11 items-center rounded bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
        >
          Add Product
        </Link>
      </div>
      <p className="mt-1 text-sm text-slate-600">{formatQuantity(total)} parts, newest first.</p>
      <p className="mt-1 flex flex-wrap gap-4 text-sm">
        <a
          href="/dashboard/manageProducts/export"
          download
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Download CSV<span className="sr-only"> of all products</span>
        </a>
        <Link
          to="/dashboard/manageProducts/import"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Import stock and prices from CSV
        </Link>
        <a
          href="/dashboard/manageProducts/priceLists/export"
          download
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Download price lists CSV<span className="sr-only"> (every currency)</span>
        </a>
        <Link
          to="/dashboard/manageProducts/priceLists/import"
          className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
        >
          Import price lists from CSV
        </Link>
      </p>
      <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" data-testid="stock-words">
        {STOCK_COLUMNS.map(({ key, label, means }) => (
          <div key={key}>
            <dt className="inline font-medium text-slate-900">{label}:</dt> <dd className="inline">{means}</dd>
          </div>
        ))}
      </dl>
      <ErrorList errors={orphanErrors} />
      <DataTable caption="Parts, newest first" className="mt-2" columns={COLUMNS}>
        {parts.map((part) => (
          <ProductRow
            key={part.id}
            part={part}
            lastResult={
              actionData?.partId === part.id && actionData.intent === "update" ? actionData.result : undefined
            }
            deleteErrors={
              actionData?.partId === part.id && actionData.intent === "delete" ? replyErrors(actionData.result) : []
            }
          />
        ))}
      </DataTable>
      <Pagination page={page} pageCount={pageCount} label="Manage Products pages" />
    </div>
  );
}

function ProductRow({
  part,
  lastResult,
  deleteErrors,
}: {
  part: Row;
  lastResult: SubmissionResult<string[]> | undefined;
  deleteErrors: string[];
}) {
  const [form, fields] = useForm({
    id: `edit-${part.id}`,
    lastResult,
    constraint: getZodConstraint(updatePartSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { price: priceFieldValue(part.priceCents), stock: String(part.availableQuantity) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: updatePartSchema }),
  });
  const navigation = useNavigation();
  const isPending =
    navigation.state === "submitting" &&
    navigation.formData?.get("partId") === part.id &&
    navigation.formData?.get("intent") === "update";

  return (
    <tr data-testid={`part-row-${part.id}`}>
      <td className="px-3 py-2">
        <img
          src={part.img}
          alt=""
          width={56}
          height={42}
          className="h-10 w-14 rounded border border-slate-200 object-contain"
        />
      </td>
      <th scope="row" className="px-3 py-2 font-medium">
        {part.name}
        <span className="block text-xs font-normal text-slate-600">{part.partNumber}</span>
        <Link to={`/dashboard/manageProducts/${part.id}/edit`} className="text-sm font-normal text-brand-700 underline">
          Edit details<span className="sr-only"> of {part.name}</span>
        </Link>
      </th>
      <td className="px-3 py-2 text-right" data-label="Prices">
        <span data-testid="price">{formatCents(part.priceCents)}</span>
        <OtherCurrencyPrices lists={part.prices} />
      </td>
      {STOCK_COLUMNS.map(({ key, label, testId }) => (
        <td key={key} className="px-3 py-2 text-right" data-testid={testId} data-label={label}>
          {formatQuantity(part.stock[key])}
          {key === "backordered" && part.stock.waiting ? (
            <span className="block text-xs text-slate-600">
              {formatQuantity(part.stock.waiting)} {part.stock.waiting === 1 ? "order" : "orders"}
            </span>
          ) : null}
        </td>
      ))}
      <td className="px-3 py-2 text-right" data-label="Minimum">
        {formatQuantity(part.minOrderQuantity)}
      </td>
      <td className="px-3 py-2 max-md:col-span-2">
        <Form method="post" className="flex flex-wrap items-start gap-2" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="partId" value={part.id} />
          <input type="hidden" name="expectedStock" value={part.availableQuantity} />
          <input type="hidden" name="currentPriceCents" value={part.priceCents} />
          <Field
            className="w-28"
            meta={fields.price}
            label={
              <>
                Price ($)<span className="sr-only"> of {part.name}</span>
              </>
            }
            type="number"
            // A price stored with cents (before prices were whole dollars) can be sent back as it is.
            inputProps={{ step: part.priceCents % 100 === 0 ? 1 : 0.01 }}
          />
          <Field
            className="w-32"
            meta={fields.stock}
            label={
              <>
                Stock<span className="sr-only"> of {part.name}</span>
              </>
            }
            type="number"
            inputProps={{ step: 1 }}
          />
          <div className="pt-6">
            <SubmitButton pending={isPending} pendingText="Saving…" aria-label={`Save price and stock of ${part.name}`}>
              Save
            </SubmitButton>
          </div>
          <div className="basis-full">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
        </Form>
      </td>
      <td className="px-3 py-2">
        <ConfirmDialog
          label="Delete"
          accessibleLabel={`Delete ${part.name}`}
          href={`/dashboard/manageProducts/${part.id}/delete`}
          title={`Delete ${part.name}?`}
          className={confirmLinkClass}
        >
          {(close) => (
            <ConfirmFetcherForm
              action="/dashboard/manageProducts"
              hidden={{ intent: "delete", partId: part.id }}
              message={<DeleteMessage name={part.name} />}
              confirmLabel="Delete"
              pendingLabel="Deleting…"
              onKeep={close}
            />
          )}
        </ConfirmDialog>
        <ErrorList errors={deleteErrors} />
      </td>
    </tr>
  );
}

function DeleteMessage({ name }: { name: string }) {
  return <p>{name} will disappear from the shop. Orders already placed keep their copy of its name and price.</p>;
}

export const meta: MetaFunction = () => [{ title: "Manage Products — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
