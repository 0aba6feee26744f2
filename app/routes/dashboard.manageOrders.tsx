import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { redirectWithSuccess } from "~/utils/toast.server";
import { ConfirmDialog, ConfirmFetcherForm, confirmLinkClass, replyErrors } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Button, ErrorList, Field, SubmitButton } from "~/components/forms";
import { OrderLinesDetails, PoNumber } from "~/components/order-lines";
import { describeOrder } from "~/utils/order-lines";
import { Pagination } from "~/components/pagination";
import { DataTable, type Column } from "~/components/ui/data-table";
import { getOrderById, listAllOrders, markShipped, removeOrder } from "~/models/order.server";
import { requireAdmin } from "~/utils/auth.server";
import { formatCents } from "~/utils/misc";
import { readForm } from "~/utils/form.server";
import { audit, orderStatusChange } from "~/utils/audit.server";
import { orderFilterSchema, toOrderFilter } from "~/utils/order-filters";
import {
  formatDateTime,
  manageOrdersSchema,
  ORDER_STATUS_FILTERS,
  ORDER_STATUS_LABELS,
  parsePage,
} from "~/utils/shop-forms";

/** Newest first, 20 a page; search (order number or email), status and dates, all in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const submission = parseWithZod(params, { schema: orderFilterSchema });
  const headers = { "Cache-Control": "private, no-store" };
  if (submission.status !== "success") {
    // A bad filter shows its message next to the field and no orders (nothing is guessed).
    return json(
      { result: submission.reply(), orders: [], page: 1, pageCount: 1, total: 0, status: null, filtered: true },
      { status: 400, headers },
    );
  }
  const filter = toOrderFilter(submission.value);
  const result = await listAllOrders({ ...filter, page: parsePage(params.get("page")) });
  const { q, from, to } = submission.value;
  const filtered = Boolean(q || filter.status || from || to);
  return json({ result: submission.reply(), ...result, status: filter.status, filtered }, { headers });
}

/** Two forms post here: Shipped on a paid order, and the Remove confirmation of an unpaid one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: manageOrdersSchema });
  const posted = { orderId: String(formData.get("orderId") ?? ""), intent: String(formData.get("intent") ?? "") };
  if (submission.status !== "success") return json({ ...posted, result: submission.reply() }, { status: 400 });

  const { intent, orderId } = submission.value;
  const changed = intent === "ship" ? await markShipped(orderId) : await removeOrder(orderId);
  if (!changed) {
    const order = await getOrderById(orderId);
    const message = !order
      ? "That order does not exist."
      : intent === "ship"
        ? `Only paid orders waiting to ship can be marked shipped; this one is ${ORDER_STATUS_LABELS[order.status]}.`
        : `Only unpaid orders can be removed; this one is ${ORDER_STATUS_LABELS[order.status]}.`;
    return json({ ...posted, result: submission.reply({ formErrors: [message] }) }, { status: order ? 409 : 404 });
  }
  await audit({ context, actor: admin, ...orderStatusChange(intent, changed) });
  const { search } = new URL(request.url);
  const message =
    intent === "ship"
      ? `The order of ${changed.summary} for ${changed.userName} is shipped`
      : `The order of ${changed.summary} for ${changed.userName} is removed and its stock is back`;
  return redirectWithSuccess(`/dashboard/manageOrders${search}`, message);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type ActionData = { orderId: string; intent: string; result: SubmissionResult<string[]> };

const FILTER_LABELS: Record<string, string> = {
  unpaid: "Unpaid",
  paid: "Pending (paid)",
  shipped: "Shipped",
  cancelled: "Cancelled by the customer",
  removed: "Removed",
};

const COLUMNS: Column[] = [
  { label: "Product" },
  { label: "Customer" },
  { label: "Quantity", align: "right" },
  { label: "Price", align: "right" },
  { label: "Status" },
  { label: "Action" },
];

export default function ManageOrders() {
  const { orders, page, pageCount, total, status, filtered, result } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "order-filters",
    lastResult: navigation.state === "idle" ? result : null,
    constraint: getZodConstraint(orderFilterSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: orderFilterSchema }),
  });
  const rowIds = new Set(orders.map((order) => order.id));
  const exportSearch = useExportSearch();
  const orphanErrors = actionData && !rowIds.has(actionData.orderId) ? replyErrors(actionData.result) : [];

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold">Manage Orders</h1>
      <Form
        method="get"
        {...getFormProps(form)}
        className="mt-4 grid gap-x-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-start"
      >
        <Field
          meta={fields.q}
          label="Order number or email"
          inputProps={{ type: "search", placeholder: "name@… or the order number" }}
        />
        <div>
          <label htmlFor={fields.status.id} className="mb-1 block text-sm font-medium text-slate-800">
            Status
          </label>
          <select
            {...getSelectProps(fields.status)}
            key={fields.status.key}
            className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2"
          >
            <option value="">All orders</option>
            {ORDER_STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {FILTER_LABELS[value]}
              </option>
            ))}
          </select>
          <ErrorList id={fields.status.errorId} errors={fields.status.errors} />
        </div>
        <Field meta={fields.from} label="Placed from (UTC day)" inputProps={{ type: "date" }} />
        <Field meta={fields.to} label="Placed to (UTC day, included)" inputProps={{ type: "date" }} />
        <div className="flex items-center gap-3 pt-6">
          <SubmitButton
            pending={navigation.state === "loading" && navigation.location?.pathname === "/dashboard/manageOrders"}
            pendingText="Filtering…"
          >
            Filter
          </SubmitButton>
          {filtered ? (
            <Link to="/dashboard/manageOrders" className="text-sm font-medium text-brand-700 underline">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <p className="mt-3">
        <a
          href={`/dashboard/manageOrders/export${exportSearch}`}
          download
          className="text-sm font-medium text-brand-700 underline"
        >
          Download CSV<span className="sr-only"> of these orders</span>
        </a>
      </p>
      <p className="mt-1 text-sm text-slate-600" data-testid="orders-total">
        {total.toLocaleString("en-US")} {total === 1 ? "order" : "orders"}
        {status ? ` with status ${FILTER_LABELS[status]}` : ""}, newest first.
      </p>
      <ErrorList errors={orphanErrors} />
      {orders.length === 0 ? (
        <p className="mt-2 text-slate-700">No orders to show.</p>
      ) : (
        <DataTable caption="Orders, newest first" className="mt-2" columns={COLUMNS}>
          {orders.map((order) => {
            const rowErrors = actionData?.orderId === order.id ? replyErrors(actionData.result) : [];
            const shipping =
              navigation.state === "submitting" &&
              navigation.formData?.get("orderId") === order.id &&
              navigation.formData?.get("intent") === "ship";
            return (
              <tr key={order.id} data-testid={`order-${order.id}`}>
                <th scope="row" className="px-3 py-2 font-medium">
                  <Link to={`/dashboard/manageOrders/${order.id}`} className="text-brand-700 underline">
                    {order.summary}
                  </Link>
                  <span className="block text-xs font-normal text-slate-600">
                    Placed {formatDateTime(order.createdAt)}
                  </span>
                  <PoNumber poNumber={order.poNumber} />
                  <OrderLinesDetails lines={order.lines} />
                </th>
                <td className="px-3 py-2 max-md:col-span-2" data-label="Customer">
                  {order.userName}
                  <span className="block break-all text-xs text-slate-600">{order.userEmail}</span>
                  <span className="block text-xs text-slate-600">{order.phone}</span>
                </td>
                <td className="px-3 py-2 text-right" data-label="Quantity">
                  {order.totalQuantity.toLocaleString("en-US")}
                </td>
                <td className="px-3 py-2 text-right" data-label="Price">
                  {formatCents(order.totalCents)}
                </td>
                <td className="px-3 py-2" data-label="Status">
                  <span className="font-medium" data-testid="status">
                    {ORDER_STATUS_LABELS[order.status]}
                  </span>
                  <StatusTimes order={order} />
                </td>
                <td className="px-3 py-2">
                  {order.status === "unpaid" ? (
                    <ConfirmDialog
                      label="Remove"
                      accessibleLabel={`Remove the order of ${order.summary} for ${order.userName}`}
                      href={`/dashboard/manageOrders/${order.id}/remove`}
                      title="Remove this unpaid order?"
                      className={confirmLinkClass}
                    >
                      {(close) => (
                        <ConfirmFetcherForm
                          action="/dashboard/manageOrders"
                          hidden={{ intent: "remove", orderId: order.id }}
                          message={
                            <p>
                              The order of {describeOrder({ ...order, lineCount: order.lines.length })} for{" "}
                              {order.userName} will be removed and the units go back into stock.
                            </p>
                          }
                          confirmLabel="Remove"
                          pendingLabel="Removing…"
                          onKeep={close}
                        />
                      )}
                    </ConfirmDialog>
                  ) : order.status === "paid" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="ship" />
                      <input type="hidden" name="orderId" value={order.id} />
                      <Button
                        type="submit"
                        aria-label={`Shipped: the order of ${order.summary} for ${order.userName}`}
                        className="px-3 py-1.5 text-sm"
                        disabled={shipping}
                      >
                        Shipped
                      </Button>
                    </Form>
                  ) : null}
                  <ErrorList errors={rowErrors} />
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <Pagination page={page} pageCount={pageCount} label="Manage Orders pages" />
    </div>
  );
}

type OrderRow = ReturnType<typeof useLoaderData<typeof loader>>["orders"][number];

/** When each change happened: paid (with the transaction id), shipped, cancelled, removed. */
function StatusTimes({ order }: { order: OrderRow }) {
  const lines: string[] = [];
  if (order.paidAt) lines.push(`Paid ${formatDateTime(order.paidAt)}`);
  if (order.shippedAt) lines.push(`Shipped ${formatDateTime(order.shippedAt)}`);
  if (order.cancelledAt) lines.push(`Cancelled ${formatDateTime(order.cancelledAt)}`);
  if (order.removedAt) lines.push(`Removed ${formatDateTime(order.removedAt)}`);
  return (
    <>
      {lines.map((line) => (
        <span key={line} className="block text-xs text-slate-600">
          {line}
        </span>
      ))}
      {order.transactionId ? (
        <span className="block text-xs text-slate-600">
          Transaction id: <span className="break-all font-mono">{order.transactionId}</span>
        </span>
      ) : null}
    </>
  );
}

/** The page's current filters (not its page number) for the CSV link: the download matches what is listed. */
function useExportSearch() {
  const params = new URLSearchParams(useLocation().search);
  const kept = new URLSearchParams();
  for (const key of ["q", "status", "from", "to"]) {
    const value = params.get(key);
    if (value) kept.set(key, value);
  }
  const search = kept.toString();
  return search ? `?${search}` : "";
}

export const meta: MetaFunction = () => [{ title: "Manage Orders — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
