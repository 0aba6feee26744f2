import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { VerifyFirstNotice } from "~/components/verify-email-banner";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listEndpointsOf, listRecentDeliveries, MAX_ENDPOINTS_PER_OWNER } from "~/models/webhook.server";
import { mayMakeCredentials, VERIFY_FIRST } from "~/services/account-access.server";
import { requireUser } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { formatDateTime } from "~/format";
import { redirectWithSuccess } from "~/services/toast.server";
import { addEndpointSchema, webhookActionSchema, WEBHOOKS_PATH } from "./forms";
import {
  createEndpoint,
  deleteEndpoint,
  endpointsOf,
  mayManageWebhooks,
  redeliverWebhook,
} from "~/services/webhooks.server";

/**
 * Webhooks: the endpoints that hear of orders (a company's, of every order of the company; an
 * admin's, of every order) and their last deliveries. A company's owners manage them; its other
 * members are told who does.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const manages = mayManageWebhooks(user);
  const holder = endpointsOf(user);
  const [endpoints, deliveries] = manages
    ? await Promise.all([listEndpointsOf(holder), listRecentDeliveries(holder, 20)])
    : [[], []];
  return data(
    {
      endpoints,
      deliveries,
      allOrders: user.role === "admin",
      manages,
      maxEndpoints: MAX_ENDPOINTS_PER_OWNER,
      /** Unproved address: no new endpoints (the form gives way to why). */
      verifyFirst: mayMakeCredentials(user) ? null : VERIFY_FIRST,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionData = { result: SubmissionResult<string[]>; created?: { url: string; secret: string } };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await readForm(request), { schema: webhookActionSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const actor = user;
  if (!mayManageWebhooks(actor)) {
    return data<ActionData>(
      { result: submission.reply({ formErrors: ["Your company's owners manage its webhooks: ask one of them."] }) },
      { status: 403 },
    );
  }
  const value = submission.value;
  if (value.intent === "add") {
    const outcome = await createEndpoint(value.url, { actor, context });
    if (!outcome.ok) {
      const reply = outcome.field
        ? submission.reply({ fieldErrors: { url: [outcome.message] } })
        : submission.reply({ formErrors: [outcome.message] });
      return data<ActionData>({ result: reply }, { status: outcome.status });
    }
    // The secret is shown this once, in this answer (never in a redirect, a cookie or the page's later loads).
    return data<ActionData>(
      { result: submission.reply({ resetForm: true }), created: { url: outcome.endpoint.url, secret: outcome.secret } },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  if (value.intent === "remove") {
    const removed = await deleteEndpoint(value.endpointId, { actor, context });
    if (!removed) {
      return data<ActionData>(
        { result: submission.reply({ formErrors: ["That endpoint is already removed."] }) },
        { status: 404 },
      );
    }
    return redirectWithSuccess(WEBHOOKS_PATH, `${removed.url} is removed: it hears of no more orders`);
  }
  const delivery = await redeliverWebhook(value.deliveryId, actor);
  if (!delivery) {
    return data<ActionData>(
      { result: submission.reply({ formErrors: ["That delivery cannot be sent again now (it is being sent)."] }) },
      { status: 404 },
    );
  }
  return redirectWithSuccess(WEBHOOKS_PATH, `${delivery.type} of ${delivery.orderNumber} is on its way again`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const ENDPOINT_COLUMNS: Column[] = [{ label: "URL" }, { label: "Added" }, { label: "Action" }];
const DELIVERY_COLUMNS: Column[] = [
  { label: "Event" },
  { label: "Status" },
  { label: "Attempts", align: "right" },
  { label: "Last answer" },
  { label: "Written" },
  { label: "Action" },
];

const STATUS_WORDS = { pending: "Waiting to retry", sending: "Sending", delivered: "Delivered", failed: "Failed" };
const STATUS_CLASS = {
  pending: "text-amber-800",
  sending: "text-slate-700",
  delivered: "text-green-800",
  failed: "text-red-700",
};

export default function WebhooksPage() {
  const { endpoints, deliveries, allOrders, manages, maxEndpoints, verifyFirst } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const posting = navigation.state !== "idle" && navigation.formAction === WEBHOOKS_PATH ? navigation.formData : null;
  const [form, fields] = useForm({
    id: "add-endpoint",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(addEndpointSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addEndpointSchema }),
  });
  const urlOf = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.url]));
  const formErrors = actionData?.result.error?.[""];

  return (
    <section aria-labelledby="webhooks-heading" className="max-w-4xl">
      <h1 id="webhooks-heading" className="text-2xl font-bold text-slate-900">
        Webhooks
      </h1>
      <p className="mt-1 text-sm text-slate-700">
        {allOrders
          ? "Your systems hear of every order"
          : "Your company's systems hear of every order of the company, whoever placed it,"}{" "}
        as it happens: placed, paid, shipped (with carrier and tracking), cancelled and expired. Each delivery is a JSON
        POST signed with the endpoint&apos;s secret: the <code className="font-mono">PartsWorks-Signature</code> header
        is <code className="font-mono">t=&lt;unix time&gt;,v1=&lt;HMAC-SHA256 of &quot;t.body&quot;&gt;</code>.
      </p>
      <ErrorList errors={formErrors} />

      {manages ? null : (
        <p
          className="mt-4 rounded border border-slate-300 bg-white p-4 text-sm text-slate-800"
          data-testid="webhooks-owners-only"
        >
          Your company&apos;s owners add and remove its endpoints and see their deliveries: ask one of them. See the{" "}
          <Link to="/dashboard/company" className="text-brand-700 underline">
            Company
          </Link>{" "}
          page for who they are.
        </p>
      )}

      {manages && actionData?.created ? (
        <div role="status" className="mt-4 rounded border border-green-700 bg-green-50 p-4 text-sm text-slate-900">
          <p className="font-semibold">
            <span className="break-all">{actionData.created.url}</span> is added.
          </p>
          <p className="mt-1">Its signing secret, shown this once: copy it into your system now.</p>
          <code
            data-testid="webhook-secret"
            className="mt-2 block break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900"
          >
            {actionData.created.secret}
          </code>
        </div>
      ) : null}

      {manages ? (
        <>
          <h2 className="mt-6 text-lg font-semibold text-slate-900">Endpoints</h2>
          {endpoints.length ? (
            <DataTable
              caption={allOrders ? "Your webhook endpoints" : "Your company's webhook endpoints"}
              columns={ENDPOINT_COLUMNS}
            >
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id} data-testid="webhook-endpoint">
                  <th scope="row" className="break-all px-3 py-3 font-mono font-medium text-slate-900">
                    {endpoint.url}
                  </th>
                  <td className="px-3 py-3 text-slate-800" data-label="Added">
                    {formatDateTime(endpoint.createdAt)}
                  </td>
                  <td className="px-3 py-3">
                    <Form method="post" action={WEBHOOKS_PATH}>
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="endpointId" value={endpoint.id} />
                      <SubmitButton
                        variant="danger"
                        className="px-3 py-1 text-sm"
                        pending={posting?.get("endpointId") === endpoint.id}
                        pendingText="Removing…"
                      >
                        Remove<span className="sr-only"> {endpoint.url}</span>
                      </SubmitButton>
                    </Form>
                  </td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="mt-2 text-sm text-slate-700">No endpoints yet: add the URL your system listens on.</p>
          )}

          {verifyFirst ? (
            <VerifyFirstNotice message={verifyFirst} />
          ) : endpoints.length < maxEndpoints ? (
            <Form method="post" action={WEBHOOKS_PATH} {...getFormProps(form)} className="mt-4 max-w-xl">
              <input type="hidden" name="intent" value="add" />
              <Field
                meta={fields.url}
                label="Endpoint URL"
                type="url"
                inputProps={{ placeholder: "https://erp.example.com/partsworks", autoComplete: "off" }}
                help="HTTPS on a public server. It must answer 2xx within 10 seconds; anything else is retried."
              />
              <SubmitButton pending={posting?.get("intent") === "add"} pendingText="Adding…">
                Add endpoint
              </SubmitButton>
            </Form>
          ) : (
            <p className="mt-4 text-sm text-slate-700">
              There are {maxEndpoints} endpoints, the most {allOrders ? "one account" : "one company"} may have.
            </p>
          )}

          <h2 className="mt-8 text-lg font-semibold text-slate-900">Last deliveries</h2>
          {deliveries.length ? (
            <DataTable caption="The last deliveries to your endpoints, newest first" columns={DELIVERY_COLUMNS}>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} data-testid="webhook-delivery">
                  <th scope="row" className="px-3 py-3 font-medium text-slate-900">
                    {delivery.type} <span className="font-normal">of {delivery.orderNumber}</span>
                    <span className="block break-all text-xs font-normal text-slate-600">
                      {urlOf.get(delivery.endpointId) ?? "a removed endpoint"}
                    </span>
                  </th>
                  <td className={`px-3 py-3 font-medium ${STATUS_CLASS[delivery.status]}`} data-label="Status">
                    {STATUS_WORDS[delivery.status]}
                  </td>
                  <td className="px-3 py-3 text-slate-800 md:text-right" data-label="Attempts">
                    {delivery.attempts}
                  </td>
                  <td className="break-words px-3 py-3 text-slate-800" data-label="Last answer">
                    {delivery.lastStatusCode ? `HTTP ${delivery.lastStatusCode}` : null}
                    {delivery.lastError && delivery.status !== "delivered" ? (
                      <span className="block text-xs text-slate-600">{delivery.lastError}</span>
                    ) : null}
                    {!delivery.lastStatusCode && !delivery.lastError ? "None yet" : null}
                  </td>
                  <td className="px-3 py-3 text-slate-800" data-label="Written">
                    {formatDateTime(delivery.createdAt)}
                  </td>
                  <td className="px-3 py-3">
                    {urlOf.has(delivery.endpointId) && delivery.status !== "sending" ? (
                      <Form method="post" action={WEBHOOKS_PATH}>
                        <input type="hidden" name="intent" value="redeliver" />
                        <input type="hidden" name="deliveryId" value={delivery.id} />
                        <SubmitButton
                          className="px-3 py-1 text-sm"
                          pending={posting?.get("deliveryId") === delivery.id}
                          pendingText="Sending…"
                        >
                          Redeliver
                          <span className="sr-only">
                            {" "}
                            {delivery.type} of {delivery.orderNumber}
                          </span>
                        </SubmitButton>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="mt-2 text-sm text-slate-700">
              No deliveries yet: the next order event goes to your endpoints.{" "}
              <Link
                className="text-brand-700 underline"
                to={allOrders ? "/dashboard/manageOrders" : "/dashboard/orders"}
              >
                {allOrders ? "Manage Orders" : "My Orders"}
              </Link>
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Webhooks — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
