/**
 * The review moderation services: hiding a review from the home page, showing it again, deleting
 * it. Each goes through one function here, which calls the review model and raises the audit entry.
 */
import { deleteReview, hideReview, unhideReview, type getReviewForAdmin } from "~/models/review.server";
import { truncate } from "~/domain/format";
import { audit, type AuditEvent } from "./audit-trail.server";

type By = { actor: { id: string; email: string }; context?: AuditEvent["context"] };
type AdminReview = NonNullable<Awaited<ReturnType<typeof getReviewForAdmin>>>;

/**
 * Hides, shows again or deletes `review` (as the admin's screen read it), audited when it changed:
 * "done", or why nothing changed ("already-hidden", "already-visible", "newer-visible": the
 * reviewer has a newer review on the home page, "missing": deleted meanwhile).
 */
export async function moderateReview(
  review: AdminReview,
  intent: "hide" | "unhide" | "delete",
  { actor, context }: By,
): Promise<"done" | "already-hidden" | "already-visible" | "newer-visible" | "missing"> {
  const target = { type: "review" as const, id: review.id, label: `${review.rating}★ by ${review.email}` };
  if (intent === "hide") {
    if (!(await hideReview(review.id))) return "already-hidden";
    await audit({
      context,
      actor,
      action: "review.hide",
      target,
      before: { status: review.status },
      after: { status: "hidden" },
    });
    return "done";
  }
  if (intent === "unhide") {
    const outcome = await unhideReview(review.id);
    if (outcome === "missing") return "already-visible";
    if (outcome === "newer-visible") return outcome;
    await audit({
      context,
      actor,
      action: "review.unhide",
      target,
      before: { status: review.status },
      after: { status: "visible" },
    });
    return "done";
  }
  if (!(await deleteReview(review.id))) return "missing";
  await audit({
    context,
    actor,
    action: "review.delete",
    target,
    before: { status: review.status, rating: review.rating, description: truncate(review.description, 200) },
    after: null,
  });
  return "done";
}
