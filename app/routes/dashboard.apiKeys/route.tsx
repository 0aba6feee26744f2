import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { VerifyFirstNotice } from "~/components/verify-email-banner";
import { DataTable, type Column } from "~/components/ui/data-table";
import { apiKeyActionSchema, createApiKeySchema } from "./forms";
import { mayMakeCredentials, VERIFY_FIRST } from "~/services/account-access.server";
import { createKeyFor, listKeysFor, revokeKeyOf, scopesOf } from "~/services/api-keys.server";
import { SCOPE_WORDS } from "~/domain/api-scopes";
import { requireUser } from "~/services/guards.server";
import { can } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { formatDateTime } from "~/format";
import { redirectWithSuccess } from "~/services/toast.server";

const PATH = "/dashboard/apiKeys";

/**
 * API keys for /api/v1. A customer's keys belong to their company: each member makes keys within
 * their role (accounts: read only) and sees their own; an owner sees and revokes every key of the
 * company. An admin's are staff keys, their own.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const keys = await listKeysFor(user);
  return data(
    {
      keys,
      scopes: scopesOf(user),
      company: user.role === "customer",
      /** An owner's list is the company's: it names who made each key. */
      companyWide: can(user, "manage"),
      selfId: user.id,
      /** Unproved address: no new keys (the form gives way to why). */
      verifyFirst: mayMakeCredentials(user) ? null : VERIFY_FIRST,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

type ActionData = { result: SubmissionResult<string[]>; created?: { name: string; token: string } };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await readForm(request), { schema: apiKeyActionSchema });
  if (submission.status !== "success") {
    return data<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  const { value } = submission;
  if (value.intent === "revoke") {
    const key = await revokeKeyOf(user, value.keyId, context);
    if (!key) {
      return data<ActionData>(
        { result: submission.reply({ formErrors: ["That key is already revoked, or is not one you may revoke."] }) },
        { status: 404 },
      );
    }
    return redirectWithSuccess(PATH, `The key “${key.name}” is revoked: it stops working now.`);
  }
  const outcome = await createKeyFor(user, value, context);
  if (!outcome.ok) {
    const reply = outcome.field
      ? submission.reply({ fieldErrors: { [outcome.field]: [outcome.message] } })
      : submission.reply({ formErrors: [outcome.message] });
    return data<ActionData>({ result: reply }, { status: outcome.status });
  }
  // The token is shown in this answer only: it is stored hashed and cannot be shown again.
  return data<ActionData>(
    { result: submission.reply({ resetForm: true }), created: { name: outcome.key.name, token: outcome.token } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "Name" },
  { label: "Scopes" },
  { label: "Created" },
  { label: "Last used" },
  { label: "Action" },
];
const COMPANY_COLUMNS: Column[] = [...COLUMNS.slice(0, 2), { label: "Made by" }, ...COLUMNS.slice(2)];

export default function ApiKeysPage() {
  const { keys, scopes, company, companyWide, selfId, verifyFirst } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === PATH;
  const creating = busy && navigation.formData?.get("intent") === "create";
  const revoking = busy && navigation.formData?.get("intent") === "revoke" ? navigation.formData?.get("keyId") : null;
  const [form, fields] = useForm({
    id: "create-api-key",
    lastResult: actionData?.result,
    constraint: getZodConstraint(createApiKeySchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: apiKeyActionSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const formErrors = actionData?.result.error?.[""];

  return (
    <section aria-labelledby="api-keys-heading">
      <h1 id="api-keys-heading" className="text-2xl font-bold text-slate-900">
        API keys
      </h1>
      <p className="mt-1 max-w-2xl text-sm text-slate-600">
        A key lets your own systems use the shop&apos;s API as you: send it as{" "}
        <code className="rounded bg-slate-100 px-1">Authorization: Bearer …</code>. It can do what you can and no more.
        {company
          ? " Keys belong to your company: a key stops when the person who made it leaves the company or loses the role it needs, and the company's owners see and revoke every key."
          : null}{" "}
        See the{" "}
        <Link to="/api/docs" reloadDocument className="font-medium text-brand-700 underline">
          API reference
        </Link>
        .
      </p>

      {actionData?.created ? (
        <div
          role="status"
          className="mt-4 rounded-lg border border-green-700 bg-green-50 p-4"
          data-testid="new-api-key"
        >
          <p className="font-semibold text-green-900">The key “{actionData.created.name}” is ready.</p>
          <p className="mt-1 text-sm text-green-900">Copy it now: it is shown this once and cannot be shown again.</p>
          <p className="mt-2 break-all rounded bg-white p-2 font-mono text-sm text-slate-900">
            {actionData.created.token}
          </p>
        </div>
      ) : null}

      {verifyFirst ? (
        <div className="mt-6">
          <h2 className="text-lg font-semibold text-slate-900">New key</h2>
          <VerifyFirstNotice message={verifyFirst} />
          <ErrorList errors={formErrors} />
        </div>
      ) : (
        <Form method="post" action={PATH} className="mt-6 max-w-xl" {...getFormProps(form)}>
          <h2 className="text-lg font-semibold text-slate-900">New key</h2>
          <input type="hidden" name="intent" value="create" />
          <Field meta={fields.name} label="Name" help="Which system uses it, for example “Purchasing”." />
          <fieldset aria-describedby={fields.scopes.errorId}>
            <legend className="mb-1 block text-sm font-medium text-slate-800">What the key may do</legend>
            {scopes.map((scope) => (
              <label key={scope} className="flex min-h-11 items-center gap-2 text-slate-800">
                <input
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={scope === scopes[0]}
                  className="h-5 w-5"
                />
                <span>
                  <span className="font-mono text-sm">{scope}</span>: {SCOPE_WORDS[scope]}
                </span>
              </label>
            ))}
            <ErrorList id={fields.scopes.errorId} errors={fields.scopes.errors} />
          </fieldset>
          <ErrorList errors={formErrors} />
          <SubmitButton pending={creating} pendingText="Creating…">
            Create key
          </SubmitButton>
        </Form>
      )}

      <h2 className="mt-8 text-lg font-semibold text-slate-900">{companyWide ? "Your company's keys" : "Your keys"}</h2>
      {keys.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          {companyWide ? "Your company has no API keys yet." : "You have no API keys yet."}
        </p>
      ) : (
        <DataTable
          caption={companyWide ? "Your company's API keys, newest first" : "Your API keys, newest first"}
          columns={companyWide ? COMPANY_COLUMNS : COLUMNS}
        >
          {keys.map((key) => (
            <tr key={key.id} data-testid="api-key-row" data-revoked={key.revokedAt ? "" : undefined}>
              <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                {key.name}
                <span className="block font-mono text-xs text-slate-600">{key.prefix}…</span>
              </th>
              <td className="px-4 py-3 text-slate-800" data-label="Scopes">
                {key.scopes.join(", ")}
              </td>
              {companyWide ? (
                <td className="px-4 py-3 text-slate-800" data-label="Made by" data-testid="api-key-maker">
                  {key.ownerId === selfId ? "You" : key.createdBy}
                </td>
              ) : null}
              <td className="px-4 py-3 text-slate-800" data-label="Created">
                {formatDateTime(key.createdAt)}
              </td>
              <td className="px-4 py-3 text-slate-800" data-label="Last used">
                {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}
              </td>
              <td className="px-4 py-3 max-md:col-span-2">
                {key.revokedAt ? (
                  <span className="text-sm text-slate-600">Revoked {formatDateTime(key.revokedAt)}</span>
                ) : (
                  <Form method="post" action={PATH}>
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="keyId" value={key.id} />
                    <SubmitButton
                      variant="danger"
                      pending={revoking === key.id}
                      pendingText="Revoking…"
                      className="px-3 py-1 text-sm"
                    >
                      Revoke<span className="sr-only"> {key.name}</span>
                    </SubmitButton>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "API keys — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
