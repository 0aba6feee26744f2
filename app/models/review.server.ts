import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { coalesce } from "~/utils/coalesce.server";
import { hasPaidOrder } from "./order.server";

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
  },
  { timestamps: true },
);

reviewSchema.index({ createdAt: -1, _id: -1 });

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
    img: doc.img || DEFAULT_AVATAR,
    rating: doc.rating ?? 1,
    description: doc.description ?? "",
    verifiedBuyer: doc.verifiedBuyer ?? false,
    createdAt: (doc.createdAt ?? new Date(0)).toISOString(),
  };
}

export async function getNewestReviews(limit: number) {
  // The home page's reviews: concurrent visitors share one read (coalesce.server.ts).
  return coalesce(`newest-reviews:${limit}`, async () => {
    const docs = await Review.find()
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
  const doc = await Review.create({
    userId: user.id,
    userName: user.name,
    email: user.email,
    img: user.photoUrl || DEFAULT_AVATAR,
    rating,
    description,
    verifiedBuyer,
  });
  return toReviewView(doc.toObject());
}
