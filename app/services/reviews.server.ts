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
  by: By,
): Promise<"done" | "already-hidden" | "already-visible" | "newer-visible" | "missing"> {
  if (intent === "hide") {
    if (!(await hideReview(review.id))) return "already-hidden";
    await auditReview(review, "review.hide", { status: "hidden" }, by);
    return "done";
  }
  if (intent === "unhide") {
    const outcome = await unhideReview(review.id);
    if (outcome === "missing") return "already-visible";
    if (outcome === "newer-visible") return outcome;
    await auditReview(review, "review.unhide", { status: "visible" }, by);
    return "done";
  }
  if (!(await deleteReview(review.id))) return "missing";
  await auditReview(review, "review.delete", null, by, {
    rating: review.rating,
    description: truncate(review.description, 200),
  });
  return "done";
}

/** The audit entry of a moderation: the review as the admin saw it (its status, and `seen` besides), and after. */
function auditReview(
  review: AdminReview,
  action: "review.hide" | "review.unhide" | "review.delete",
  after: { status: "hidden" | "visible" } | null,
  { actor, context }: By,
  seen: Record<string, unknown> = {},
) {
  return audit({
    context,
    actor,
    action,
    target: { type: "review", id: review.id, label: `${review.rating}★ by ${review.email}` },
    before: { status: review.status, ...seen },
    after,
  });
}
