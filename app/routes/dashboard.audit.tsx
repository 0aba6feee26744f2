import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { Pagination } from "~/components/pagination";
import { DataTable, type Column } from "~/components/ui/data-table";
import { listAuditEntries, type AuditEntryView, type AuditValues } from "~/models/audit.server";
import { getUserNames } from "~/models/user.server";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditFieldLabel,
  auditFilterSchema,
  formatAuditValue,
} from "~/domain/audit-actions";
import { requireAdmin } from "~/services/guards.server";
import { formatDateTime, formatQuantity } from "~/format";
import { parsePage } from "~/forms/shop-forms";
import { parseForm } from "~/services/form.server";
import { staffQuotePath } from "~/domain/quotes";

const PER_PAGE = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit log for admins: newest first, filtered by action, actor email and dates (UTC days). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const submission = parseForm(params, { schema: auditFilterSchema });
  const headers = { "Cache-Control": "private, no-store" };
  if (submission.status !== "success") {
    // Bad filters show their message next to the field and no entries (nothing is guessed).
    const entries: (AuditEntryView & { actorName: string | null })[] = [];
    return data({ result: submission.reply(), entries, page: 1, pageCount: 1, total: 0 }, { status: 400, headers });
  }
  const { action, actor, from, to } = submission.value;
  const list = await listAuditEntries(
    {
      action,
      actorEmail: actor,
      from: from ? new Date(`${from}T00:00:00Z`) : null,
      to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : null,
    },
    { page: parsePage(params.get("page")), perPage: PER_PAGE },
  );
  // People by name and email: the actors, and the users an entry is about (older entries named them by id or email).
  const people = await getUserNames([
    ...list.entries.map((entry) => entry.actorId ?? ""),
    ...list.entries.map((entry) => (entry.targetType === "user" ? (entry.targetId ?? "") : "")),
  ]);
  const entries = list.entries.map((entry) => {
    const actor = entry.actorId ? people.get(entry.actorId) : undefined;
    const person = entry.targetType === "user" && entry.targetId ? people.get(entry.targetId) : undefined;
    return {
      ...entry,
      actorName: actor?.name ?? null,
      targetLabel: person ? `${person.name} (${person.email})` : entry.targetLabel,
    };
  });
  return data({ result: submission.reply(), ...list, entries }, { headers });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "When (UTC)" },
  { label: "Who" },
  { label: "Address" },
  { label: "What" },
  { label: "Before" },
  { label: "After" },
];

export default function AuditLog() {
  const { result, entries, page, pageCount, total } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "audit-filters",
    lastResult: navigation.state === "idle" ? result : null,
    constraint: getZodConstraint(auditFilterSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: auditFilterSchema }),
  });
  const filtered = Boolean(
    fields.action.initialValue || fields.actor.initialValue || fields.from.initialValue || fields.to.initialValue,
  );

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold">Audit Log</h1>
      <p className="mt-1 text-sm text-slate-600">
        Every admin action and every sign-in refused by the throttle: who, when, from which address, and the values
        before and after.
      </p>
      <Form
        method="get"
        {...getFormProps(form)}
        className="mt-4 grid gap-x-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-start"
      >
        <div>
          <label htmlFor={fields.action.id} className="mb-1 block text-sm font-medium text-slate-800">
            Action
          </label>
          <select
            {...getSelectProps(fields.action)}
            key={fields.action.key}
            className="block min-h-11 w-full rounded border border-slate-400 bg-white px-3 py-2"
          >
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {AUDIT_ACTION_LABELS[value]}
              </option>
            ))}
          </select>
          <ErrorList id={fields.action.errorId} errors={fields.action.errors} />
        </div>
        <Field meta={fields.actor} label="Actor email" type="email" />
        <Field meta={fields.from} label="From (UTC day)" inputProps={{ type: "date" }} />
        <Field meta={fields.to} label="To (UTC day, included)" inputProps={{ type: "date" }} />
        <div className="flex items-center gap-3 sm:pt-6">
          <SubmitButton
            pending={navigation.state === "loading" && navigation.location?.pathname === "/dashboard/audit"}
            pendingText="Filtering…"
          >
            Filter
          </SubmitButton>
          {filtered ? (
            <Link
              to="/dashboard/audit"
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline"
            >
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <p className="mt-3 text-sm text-slate-600" data-testid="audit-total">
        {formatQuantity(total)} {total === 1 ? "entry" : "entries"}, newest first.
      </p>
      {entries.length === 0 ? (
        <p className="mt-2 text-slate-700">No entries to show.</p>
      ) : (
        <DataTable caption="Audit entries, newest first" className="mt-2" columns={COLUMNS}>
          {entries.map((entry) => (
            // dense: on a phone's card, the address fills the place beside the time.
            <tr
              key={entry.id}
              data-testid="audit-row"
              data-action={entry.action}
              className="max-md:grid-flow-row-dense"
            >
              <td className="px-3 py-2 md:min-w-28" data-label="When (UTC)">
                {formatDateTime(entry.at)}
              </td>
              <td className="px-3 py-2 max-md:col-span-2 md:min-w-44" data-label="Who">
                {entry.actorName ? <span className="block font-medium">{entry.actorName}</span> : null}
                <span className="block text-xs text-slate-700 [overflow-wrap:anywhere]">{entry.actorEmail ?? "—"}</span>
              </td>
              <td className="px-3 py-2 font-mono text-xs [overflow-wrap:anywhere] md:min-w-28" data-label="Address">
                {entry.ip}
              </td>
              {/* On a phone's card the action comes first, as its title. */}
              <th scope="row" className="px-3 py-2 font-medium max-md:order-first">
                {AUDIT_ACTION_LABELS[entry.action]}
                {entry.targetLabel || entry.targetId ? (
                  <span className="block text-xs font-normal text-slate-600">
                    {entry.targetType === "quote" && entry.targetId ? (
                      <Link to={staffQuotePath(entry.targetId)} className="text-brand-700 underline">
                        {entry.targetLabel ?? "The quote"}
                      </Link>
                    ) : (
                      (entry.targetLabel ?? `${entry.targetType} ${entry.targetId}`)
                    )}
                  </span>
                ) : null}
              </th>
              <td className="px-3 py-2 max-md:col-span-2 md:min-w-40" data-label="Before">
                <Values values={entry.before} />
              </td>
              <td className="px-3 py-2 max-md:col-span-2 md:min-w-40" data-label="After">
                <Values values={entry.after} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pagination page={page} pageCount={pageCount} label="Audit Log pages" />
    </div>
  );
}

function Values({ values }: { values: AuditValues | null }) {
  if (!values) return <span className="text-slate-500">—</span>;
  return (
    <dl className="space-y-1 text-xs">
      {Object.entries(values).map(([key, value]) => (
        <div key={key}>
          <dt className="inline text-slate-600">{auditFieldLabel(key)}: </dt>
          {/* Words wrap between words; only a word longer than the column (an image URL) breaks. */}
          <dd className="inline break-words text-slate-900">{formatAuditValue(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export const meta: MetaFunction = () => [{ title: "Audit Log — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
