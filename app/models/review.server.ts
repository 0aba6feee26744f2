import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { safeAvatar } from "~/domain/avatar";
import { coalesce } from "./coalesce.server";
import { hasPaidOrder } from "~/orders/model/reads.server";
import { isDuplicateKeyError } from "./user.server";

export const DEFAULT_AVATAR = "/images/default-avatar.svg";

const reviewSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId },
    /** The reviewer's display name and email, as the spec's user and email. */
    userName: { type: String, required: true, maxlength: 100 },
    email: { type: String, required: true, maxlength: 254 },
    img: { type: String, maxlength: 2048 },
    rating: { type: Number, required: true, min: 1, max: 5, validate: Number.isInteger },
    description: { type: String, required: true, maxlength: 1000 },
    /** The reviewer had a paid order when the review was posted. */
    verifiedBuyer: { type: Boolean, default: false },
    /** Not on the home page: hidden by an admin, or replaced by the customer's newer review. */
    hidden: { type: Boolean, default: false },
    hiddenReason: { type: String, enum: ["admin", "replaced"] },
    /** The reviewer's id while this review is their visible one (absent otherwise): see the index below. */
    visibleUserId: { type: Schema.Types.ObjectId },
  },
  { timestamps: true },
);

// Manage Reviews, newest first; the home page's visible ones, newest first.
reviewSchema.index({ createdAt: -1, _id: -1 });
reviewSchema.index({ hidden: 1, createdAt: -1, _id: -1 });
// At most one visible review per customer. A sparse unique index on a field that only visible
// reviews carry, rather than a partial index on userId: the local stand-in ignores
// partialFilterExpression (it would make userId unique outright), and sparse works on both.
reviewSchema.index({ visibleUserId: 1 }, { unique: true, sparse: true });

export type ReviewDoc = InferSchemaType<typeof reviewSchema> & { _id: Types.ObjectId };

export const Review: mongoose.Model<ReviewDoc> =
  (mongoose.models.Review as mongoose.Model<ReviewDoc>) ?? mongoose.model<ReviewDoc>("Review", reviewSchema);

export type ReviewView = {
  id: string;
  userName: string;
  img: string;
  rating: number;
  description: string;
  verifiedBuyer: boolean;
  createdAt: string;
};

export function toReviewView(doc: Partial<ReviewDoc> & { _id: Types.ObjectId }): ReviewView {
  return {
    id: doc._id.toString(),
    userName: doc.userName ?? "",
    img: safeAvatar(doc.img) ?? DEFAULT_AVATAR,
    rating: doc.rating ?? 1,
    description: doc.description ?? "",
    verifiedBuyer: doc.verifiedBuyer ?? false,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
  };
}

export async function getNewestReviews(limit: number) {
  // The home page's reviews: concurrent visitors share one read (coalesce.server.ts).
  return coalesce(`newest-reviews:${limit}`, async () => {
    const docs = await Review.find({ hidden: false })
      .select({ userName: 1, img: 1, rating: 1, description: 1, verifiedBuyer: 1, createdAt: 1 })
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean();
    return docs.map(toReviewView);
  });
}

/**
 * Posts a review as this user: name, email and avatar come from the account (the default picture
 * when there is none); reviewers with a paid order of ours are marked as verified buyers.
 */
/**
 * Posts a review as this user, replacing their visible one: the old one is hidden first (kept for
 * the admins), then the new one is inserted as the visible one. The unique index on visibleUserId
 * refuses a second visible review posted at the same moment; that post then replaces the winner.
 */
export async function createReview({
  user,
  rating,
  description,
}: {
  user: { id: string; name: string; email: string; photoUrl: string | null };
  rating: number;
  description: string;
}) {
  const verifiedBuyer = await hasPaidOrder(user.id);
  for (let attempt = 0; ; attempt++) {
    await Review.updateOne(
      { visibleUserId: user.id },
      { $set: { hidden: true, hiddenReason: "replaced" }, $unset: { visibleUserId: "" } },
    );
    try {
      const doc = await Review.create({
        userId: user.id,
        visibleUserId: user.id,
        userName: user.name,
        email: user.email,
        img: safeAvatar(user.photoUrl) ?? DEFAULT_AVATAR,
        rating,
        description,
        verifiedBuyer,
      });
      return toReviewView(doc.toObject());
    } catch (error) {
      if (!isDuplicateKeyError(error) || attempt >= 3) throw error;
    }
  }
}

export type ReviewAdminView = ReviewView & {
  email: string;
  status: "visible" | "hidden" | "replaced";
};

/** Manage Reviews: every review, newest first, one page at a time. */
export async function listReviewsForAdmin({ page, perPage }: { page: number; perPage: number }) {
  const [docs, total] = await Promise.all([
    Review.find()
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * perPage)
      .limit(perPage)
      .lean(),
    Review.countDocuments(),
  ]);
  const reviews: ReviewAdminView[] = docs.map((doc) => ({
    ...toReviewView(doc),
    email: doc.email,
    status: !doc.hidden ? "visible" : doc.hiddenReason === "replaced" ? "replaced" : "hidden",
  }));
  return { reviews, total };
}

export async function getReviewForAdmin(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return null;
  const doc = await Review.findById(id).lean();
  if (!doc) return null;
  return {
    ...toReviewView(doc),
    email: doc.email,
    status: (!doc.hidden
      ? "visible"
      : doc.hiddenReason === "replaced"
        ? "replaced"
        : "hidden") as ReviewAdminView["status"],
  };
}

/** Hides a visible review from the home page; false when there is no such visible review. */
export async function hideReview(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return false;
  const result = await Review.updateOne(
    { _id: id, hidden: false },
    { $set: { hidden: true, hiddenReason: "admin" }, $unset: { visibleUserId: "" } },
  );
  return result.modifiedCount === 1;
}

/**
 * Shows a hidden review again. "newer-visible" when its author has another visible review (one
 * visible review per customer: hide that one first); "missing" when there is no such hidden review.
 */
export async function unhideReview(id: string): Promise<"shown" | "missing" | "newer-visible"> {
  if (!/^[a-f0-9]{24}$/i.test(id)) return "missing";
  const doc = await Review.findOne({ _id: id, hidden: true }).lean();
  if (!doc) return "missing";
  try {
    const result = await Review.updateOne(
      { _id: id, hidden: true },
      {
        $set: { hidden: false, ...(doc.userId ? { visibleUserId: doc.userId } : {}) },
        $unset: { hiddenReason: "" },
      },
    );
    return result.modifiedCount === 1 ? "shown" : "missing";
  } catch (error) {
    if (isDuplicateKeyError(error)) return "newer-visible";
    throw error;
  }
}

/** Deletes a review for good; false when there is no such review. */
export async function deleteReview(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return false;
  const result = await Review.deleteOne({ _id: id });
  return result.deletedCount === 1;
}
