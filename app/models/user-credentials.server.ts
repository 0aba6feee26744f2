/**
 * How a user signs in: a password account (its hash kept apart from every read), a Google identity
 * (found, created or linked once its owner proved the address), a new password.
 */
import { User, type UserView, toUserView, isDuplicateKeyError } from "./user.server";

export async function createPasswordUser({
  name,
  email,
  passwordHash,
}: {
  name: string;
  email: string;
  passwordHash: string;
}) {
  const doc = await User.create({ name, email, passwordHash, role: "customer" });
  return toUserView(doc.toObject());
}

/** An account's password hash by id (null for a Google-only account or no such user). */
export async function getPasswordHashOf(userId: string) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return null;
  const doc = await User.findById(userId).select("+passwordHash").lean();
  return doc?.passwordHash || null;
}

/** The user and their password hash (null for an unknown email or a Google-only account). */
export async function getUserWithPasswordHash(email: string) {
  const doc = await User.findOne({ email: email.trim().toLowerCase() }).select("+passwordHash").lean();
  if (!doc) return null;
  return { user: toUserView(doc), passwordHash: doc.passwordHash || null };
}

export class GoogleAccountConflictError extends Error {}

/** The email belongs to an account whose owner never proved it: linking would hand it to Google's user. */
export class GoogleAccountUnverifiedError extends Error {}

/**
 * The email belongs to a password account not linked to Google yet: its owner proves it by signing
 * in with the password once (app/services/google-sign-in.server.ts), never by Google's word alone.
 */
export class GoogleAccountNeedsProofError extends Error {}

/**
 * Signs in with a Google identity whose email Google has verified: the account linked to this
 * Google id, else a new customer account. An existing account with this email is never linked
 * here (GoogleAccountNeedsProofError): see linkGoogleAccount.
 * Google's name and picture fill a new account; the picture also fills an existing account that
 * has no photo yet.
 */
export async function findOrCreateGoogleUser({
  googleId,
  email,
  name,
  photoUrl,
}: {
  googleId: string;
  email: string;
  name: string;
  photoUrl?: string;
}): Promise<UserView> {
  const normalized = email.trim().toLowerCase();
  const linked = await User.findOne({ googleId }).lean();
  if (linked) {
    if (!linked.photoUrl && photoUrl) await User.updateOne({ _id: linked._id }, { $set: { photoUrl } });
    return toUserView({ ...linked, photoUrl: linked.photoUrl || photoUrl });
  }
  const existing = await User.findOne({ email: normalized }).lean();
  if (existing) {
    if (existing.googleId && existing.googleId !== googleId) {
      throw new GoogleAccountConflictError("This email address is linked to a different Google account.");
    }
    // Anyone can sign up with someone else's address and a password of their own: link only an
    // account whose owner has proved the address, or the stranger's password would keep opening it.
    if (!existing.emailVerifiedAt) {
      throw new GoogleAccountUnverifiedError("This email address belongs to an account that is not verified.");
    }
    if (existing.googleId === googleId) return toUserView(existing);
    throw new GoogleAccountNeedsProofError("This email address belongs to a password account not linked to Google.");
  }
  try {
    const doc = await User.create({
      email: normalized,
      name,
      googleId,
      photoUrl,
      role: "customer",
      // Google has verified the address (verifyGoogleProfile refuses it otherwise).
      emailVerifiedAt: new Date(),
    });
    return toUserView(doc.toObject());
  } catch (error) {
    // Two callbacks for the same new account at once: the other one created it.
    if (isDuplicateKeyError(error)) return findOrCreateGoogleUser({ googleId, email, name, photoUrl });
    throw error;
  }
}

/**
 * Links a Google identity to an account whose owner has just proved it (signed in with its
 * password): only while the account has no Google id and still has this email. False otherwise.
 */
export async function linkGoogleAccount(userId: string, link: { googleId: string; email: string; photoUrl?: string }) {
  if (await User.exists({ googleId: link.googleId })) return false;
  const result = await User.updateOne(
    { _id: userId, email: link.email, googleId: { $exists: false } },
    { $set: { googleId: link.googleId } },
  );
  if (result.modifiedCount === 1 && link.photoUrl) {
    await User.updateOne({ _id: userId, photoUrl: { $in: [null, ""] } }, { $set: { photoUrl: link.photoUrl } });
  }
  return result.modifiedCount === 1;
}

/** Sets a new password (a reset; also gives a Google-only account a password). */
export async function setPasswordHash(userId: string, passwordHash: string) {
  const result = await User.updateOne({ _id: userId }, { $set: { passwordHash } });
  return result.matchedCount === 1;
}
