import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmPageForm } from "~/components/confirm-dialog";
import { ErrorList } from "~/components/forms";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { deleteListPath, deleteListSchema, LISTS_PATH, listPath } from "~/forms/saved-list-forms";
import { parseForm, readForm } from "~/services/form.server";
import { requireCustomer } from "~/services/guards.server";
import { deleteList, getListFor, LIST_NOT_FOUND } from "~/services/saved-lists.server";
import { redirectWithSuccess } from "~/services/toast.server";

/** The delete confirmation of a saved list as a page (the modal, without JavaScript), and the delete itself. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const found = await getListFor(user, params.id ?? "");
  if (!found || !found.mayEdit) throw new Response(LIST_NOT_FOUND, { status: 404 });
  return data(
    { list: { id: found.list.id, name: found.list.name, lines: found.list.lines.length, shared: found.list.shared } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const submission = parseForm(await readForm(request), { schema: deleteListSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const deleted = await deleteList(user, params.id ?? "", context);
  if (!deleted.ok) {
    if (deleted.status === 404) throw new Response(LIST_NOT_FOUND, { status: 404 });
    return data(submission.reply({ formErrors: [deleted.message] }), { status: deleted.status });
  }
  return redirectWithSuccess(LISTS_PATH, `List “${deleted.list.name}” deleted`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function DeleteListPage() {
  const { list } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold [overflow-wrap:anywhere]">Delete “{list.name}”?</h1>
      <p className="mt-2 text-slate-700">
        {list.lines} {list.lines === 1 ? "line" : "lines"}
        {list.shared ? ", shared with your company: your colleagues lose it too" : ""}.
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ErrorList errors={reply?.error?.[""] ?? null} />
        <ConfirmPageForm
          action={deleteListPath(list.id)}
          hidden={{ intent: "delete" }}
          message={<p>The list and its lines go for good; your cart and orders stay as they are.</p>}
          confirmLabel="Delete the list"
          pendingLabel="Deleting…"
          backTo={listPath(list.id)}
        />
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Delete list — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
