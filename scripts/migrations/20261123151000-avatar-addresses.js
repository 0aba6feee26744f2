/**
 * Avatars come only from a picture uploaded to our own storage, the Google account's picture
 * (app/domain/avatar.ts) or the default picture: a photo address someone typed (any other host) is
 * removed from users, and reviews that copied one get the default picture. The app ignores such
 * addresses when reading too; this migration takes them out of the data.
 *
 * Idempotent: it only touches documents that still hold such an address.
 */
const DEFAULT_AVATAR = "/images/default-avatar.svg";
const GOOGLE = /^https:\/\/([a-z0-9-]+\.)*googleusercontent\.com\//i;
/** A picture uploaded to our own storage (app/domain/avatar.ts). */
const OWN = /^\/avatars\/[a-f0-9]{32}\.(png|jpg|webp)$/;
const allowed = (url) => GOOGLE.test(String(url)) || OWN.test(String(url));

export async function up(db) {
  const users = db.collection("users");
  for await (const user of users.find({ photoUrl: { $exists: true } }, { projection: { photoUrl: 1 } })) {
    if (!allowed(user.photoUrl)) {
      await users.updateOne({ _id: user._id, photoUrl: user.photoUrl }, { $unset: { photoUrl: "" } });
    }
  }
  const reviews = db.collection("reviews");
  for await (const review of reviews.find({ img: { $exists: true } }, { projection: { img: 1 } })) {
    if (review.img !== DEFAULT_AVATAR && !allowed(review.img)) {
      await reviews.updateOne({ _id: review._id, img: review.img }, { $set: { img: DEFAULT_AVATAR } });
    }
  }
}

/** The removed addresses are gone for good: nothing to put back. */
export async function down() {}
