import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmPageForm } from "~/components/confirm-dialog";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getReviewForAdmin } from "~/models/review.server";
import { requireAdmin } from "~/services/guards.server";
import { truncate } from "~/domain/format";

/** The delete confirmation of Manage Reviews as a page (the modal, without JavaScript). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const review = await getReviewForAdmin(params.id ?? "");
  if (!review) throw new Response("That review no longer exists.", { status: 404 });
  return data(
    { review: { id: review.id, userName: review.userName, description: truncate(review.description, 200) } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function DeleteReviewPage() {
  const { review } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-lg px-4 py-10">
      <h1 className="text-2xl font-bold">Delete the review by {review.userName}?</h1>
      <p className="mt-2 text-slate-700">{review.description}</p>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <ConfirmPageForm
          action="/dashboard/reviews"
          hidden={{ intent: "delete", reviewId: review.id }}
          message={<p>The review is removed for good. To take it off the home page only, hide it.</p>}
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          backTo="/dashboard/reviews"
        />
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Delete review — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
