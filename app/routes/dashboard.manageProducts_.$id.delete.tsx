import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmPageForm } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getPart } from "~/models/part.server";
import { requireAdmin } from "~/services/guards.server";
import { formatCents, formatQuantity } from "~/format";

/**
 * The delete confirmation as a page (the modal of Manage Products, without JavaScript). Its form
 * posts to the Manage Products action, like the modal's.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const part = await getPart(params.id ?? "");
  if (!part) throw new Response("That part no longer exists.", { status: 404 });
  return data(
    { part: { id: part.id, name: part.name, priceCents: part.priceCents, availableQuantity: part.availableQuantity } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function DeletePartPage() {
  const { part } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Delete {part.name}?</h1>
      <p className="mt-2 text-slate-700">
        {formatCents(part.priceCents)} per unit, {formatQuantity(part.availableQuantity)} in stock
      </p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ConfirmPageForm
          action="/dashboard/manageProducts"
          hidden={{ intent: "delete", partId: part.id }}
          message={
            <p>
              {part.name} will disappear from the shop. Orders already placed keep their copy of its name and price.
            </p>
          }
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          backTo="/dashboard/manageProducts"
        />
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Delete part — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
