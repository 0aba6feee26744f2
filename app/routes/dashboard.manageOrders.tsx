import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithSuccess } from "~/services/toast.server";
import { ConfirmDialog, confirmLinkClass, replyErrors } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { OrderLinesDetails, PoNumber } from "~/components/order-lines";
import { Pagination } from "~/components/pagination";
import { DataTable, type Column } from "~/components/ui/data-table";
import { getOrderById } from "~/orders/model/reads.server";
import { listAllOrders } from "~/orders/model/search.server";
import { type OrderView } from "~/orders/model/view.server";
import { removeUnpaidOrder } from "~/orders/service.server";
import { requireAdmin } from "~/services/guards.server";
import { formatCents, formatDateTime, formatQuantity } from "~/format";
import { parseForm, readForm } from "~/services/form.server";
import { orderFilterSchema, toOrderFilter } from "~/forms/order-filters";
import { parsePage } from "~/forms/shop-forms";
import { removeOrderSchema } from "~/forms/cancel-reason";
import { RemoveOrderDialogForm, removeOrderPath } from "~/components/remove-order-form";
import {
  ORDER_STATE_MEANINGS,
  ORDER_STATE_WORDS,
  ORDER_STATES,
  orderStateText,
  removableByStaff,
} from "~/domain/order-states";

/**
 * Newest first, 20 a page; search (order number, PO number, email, company or the name of who
 * placed it: orders/model/search-keys.server.ts), state and dates,
 * all in the URL.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const submission = parseForm(params, { schema: orderFilterSchema });
  const headers = { "Cache-Control": "private, no-store" };
  if (submission.status !== "success") {
    // A bad filter shows its message next to the field and no orders (nothing is guessed).
    return data(
      {
        result: submission.reply(),
        orders: [] as OrderView[],
        page: 1,
        pageCount: 1,
        total: 0,
        status: null,
        filtered: true,
        values: null as Record<"q" | "status" | "from" | "to", string> | null,
      },
      { status: 400, headers },
    );
  }
  const filter = toOrderFilter(submission.value);
  const result = await listAllOrders({ ...filter, page: parsePage(params.get("page")) });
  const { q, from, to } = submission.value;
  const filtered = Boolean(q || filter.state || from || to || filter.companyId);
  // What the form shows: the filters of the orders listed ("paid" of older links read as pending).
  const values = { q: q ?? "", status: filter.state ?? "", from: from ?? "", to: to ?? "" };
  return data({ result: submission.reply(), ...result, status: filter.state, filtered, values }, { headers });
}

/** The Remove confirmation of an unpaid order posts here (shipping and payments are on the order's page). */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: removeOrderSchema });
  const posted = { orderId: String(formData.get("orderId") ?? ""), intent: String(formData.get("intent") ?? "") };
  if (submission.status !== "success") return data({ ...posted, result: submission.reply() }, { status: 400 });

  const { orderId } = submission.value;
  const changed = await removeUnpaidOrder(orderId, { actor: admin, context, reason: submission.value.reason });
  if (!changed) {
    const order = await getOrderById(orderId);
    const message = !order
      ? "That order does not exist."
      : `Only orders unpaid or awaiting approval, with no money received, can be removed; ${order.number} is ${ORDER_STATE_WORDS[order.state]}.`;
    return data({ ...posted, result: submission.reply({ formErrors: [message] }) }, { status: order ? 409 : 404 });
  }
  const { search } = new URL(request.url);
  return redirectWithSuccess(
    `/dashboard/manageOrders${search}`,
    `${changed.number} (${changed.summary} for ${changed.userName}) is removed and its stock is back`,
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

type ActionData = { orderId: string; intent: string; result: SubmissionResult<string[]> };

const COLUMNS: Column[] = [
  { label: "Order" },
  { label: "Customer" },
  { label: "Quantity", align: "right" },
  { label: "Price", align: "right" },
  { label: "Status" },
  { label: "Action" },
];

export default function ManageOrders() {
  const { orders, page, pageCount, total, status, filtered, result, values } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm({
    // Keyed by the filters listed and started from them, so after any action (a remove, a filter,
    // Clear, Back) the form shows the filters of the orders on the page, never a value left from before.
    id: `order-filters-${values ? new URLSearchParams(values).toString() : "invalid"}`,
    defaultValue: values ?? undefined,
    lastResult: navigation.state === "idle" && !values ? result : null,
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
          label="Order, PO, email or company, or a name"
          inputProps={{ type: "search", placeholder: "SO-100042, PO number, a name, name@…" }}
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
            {ORDER_STATES.map((value) => (
              <option key={value} value={value}>
                {ORDER_STATE_MEANINGS[value]}
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
            <Link
              to="/dashboard/manageOrders"
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
            >
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
        {formatQuantity(total)} {total === 1 ? "order" : "orders"}
        {status ? ` with status ${ORDER_STATE_MEANINGS[status]}` : ""}, newest first.
      </p>
      <ErrorList errors={orphanErrors} />
      {orders.length === 0 ? (
        <p className="mt-2 text-slate-700">No orders to show.</p>
      ) : (
        <DataTable caption="Orders, newest first" className="mt-2" columns={COLUMNS}>
          {orders.map((order) => {
            const rowErrors = actionData?.orderId === order.id ? replyErrors(actionData.result) : [];
            return (
              <tr key={order.id} data-testid={`order-${order.id}`}>
                <th scope="row" className="px-3 py-2 font-medium">
                  <Link to={`/dashboard/manageOrders/${order.id}`} className="text-brand-700 underline">
                    {order.number}
                  </Link>
                  <span className="block font-normal">{order.summary}</span>
                  <span className="block text-xs font-normal text-slate-600">
                    Placed {formatDateTime(order.createdAt)}
                  </span>
                  <PoNumber poNumber={order.poNumber} />
                  <OrderLinesDetails lines={order.lines} />
                </th>
                <td className="px-3 py-2 max-md:col-span-2" data-label="Customer">
                  {order.userName}
                  {order.companyName ? (
                    <Link
                      to={`/dashboard/manageOrders?company=${order.companyId}`}
                      className="flex min-h-11 items-center text-xs text-slate-600 underline md:block md:min-h-0"
                      aria-label={`Orders of ${order.companyName}`}
                    >
                      {order.companyName}
                    </Link>
                  ) : null}
                  <span className="block break-all text-xs text-slate-600">{order.userEmail}</span>
                  <span className="block text-xs text-slate-600">{order.phone}</span>
                </td>
                <td className="px-3 py-2 text-right" data-label="Quantity">
                  {formatQuantity(order.totalQuantity)}
                </td>
                <td className="px-3 py-2 text-right" data-label="Price">
                  {formatCents(order.totalCents, { currency: order.currency })}
                </td>
                <td className="px-3 py-2" data-label="Status">
                  <span className="font-medium" data-testid="status">
                    {orderStateText(order)}
                  </span>
                  {order.state === "part-paid" ? (
                    <span className="block text-xs text-slate-600">
                      {formatCents(order.balanceCents, { currency: order.currency })} left to pay
                    </span>
                  ) : null}
                  <StatusTimes order={order} />
                </td>
                <td className="px-3 py-2">
                  {removableByStaff(order.state) ? (
                    <ConfirmDialog
                      label="Remove"
                      accessibleLabel={`Remove ${order.number}: ${order.summary} for ${order.userName}`}
                      href={removeOrderPath(order.id)}
                      title="Remove this unpaid order?"
                      className={confirmLinkClass}
                    >
                      {(close) => (
                        <RemoveOrderDialogForm
                          order={{ ...order, lineCount: order.lines.length }}
                          action="/dashboard/manageOrders"
                          onKeep={close}
                        />
                      )}
                    </ConfirmDialog>
                  ) : order.status === "paid" || order.status === "account" ? (
                    <Link
                      to={`/dashboard/manageOrders/${order.id}#ship`}
                      className="inline-flex min-h-11 items-center rounded bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
                    >
                      {/* The name starts with what the link says, so a speech user can say it. */}
                      Ship with tracking…
                      <span className="sr-only">
                        {" "}
                        {order.number}: {order.summary} for {order.userName}
                      </span>
                    </Link>
                  ) : null}
                  {order.balanceCents > 0 ? (
                    <Link
                      to={`/dashboard/manageOrders/${order.id}#payment`}
                      className="flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
                    >
                      Record a payment<span className="sr-only"> for {order.number}</span>
                    </Link>
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
