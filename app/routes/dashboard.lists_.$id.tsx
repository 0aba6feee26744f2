import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ListCartForms, SavedListLines } from "~/components/saved-list-lines";
import { AddPartForm, DeleteListButton, RenameListForm, ShareListForm } from "~/components/saved-list-manage";
import { CART_PATH } from "~/forms/cart-forms";
import { LISTS_PATH, listPageSchema, listPath, type ListReply } from "~/forms/saved-list-forms";
import { formatDate } from "~/format";
import { ACCOUNTS_CANNOT_ORDER } from "~/orders/service.server";
import { can } from "~/services/companies.server";
import { parseForm, readForm } from "~/services/form.server";
import { requireCustomer } from "~/services/guards.server";
import {
  addListToCart,
  addPartByNumber,
  cartOutcomeWords,
  getListFor,
  LIST_NOT_FOUND,
  removeLine,
  renameList,
  setLineQuantity,
  shareList,
} from "~/services/saved-lists.server";
import { redirectWithError, redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const found = await getListFor(user, params.id ?? "");
  if (!found) throw new Response(LIST_NOT_FOUND, { status: 404 });
  const { list, mayEdit, ownerName } = found;
  return data(
    {
      list: { id: list.id, name: list.name, shared: list.shared, lines: list.lines, updatedAt: list.updatedAt },
      owner: list.ownerId === user.id ? "you" : ownerName,
      mayEdit,
      mayOrder: can(user, "order"),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/**
 * Every form of a list posts here: its lines (quantity, remove, add by number), its name and
 * sharing, and into the cart (all lines, or the chosen ones). A change goes back to the list with a
 * toast; the cart goes to the cart with what went in and what did not.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const listId = params.id ?? "";
  const formData = await readForm(request);
  const submission = parseForm(formData, { schema: listPageSchema });
  const posted = { intent: String(formData.get("intent") ?? ""), partId: String(formData.get("partId") ?? "") };
  const refuse = (message: string, status: number, field?: string) =>
    data<ListReply>(
      {
        ...posted,
        result: submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
      },
      { status },
    );
  if (submission.status !== "success")
    return data<ListReply>({ ...posted, result: submission.reply() }, { status: 400 });
  const value = submission.value;
  const back = listPath(listId);

  if (value.intent === "cart-all" || value.intent === "cart-chosen") {
    if (!can(user, "order")) return refuse(ACCOUNTS_CANNOT_ORDER, 403);
    const outcome = await addListToCart(user, listId, value.intent === "cart-chosen" ? value.chosen : undefined);
    if (!outcome.ok) return refuse(outcome.message, outcome.status);
    const words = cartOutcomeWords(outcome);
    return outcome.added ? redirectWithSuccess(CART_PATH, words) : redirectWithError(back, words);
  }
  const changed =
    value.intent === "rename"
      ? await renameList(user, listId, value.name)
      : value.intent === "share"
        ? await shareList(user, listId, Boolean(value.shared), context)
        : value.intent === "quantity"
          ? await setLineQuantity(user, listId, value.partId, value.quantity)
          : value.intent === "remove"
            ? await removeLine(user, listId, value.partId)
            : await addPartByNumber(user, listId, value.partNumber, value.quantity);
  if (!changed.ok) {
    if (changed.status === 404) throw new Response(LIST_NOT_FOUND, { status: 404 });
    return refuse(changed.message, changed.status, changed.field);
  }
  const name = changed.change.name ?? changed.before.name;
  const said = {
    rename: `List renamed to “${name}”`,
    share:
      value.intent === "share" && value.shared
        ? `“${name}” is shared with your company`
        : `“${name}” is yours alone now`,
    quantity: "Quantity saved",
    remove: "Line removed from the list",
    add: "Added to the list",
  }[value.intent];
  return redirectWithSuccess(back, said);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const panel = "mt-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm";

export default function SavedListPage() {
  const { list, owner, mayEdit, mayOrder } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as ListReply | undefined;
  const errorsOf = (...intents: string[]) =>
    reply && intents.includes(reply.intent)
      ? Object.values(reply.result.error ?? {}).flatMap((errors) => errors ?? [])
      : [];
  const resultOf = (intent: string) => (reply?.intent === intent ? reply.result : undefined);
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <p>
        <Link to={LISTS_PATH} className="text-brand-700 underline">
          Saved Lists
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold [overflow-wrap:anywhere]">{list.name}</h1>
      <p className="mt-1 text-slate-700" data-testid="list-about">
        {list.lines.length} {list.lines.length === 1 ? "line" : "lines"} · owned by {owner} ·{" "}
        {list.shared ? "shared with your company" : "only you see it"} · updated {formatDate(list.updatedAt)}
      </p>
      <SavedListLines listPath={listPath(list.id)} lines={list.lines} mayEdit={mayEdit} reply={reply} />
      {list.lines.length && mayOrder ? <ListCartForms errors={errorsOf("cart-all", "cart-chosen")} /> : null}
      {list.lines.length ? (
        <p className="mt-2">
          <Link
            to={`/dashboard/quotes/new?list=${list.id}`}
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
          >
            Request a quote for this list
          </Link>
        </p>
      ) : null}
      {mayEdit ? (
        <>
          <section aria-labelledby="add-heading" className={panel}>
            <h2 id="add-heading" className="mb-2 text-lg font-semibold">
              Add a part
            </h2>
            <AddPartForm lastResult={resultOf("add")} />
          </section>
          <section aria-labelledby="manage-heading" className={panel}>
            <h2 id="manage-heading" className="mb-2 text-lg font-semibold">
              Name and sharing
            </h2>
            <RenameListForm key={list.name} name={list.name} lastResult={resultOf("rename")} />
            <ShareListForm shared={list.shared} errors={errorsOf("share")} />
            <div className="mt-4 border-t border-slate-200 pt-4">
              <DeleteListButton id={list.id} name={list.name} />
            </div>
          </section>
        </>
      ) : (
        <p className="mt-6 text-slate-700">Only the list&apos;s owner or a company owner may change it.</p>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? data.list.name : "List"} — PartsWorks` },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
