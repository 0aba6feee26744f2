import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ConfirmDialog, ConfirmFetcherForm, confirmLinkClass, replyErrors } from "~/components/confirm-dialog";
import { Pagination } from "~/components/pagination";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, SubmitButton } from "~/components/forms";
import { StarRating } from "~/components/storefront";
import { DataTable, type Column } from "~/components/ui/data-table";
import { getReviewForAdmin, listReviewsForAdmin } from "~/models/review.server";
import { moderateReview } from "~/services/reviews.server";
import { requireAdmin } from "~/services/guards.server";
import { parseForm, readForm } from "~/services/form.server";
import { truncate } from "~/domain/format";
import { formatDateTime } from "~/format";
import { parsePage, reviewModerationSchema } from "~/forms/shop-forms";
import { redirectWithSuccess } from "~/services/toast.server";

const PER_PAGE = 20;

const STATUS_LABELS = {
  visible: "On the home page",
  hidden: "Hidden by an admin",
  replaced: "Replaced by a newer review",
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const { reviews, total } = await listReviewsForAdmin({ page, perPage: PER_PAGE });
  return data(
    {
      reviews: reviews.map(({ id, userName, email, rating, description, status, createdAt }) => ({
        id,
        userName,
        email,
        rating,
        description: truncate(description, 200),
        status,
        createdAt,
      })),
      page,
      pageCount: Math.max(1, Math.ceil(total / PER_PAGE)),
      total,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseForm(await readForm(request), { schema: reviewModerationSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { intent, reviewId } = submission.value;
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const back = `/dashboard/reviews${page > 1 ? `?page=${page}` : ""}`;
  const review = await getReviewForAdmin(reviewId);
  const refuse = (message: string, status: number) => data(submission.reply({ formErrors: [message] }), { status });
  if (!review) return refuse("That review no longer exists.", 404);
  const outcome = await moderateReview(review, intent, { actor: admin, context });
  if (outcome === "already-hidden") return refuse("That review is already hidden.", 409);
  if (outcome === "already-visible") return refuse("That review is already on the home page.", 409);
  if (outcome === "newer-visible") {
    return refuse(`${review.userName} has a newer review on the home page: hide that one first.`, 409);
  }
  if (outcome === "missing") return refuse("That review no longer exists.", 404);
  if (intent === "hide") {
    return redirectWithSuccess(back, `The review by ${review.userName} is hidden from the home page.`);
  }
  if (intent === "unhide") {
    return redirectWithSuccess(back, `The review by ${review.userName} is on the home page again.`);
  }
  return redirectWithSuccess(back, `The review by ${review.userName} is deleted.`);
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const COLUMNS: Column[] = [
  { label: "Reviewer" },
  { label: "Rating" },
  { label: "Review" },
  { label: "Status" },
  { label: "Actions" },
];

export default function ManageReviews() {
  const { reviews, page, pageCount, total } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pendingId = navigation.state !== "idle" ? navigation.formData?.get("reviewId") : null;
  const formErrors = replyErrors(lastResult);
  const action = `/dashboard/reviews${page > 1 ? `?page=${page}` : ""}`;

  return (
    <section aria-labelledby="reviews-heading">
      <h1 id="reviews-heading" className="text-2xl font-bold text-slate-900">
        Reviews
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        {total} {total === 1 ? "review" : "reviews"}, newest first. The home page shows the newest visible ones; each
        customer has at most one visible review.
      </p>
      <ErrorList errors={formErrors} />
      <DataTable caption="Reviews, newest first" columns={COLUMNS}>
        {reviews.map((review) => (
          <tr key={review.id} data-testid="review-row" data-status={review.status}>
            <th scope="row" className="px-4 py-3 font-medium text-slate-900 [overflow-wrap:anywhere] md:min-w-44">
              {review.userName}
              <span className="block text-xs font-normal text-slate-600">{review.email}</span>
              <span className="block text-xs font-normal text-slate-600">{formatDateTime(review.createdAt)}</span>
            </th>
            <td className="px-4 py-3" data-label="Rating">
              <StarRating rating={review.rating} />
            </td>
            <td className="px-4 py-3 text-slate-800 max-md:col-span-2" data-label="Review">
              {review.description}
            </td>
            <td className="px-4 py-3 text-slate-800" data-label="Status">
              {STATUS_LABELS[review.status]}
            </td>
            <td className="px-4 py-3 max-md:col-span-2">
              <div className="flex flex-wrap gap-2">
                <Form method="post" action={action}>
                  <input type="hidden" name="intent" value={review.status === "visible" ? "hide" : "unhide"} />
                  <input type="hidden" name="reviewId" value={review.id} />
                  <SubmitButton
                    variant="secondary"
                    pending={pendingId === review.id && navigation.formData?.get("intent") !== "delete"}
                    pendingText={review.status === "visible" ? "Hiding…" : "Showing…"}
                    className="px-3 py-1 text-sm"
                  >
                    {review.status === "visible" ? "Hide" : "Show"}
                    <span className="sr-only"> the review by {review.userName}</span>
                  </SubmitButton>
                </Form>
                <ConfirmDialog
                  label="Delete"
                  accessibleLabel={`Delete the review by ${review.userName}`}
                  href={`/dashboard/reviews/${review.id}/delete`}
                  title={`Delete the review by ${review.userName}?`}
                  className={confirmLinkClass}
                >
                  {(close) => (
                    <ConfirmFetcherForm
                      action={action}
                      hidden={{ intent: "delete", reviewId: review.id }}
                      message={<p>The review is removed for good. To take it off the home page only, hide it.</p>}
                      confirmLabel="Delete"
                      pendingLabel="Deleting…"
                      onKeep={close}
                    />
                  )}
                </ConfirmDialog>
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pagination page={page} pageCount={pageCount} label="Pages of reviews" />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Reviews — PartsWorks" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
