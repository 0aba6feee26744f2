import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as dataWithInit } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { PartCatalogueFields, PartDescriptionFields, PartPriceFields } from "~/components/part-catalogue-fields";
import { PriceListFields } from "~/components/price-list-fields";
import { formatQuantity } from "~/format";
import { getPartForEdit, partNumberTaken } from "~/models/part-catalogue.server";
import { editPart } from "~/services/parts.server";
import { requireAdmin } from "~/services/guards.server";
import { catalogueFormDefaults, editPartSchema } from "~/forms/catalogue-forms";
import { parseForm, readForm } from "~/services/form.server";
import { dollarsToCents, priceFieldValue } from "~/forms/shop-forms";
import { OTHER_CURRENCIES, priceListDefaults } from "~/forms/price-list-forms";
import { redirectWithSuccess } from "~/services/toast.server";
import { QuoteFloorFields } from "~/components/quote-floor-fields";
import { HOME_CURRENCY } from "~/domain/money";
import { quoteFloorDefaults, quoteFloorsOf } from "~/forms/quote-floor-forms";

const MISSING = "That part no longer exists.";
const TAKEN = "That part number is already in use";

/** Edit Product: every field of a part but its stock (set on Manage Products, guarded against orders). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const part = await getPartForEdit(params.id ?? "");
  if (!part) throw new Response(MISSING, { status: 404 });
  return dataWithInit({ part }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const id = params.id ?? "";
  const formData = await readForm(request);
  // The price as stored decides whether a price with cents is "unchanged" (never the form's word for it).
  const stored = await getPartForEdit(id);
  if (!stored) throw new Response(MISSING, { status: 404 });
  formData.set("currentPriceCents", String(stored.priceCents));
  for (const currency of OTHER_CURRENCIES) {
    const list = stored.prices.find((each) => each.currency === currency);
    if (list) formData.set(`prices.${currency}.currentPriceCents`, String(list.priceCents));
    else formData.delete(`prices.${currency}.currentPriceCents`);
  }
  const submission = await parseForm(formData, {
    async: true,
    schema: editPartSchema.superRefine(async ({ partNumber }, ctx) => {
      if (await partNumberTaken(partNumber, id)) ctx.addIssue({ path: ["partNumber"], code: "custom", message: TAKEN });
    }),
  });
  if (submission.status !== "success") return dataWithInit(submission.reply(), { status: 400 });
  const {
    name,
    description,
    img,
    price,
    minOrderQuantity,
    partNumber,
    category,
    brand,
    oeNumbers,
    fitment,
    lowStockThreshold,
    volumeBreaks,
    prices,
    backorderable,
    restockOn,
    leadTimeDays,
    quoteFloors,
  } = submission.value;
  const result = await editPart(
    id,
    {
      name,
      description,
      img,
      priceCents: dollarsToCents(price),
      minOrderQuantity,
      partNumber,
      category,
      brand,
      oeNumbers,
      fitment,
      lowStockThreshold: lowStockThreshold ?? null,
      volumeBreaks,
      prices,
      backorderable: Boolean(backorderable),
      restockOn: restockOn ?? null,
      leadTimeDays: leadTimeDays ?? null,
      quoteFloors: quoteFloorsOf(quoteFloors),
    },
    { actor: admin, context },
  );
  if (!result.ok && result.reason === "missing") throw new Response(MISSING, { status: 404 });
  if (!result.ok) return dataWithInit(submission.reply({ fieldErrors: { partNumber: [TAKEN] } }), { status: 409 });
  return redirectWithSuccess("/dashboard/manageProducts", `${name} is saved`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function EditProduct() {
  const { part } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `edit-product-${part.id}`,
    lastResult,
    constraint: getZodConstraint(editPartSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      name: part.name,
      description: part.description,
      img: part.img,
      price: priceFieldValue(part.priceCents),
      minOrderQuantity: String(part.minOrderQuantity),
      partNumber: part.partNumber,
      category: part.category,
      brand: part.brand,
      lowStockThreshold: part.lowStockThreshold === null ? "" : String(part.lowStockThreshold),
      backorderable: part.backorderable ? "on" : undefined,
      restockOn: part.restockOn ?? "",
      leadTimeDays: part.leadTimeDays === null ? "" : String(part.leadTimeDays),
      ...catalogueFormDefaults(part),
      prices: priceListDefaults(part.prices),
      quoteFloors: quoteFloorDefaults(part.quoteFloors),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editPartSchema }),
  });
  const isPending = useIsPending();
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <p>
        <Link to="/dashboard/manageProducts" className="text-sm text-brand-700 underline">
          Back to Manage Products
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">Edit Product</h1>
      <p className="mt-1 text-lg text-slate-800" data-testid="edited-part">
        {part.name}
        {part.partNumber ? <span className="text-slate-600"> ({part.partNumber})</span> : null}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Stock ({formatQuantity(part.availableQuantity)} units) is set on Manage Products.
      </p>
      <Form method="post" className="mt-6 grid gap-x-4 sm:grid-cols-2" {...getFormProps(form)}>
        <PartDescriptionFields fields={fields} />
        <input type="hidden" name="currentPriceCents" value={part.priceCents} />
        <PartPriceFields fields={fields} storedCents={part.priceCents} />
        <Field meta={fields.partNumber} label="Part number" />
        <Field
          meta={fields.lowStockThreshold}
          label="Low-stock threshold"
          type="number"
          inputProps={{ step: 1, min: 0 }}
          help="Shop Today lists the part when its stock falls below this. Empty: below its minimum order."
        />
        <fieldset className="rounded border border-slate-200 p-3 sm:col-span-2" data-testid="backorder-fields">
          <legend className="px-1 text-sm font-medium text-slate-800">Backorders</legend>
          <label className="flex min-h-11 items-center gap-2">
            <input
              {...getInputProps(fields.backorderable, { type: "checkbox" })}
              key={fields.backorderable.key}
              className="h-5 w-5"
            />
            <span>Take orders beyond the stock: the rest waits on backorder</span>
          </label>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <Field
              meta={fields.restockOn}
              label="Next stock expected on"
              inputProps={{ type: "date" }}
              help="Customers see this date for units on backorder."
            />
            <Field
              meta={fields.leadTimeDays}
              label="Or a lead time (days)"
              type="number"
              inputProps={{ step: 1, min: 1, max: 365 }}
              help="Used when no date is set."
            />
          </div>
        </fieldset>
        <PartCatalogueFields
          fields={fields}
          otherPrices={<PriceListFields fields={fields.prices} stored={part.prices} />}
        />
        <QuoteFloorFields
          meta={fields.quoteFloors}
          currencies={[HOME_CURRENCY, ...part.prices.map((list) => list.currency)]}
        />
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Saving…">
            Save Product
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Edit Product: ${data.part.name} — PartsWorks` : "Edit Product — PartsWorks" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
