import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, SelectField, SubmitButton } from "~/components/forms";
import { Pagination } from "~/components/pagination";
import { DataTable, type Column } from "~/components/ui/data-table";
import { formatDay } from "~/domain/order-states";
import { QUOTE_STATUS_WORDS, QUOTE_STATUSES, staffQuotePath } from "~/domain/quotes";
import { STAFF_QUOTES_PATH } from "~/forms/quote-forms";
import { parsePage } from "~/forms/shop-forms";
import { formatDateTime, formatQuantity } from "~/format";
import { listQuotes, type QuoteView } from "~/orders/model/quotes.server";
import { parseForm } from "~/services/form.server";
import { requireAdmin } from "~/services/guards.server";

const FILTERS = ["waiting", ...QUOTE_STATUSES] as const;
const FILTER_WORDS: Record<(typeof FILTERS)[number], string> = {
  waiting: "Waiting for the shop (requested or revision asked)",
  ...Object.fromEntries(QUOTE_STATUSES.map((status) => [status, QUOTE_STATUS_WORDS[status].label])),
} as Record<(typeof FILTERS)[number], string>;

const quoteFilterSchema = z.object({
  status: z.enum(FILTERS, { errorMap: () => ({ message: "Choose a state from the list" }) }).optional(),
  customer: z
    .string({ invalid_type_error: "Customer must be text" })
    .trim()
    .max(100, "Customer must be 100 characters or fewer")
    .optional(),
});

/** Every quote for staff: waiting ones oldest first, the others last changed first; filters in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const submission = parseForm(params, { schema: quoteFilterSchema });
  const headers = { "Cache-Control": "private, no-store" };
  if (submission.status !== "success") {
    // A bad filter shows its message at the field and no quotes (nothing is guessed).
    return data(
      {
        result: submission.reply(),
        quotes: [] as QuoteView[],
        total: 0,
        page: 1,
        pages: 1,
        values: null,
        filtered: true,
      },
      { status: 400, headers },
    );
  }
  const { status, customer } = submission.value;
  const list = await listQuotes({ status, customer, page: parsePage(params.get("page")) });
  const values = { status: status ?? "", customer: customer ?? "" };
  return data({ result: submission.reply(), ...list, values, filtered: Boolean(status || customer) }, { headers });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "Quote" },
  { label: "Customer" },
  { label: "Lines" },
  { label: "State" },
  { label: "Latest version" },
  { label: "Order" },
];

export default function ManageQuotes() {
  const { quotes, total, page, pages, values, result, filtered } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    // Keyed by the filters listed, so the form always shows the filters of the quotes on the page.
    id: `quote-filters-${values ? new URLSearchParams(values).toString() : "invalid"}`,
    defaultValue: values ?? undefined,
    lastResult: navigation.state === "idle" && !values ? result : null,
    constraint: getZodConstraint(quoteFilterSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: quoteFilterSchema }),
  });
  const waiting = values?.status === "waiting";
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold">Quotes</h1>
      <Form method="get" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-3 sm:items-start">
        <SelectField meta={fields.status} label="State">
          <option value="">All quotes</option>
          {FILTERS.map((value) => (
            <option key={value} value={value}>
              {FILTER_WORDS[value]}
            </option>
          ))}
        </SelectField>
        <Field
          meta={fields.customer}
          label="Customer: email, name or company"
          inputProps={{ type: "search", autoComplete: "off" }}
        />
        <div className="flex items-center gap-3 sm:pt-6">
          <SubmitButton
            pending={navigation.state === "loading" && navigation.location?.pathname === STAFF_QUOTES_PATH}
            pendingText="Filtering…"
          >
            Filter
          </SubmitButton>
          {filtered ? (
            <Link
              to={STAFF_QUOTES_PATH}
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <p className="mt-1 text-sm text-slate-600" data-testid="quotes-total">
        {formatQuantity(total)} {total === 1 ? "quote" : "quotes"}
        {waiting ? " waiting for the shop, oldest first." : ", last changed first."}
      </p>
      {quotes.length === 0 ? (
        <p className="mt-2 text-slate-700">No quotes to show.</p>
      ) : (
        <DataTable caption="Quotes" className="mt-2" columns={COLUMNS}>
          {quotes.map((quote) => (
            <tr key={quote.id} data-testid="quote-row">
              <th scope="row" className="px-3 py-2 font-medium">
                <Link to={staffQuotePath(quote.id)} className="text-brand-700 underline">
                  {quote.label}
                </Link>
                <span className="block text-xs font-normal text-slate-600">
                  Asked {formatDateTime(quote.createdAt)}
                </span>
              </th>
              <td className="px-3 py-2 max-md:col-span-2" data-label="Customer">
                {quote.userName}
                {quote.companyName ? <span className="block text-xs text-slate-600">{quote.companyName}</span> : null}
                <span className="block break-all text-xs text-slate-600">{quote.userEmail}</span>
              </td>
              <td className="px-3 py-2 max-md:col-span-2" data-label="Lines">
                {quote.lines.map((line) => (
                  <span key={line.partId} className="block text-sm">
                    {formatQuantity(line.quantity)} × {line.partNumber}
                  </span>
                ))}
              </td>
              <td className="px-3 py-2" data-label="State">
                <span className="font-medium" data-testid="quote-state">
                  {QUOTE_STATUS_WORDS[quote.status].label}
                </span>
                {quote.waitingSince ? (
                  <span className="block text-xs text-slate-600">
                    Waiting since {formatDateTime(quote.waitingSince)}
                  </span>
                ) : null}
              </td>
              <td className="px-3 py-2" data-label="Latest version">
                {quote.current ? (
                  <>
                    {quote.current.label}
                    <span className="block text-xs text-slate-600">
                      Valid until {formatDay(quote.current.validUntilDay)}
                    </span>
                  </>
                ) : (
                  "None sent"
                )}
              </td>
              <td className="px-3 py-2" data-label="Order">
                {quote.orderId ? (
                  <Link to={`/dashboard/manageOrders/${quote.orderId}`} className="text-brand-700 underline">
                    {quote.orderNumber ?? "The order"}
                  </Link>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination page={page} pageCount={pages} label="Quotes pages" />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Quotes — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
