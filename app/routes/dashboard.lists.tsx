import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  data,
} from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CreateListForm, UploadListForm, type ListFileProblemView } from "~/components/saved-list-create";
import { SaveToListForm } from "~/components/saved-list-save";
import { SavedListsTable } from "~/components/saved-list-table";
import { safeRedirect } from "~/domain/safe-redirect";
import {
  createListSchema,
  listPath,
  saveToListSchema,
  uploadListSchema,
  type SaveToListSource,
} from "~/forms/saved-list-forms";
import { getOwnOrder } from "~/orders/model/reads.server";
import { readUploadForm } from "~/services/csv-upload.server";
import { parseForm } from "~/services/form.server";
import { requireCustomer } from "~/services/guards.server";
import { importListFile } from "~/services/saved-list-import.server";
import {
  createList,
  listChoicesFor,
  listsOf,
  saveCartToList,
  saveLinesToList,
  type Refusal,
} from "~/services/saved-lists.server";
import { redirectWithSuccess } from "~/services/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCustomer(request);
  const [lists, choices] = await Promise.all([listsOf(user), listChoicesFor(user)]);
  return data({ lists, choices }, { headers: { "Cache-Control": "private, no-store" } });
}

type ActionData = {
  intent: string;
  result: SubmissionResult<string[]>;
  problems?: ListFileProblemView[];
  /** A save from another page refused without JavaScript: its form again, here. */
  source?: SaveToListSource;
  redirectTo?: string;
};

const reply = (value: ActionData, status: number) => data<ActionData>(value, { status });

/**
 * Create a list (by name or from a CSV file), and the save forms of the part page, the cart and an
 * order: each goes to its list (or back to its page) with a toast; a refusal answers 4xx by its field.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireCustomer(request);
  const upload = await readUploadForm(request);
  if ("tooLarge" in upload) {
    return reply({ intent: "upload", result: { status: "error", error: { file: [upload.tooLarge] } } }, 413);
  }
  const form = upload.form;
  const intent = String(form.get("intent") ?? "");
  const refused = (submission: { reply: (options?: object) => SubmissionResult<string[]> }, refusal: Refusal) =>
    submission.reply(
      refusal.field ? { fieldErrors: { [refusal.field]: [refusal.message] } } : { formErrors: [refusal.message] },
    );

  if (intent === "upload") {
    const submission = parseForm(form, { schema: uploadListSchema });
    if (submission.status !== "success") return reply({ intent, result: submission.reply() }, 400);
    const imported = await importListFile(user, submission.value, context);
    if (!imported.ok) {
      return reply({ intent, result: refused(submission, imported), problems: imported.problems }, imported.status);
    }
    return redirectWithSuccess(
      listPath(imported.list.id),
      `List “${imported.list.name}” saved with ${imported.lines} lines`,
    );
  }

  if (intent.startsWith("save-")) return saveToList(form, user, context);

  const submission = parseForm(form, { schema: createListSchema });
  if (submission.status !== "success") return reply({ intent: "create", result: submission.reply() }, 400);
  const created = await createList(user, submission.value, context);
  if (!created.ok) return reply({ intent: "create", result: refused(submission, created) }, created.status);
  return redirectWithSuccess(listPath(created.list.id), `List “${created.list.name}” created: add parts to it here`);
}

type Customer = Awaited<ReturnType<typeof requireCustomer>>;

async function saveToList(form: FormData, user: Customer, context: ActionFunctionArgs["context"]) {
  const submission = parseForm(form, { schema: saveToListSchema });
  const sent = String(form.get("intent"));
  if (submission.status !== "success") return reply({ intent: sent, result: submission.reply() }, 400);
  const value = submission.value;
  const source: SaveToListSource =
    value.intent === "save-part"
      ? { intent: value.intent, partId: value.partId, minimum: 1 }
      : value.intent === "save-order"
        ? { intent: value.intent, orderId: value.orderId }
        : { intent: value.intent };
  const saved =
    value.intent === "save-cart"
      ? await saveCartToList(user, value, context)
      : value.intent === "save-part"
        ? await saveLinesToList(user, value, [{ partId: value.partId, quantity: value.quantity }], {
            context,
            typed: true,
          })
        : await saveOrderToList(user, value, context);
  if (!saved.ok) {
    const result = submission.reply(
      saved.field ? { fieldErrors: { [saved.field]: [saved.message] } } : { formErrors: [saved.message] },
    );
    return reply({ intent: sent, result, source, redirectTo: value.redirectTo }, saved.status);
  }
  const back = safeRedirect(value.redirectTo, listPath(saved.list.id));
  const lines = saved.saved === 1 ? "1 line" : `${saved.saved} lines`;
  return redirectWithSuccess(back, {
    message: `${lines} saved to your list “${saved.list.name}”`,
    ...(saved.notes.length ? { description: saved.notes.join(" ") } : {}),
  });
}

async function saveOrderToList(
  user: Customer,
  target: { orderId: string; listId: string; name?: string; shared?: boolean },
  context: ActionFunctionArgs["context"],
) {
  const order = await getOwnOrder(target.orderId, user);
  if (!order)
    return { ok: false as const, status: 404 as const, message: "We could not find that order in your account." };
  return saveLinesToList(user, target, order.lines, { context });
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function SavedListsPage() {
  const { lists, choices } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Saved Lists</h1>
      <p className="mt-1 text-slate-700">Your lists, and the lists your colleagues share with the company.</p>
      {actionData?.source ? (
        <section aria-labelledby="not-saved-heading" className="mt-4 rounded border-l-4 border-red-700 bg-red-50 p-4">
          <h2 id="not-saved-heading" className="font-semibold text-red-900">
            Not saved to a list yet
          </h2>
          <SaveToListForm
            source={actionData.source}
            lists={choices}
            redirectTo={actionData.redirectTo ?? ""}
            lastResult={actionData.result}
          />
        </section>
      ) : null}
      <SavedListsTable lists={lists} />
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="create-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="create-heading" className="text-lg font-semibold">
            Make a list
          </h2>
          <CreateListForm lastResult={actionData?.intent === "create" ? actionData.result : undefined} />
        </section>
        <section aria-labelledby="upload-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="upload-heading" className="text-lg font-semibold">
            Upload a list
          </h2>
          <UploadListForm
            lastResult={actionData?.intent === "upload" ? actionData.result : undefined}
            problems={actionData?.intent === "upload" ? actionData.problems : undefined}
          />
        </section>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Saved Lists — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
