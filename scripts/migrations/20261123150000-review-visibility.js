/**
 * Reviews get a visibility: `hidden` (false for every existing review) and, for a customer's
 * newest review, `visibleUserId` (the field behind the one-visible-review-per-customer index).
 * A customer's older reviews become hidden as replaced, as a new post does from now on.
 *
 * Idempotent: only reviews without `hidden` are touched, each by a conditional update.
 */
export async function up(db) {
  const reviews = db.collection("reviews");
  const seen = new Set(
    (await reviews.distinct("visibleUserId", { visibleUserId: { $exists: true } })).map((id) => String(id)),
  );
  const cursor = reviews.find({ hidden: { $exists: false } }).sort({ createdAt: -1, _id: -1 });
  for await (const review of cursor) {
    const owner = review.userId ? String(review.userId) : null;
    if (owner && !seen.has(owner)) {
      seen.add(owner);
      await reviews.updateOne(
        { _id: review._id, hidden: { $exists: false } },
        { $set: { hidden: false, visibleUserId: review.userId } },
      );
    } else if (owner) {
      await reviews.updateOne(
        { _id: review._id, hidden: { $exists: false } },
        { $set: { hidden: true, hiddenReason: "replaced" } },
      );
    } else {
      await reviews.updateOne({ _id: review._id, hidden: { $exists: false } }, { $set: { hidden: false } });
    }
  }
}

export async function down(db) {
  await db.collection("reviews").updateMany({}, { $unset: { hidden: "", hiddenReason: "", visibleUserId: "" } });
}
