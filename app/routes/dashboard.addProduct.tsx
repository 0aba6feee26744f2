import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton, useIsPending } from "~/components/forms";
import { PartCatalogueFields, PartDescriptionFields, PartPriceFields } from "~/components/part-catalogue-fields";
import { PriceListFields } from "~/components/price-list-fields";
import { requireAdmin } from "~/services/guards.server";
import { createPart } from "~/services/parts.server";
import { DEFAULT_BRAND } from "~/domain/catalogue";
import { newPartSchema } from "~/forms/catalogue-forms";
import { parseForm, readForm } from "~/services/form.server";
import { DEFAULT_MIN_ORDER, dollarsToCents } from "~/forms/shop-forms";
import { logFailure } from "~/services/log.server";

const FAILED_TO_ADD = "Failed to add the part";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return data(null, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await readForm(request), { schema: newPartSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const {
    name,
    description,
    img,
    quantity,
    price,
    minOrderQuantity,
    partNumber,
    category,
    brand,
    oeNumbers,
    fitment,
    volumeBreaks,
    prices,
  } = submission.value;
  try {
    const result = await createPart(
      {
        name,
        description,
        img,
        availableQuantity: quantity,
        priceCents: dollarsToCents(price),
        minOrderQuantity,
        partNumber,
        category,
        brand,
        oeNumbers,
        fitment,
        volumeBreaks,
        prices,
      },
      { actor: admin, context },
    );
    if (!result.ok) {
      return data(
        submission.reply({
          formErrors: [FAILED_TO_ADD],
          fieldErrors: { partNumber: ["That part number is already in use"] },
        }),
        { status: 409 },
      );
    }
  } catch (error) {
    logFailure("Adding a part failed", error);
    return data(submission.reply({ formErrors: [FAILED_TO_ADD] }), { status: 500 });
  }
  return redirectWithSuccess("/dashboard/manageProducts", "Part added successfully");
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AddProduct() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "add-product",
    lastResult,
    constraint: getZodConstraint(newPartSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { minOrderQuantity: String(DEFAULT_MIN_ORDER), brand: DEFAULT_BRAND },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newPartSchema }),
  });
  const isPending = useIsPending();
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold">Add Product</h1>
      <Form method="post" className="mt-6 grid gap-x-4 sm:grid-cols-2" {...getFormProps(form)}>
        <PartDescriptionFields fields={fields} />
        <Field meta={fields.quantity} label="Quantity in stock" type="number" inputProps={{ step: 1 }} />
        <PartPriceFields fields={fields} />
        <Field
          meta={fields.partNumber}
          label="Part number (optional)"
          help="Leave empty to get one such as PW-7K3QXM."
        />
        <PartCatalogueFields fields={fields} otherPrices={<PriceListFields fields={fields.prices} />} />
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <SubmitButton pending={isPending} pendingText="Adding…">
            Add Product
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Add Product — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
