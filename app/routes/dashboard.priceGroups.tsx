import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputAttributes, ErrorList, Field, SubmitButton, TextareaField, useIsPending } from "~/components/forms";
import { getPriceGroup, listPriceGroups, priceGroupNameTaken } from "~/models/price-group.server";
import { countInPriceGroup } from "~/models/user.server";
import { removePriceGroup, writePriceGroup } from "~/services/price-groups.server";
import { requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { formatRules, priceGroupSchema, priceGroupsSchema, RULES_HELP } from "~/forms/pricing-forms";
import { redirectWithSuccess } from "~/services/toast.server";

const PATH = "/dashboard/priceGroups";

/** Price Groups: every group with its rules, a form for a new one, or for the one `?edit=` names. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const editId = new URL(request.url).searchParams.get("edit");
  const [groups, editing] = await Promise.all([listPriceGroups(), editId ? getPriceGroup(editId) : null]);
  if (editId && !editing) throw new Response("There is no price group with that id.", { status: 404 });
  const members = await Promise.all(groups.map((group) => countInPriceGroup(group.id)));
  return data(
    {
      groups: groups.map((group, index) => ({
        ...group,
        rulesText: formatRules(group.rules),
        members: members[index],
      })),
      editing: editing ? { ...editing, rulesText: formatRules(editing.rules) } : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await readForm(request), { schema: priceGroupsSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const value = submission.value;
  if (value.intent === "delete") {
    const group = await getPriceGroup(value.id);
    if (!group) return data(submission.reply({ formErrors: ["That price group no longer exists."] }), { status: 404 });
    const members = await countInPriceGroup(group.id);
    if (members > 0) {
      const message = `${group.name} has ${members} ${members === 1 ? "customer" : "customers"}: move them to another group first.`;
      return data(submission.reply({ formErrors: [message] }), { status: 409 });
    }
    await removePriceGroup(group, { actor: admin, context });
    return redirectWithSuccess(PATH, `Price group ${group.name} deleted`);
  }
  if (await priceGroupNameTaken(value.name, value.id)) {
    return data(submission.reply({ fieldErrors: { name: ["Another price group has this name"] } }), { status: 409 });
  }
  const input = {
    name: value.name,
    percentOff: value.percentOff,
    rules: value.rules,
    stacksWithBreaks: value.stacksWithBreaks,
  };
  const saved = await writePriceGroup(input, value.id, { actor: admin, context });
  if (!saved) return data(submission.reply({ formErrors: ["That price group no longer exists."] }), { status: 404 });
  return redirectWithSuccess(PATH, `Price group ${saved.name} saved`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function PriceGroups() {
  const { groups, editing } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-bold">Price Groups</h1>
      <p className="mt-1 text-slate-700">
        A customer in a group pays the group&apos;s price where it is lower than the list price or the volume break;
        both together only when the group stacks with breaks. Discounts apply in every currency; a net price only to
        buyers in its currency. Assign a group on the customer&apos;s record (All Users).
      </p>
      {groups.length === 0 ? (
        <p className="mt-6 rounded border border-dashed border-slate-300 p-4 text-slate-700">
          No price groups yet: every customer pays the list price and the volume breaks.
        </p>
      ) : (
        <ul className="mt-6 space-y-3" data-testid="price-groups">
          {groups.map((group) => (
            <li key={group.id} className="rounded-lg border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-lg font-semibold">{group.name}</h2>
                <span className="text-sm text-slate-600">
                  {group.members} {group.members === 1 ? "customer" : "customers"}
                </span>
              </div>
              <p className="text-sm text-slate-700">
                {group.percentOff
                  ? `${group.percentOff}% off every part no rule names`
                  : "No discount beyond its rules"}
                {group.stacksWithBreaks
                  ? "; stacks with volume breaks"
                  : "; the better of group price and volume break"}
              </p>
              {group.rulesText ? (
                <pre className="mt-2 whitespace-pre-wrap rounded bg-slate-50 p-2 text-sm">{group.rulesText}</pre>
              ) : null}
              <div className="mt-2 flex flex-wrap items-center gap-4">
                <Link
                  to={`${PATH}?edit=${group.id}#group-form`}
                  className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
                >
                  Edit<span className="sr-only"> {group.name}</span>
                </Link>
                {group.members === 0 ? <DeleteGroup id={group.id} name={group.name} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <GroupForm key={editing?.id ?? "new"} editing={editing} />
    </div>
  );
}

function DeleteGroup({ id, name }: { id: string; name: string }) {
  const pending = useIsPending({ formMethod: "POST" });
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <SubmitButton
        pending={pending}
        variant="secondary"
        className="px-3 py-2 text-sm"
        pendingText="Deleting…"
        aria-label={`Delete ${name}`}
      >
        Delete
      </SubmitButton>
    </Form>
  );
}

function GroupForm({ editing }: { editing: ReturnType<typeof useLoaderData<typeof loader>>["editing"] }) {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "group-form",
    lastResult,
    constraint: getZodConstraint(priceGroupSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: editing
      ? {
          name: editing.name,
          percentOff: editing.percentOff ? String(editing.percentOff) : "",
          rules: editing.rulesText,
          stacksWithBreaks: editing.stacksWithBreaks ? "on" : undefined,
        }
      : {},
    onValidate: ({ formData }) => parseWithZod(formData, { schema: priceGroupsSchema }),
  });
  const isPending = useIsPending();
  return (
    <section
      aria-labelledby="group-form-heading"
      className="mt-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="group-form-heading" className="text-lg font-semibold">
        {editing ? `Edit ${editing.name}` : "New price group"}
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-x-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="save" />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field meta={fields.name} label="Name" inputProps={{ placeholder: "Distributor" }} />
        <Field
          meta={fields.percentOff}
          label="Discount on every other part (%)"
          type="number"
          inputProps={{ min: 0, max: 99.99, step: 0.01, placeholder: "15" }}
        />
        <TextareaField
          className="sm:col-span-2"
          meta={fields.rules}
          label="Rules (optional)"
          help={{ id: "rules-help", text: RULES_HELP }}
          textareaProps={{
            rows: 4,
            placeholder: "category brakes -8%\nbrand Nordwerk -10%\npart PW-1001 = $11.25\npart PW-1001 = €10.50",
          }}
        />
        <div className="sm:col-span-2">
          <label className="inline-flex min-h-11 items-center gap-2">
            <input {...inputAttributes(fields.stacksWithBreaks, { type: "checkbox" })} className="h-5 w-5" />
            Stacks with volume breaks (the break&apos;s discount applies on the group price)
          </label>
          <ErrorList id={fields.stacksWithBreaks.errorId} errors={fields.stacksWithBreaks.errors} />
        </div>
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="flex flex-wrap items-center gap-4">
            <SubmitButton pending={isPending} pendingText="Saving…">
              {editing ? "Save the group" : "Add the group"}
            </SubmitButton>
            {editing ? (
              <Link to={PATH} className="font-medium text-brand-700 underline">
                Cancel
              </Link>
            ) : null}
          </div>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Price Groups — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
