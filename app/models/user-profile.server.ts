/**
 * What a user changes on their own account: profile fields, picture, email address and its proof,
 * and whether order updates are mailed.
 */
import { User, isDuplicateKeyError } from "./user.server";

/** The fields a user edits on My Profile; an absent optional field is cleared. */
export type ProfileUpdate = {
  name: string;
  number?: string;
  address?: string;
  education?: string;
  linkedin?: string;
};

export async function updateProfile(userId: string, update: ProfileUpdate) {
  const set: Record<string, string> = { name: update.name };
  const unset: Record<string, ""> = {};
  for (const key of ["number", "address", "education", "linkedin"] as const) {
    const value = update[key];
    if (value) set[key] = value;
    else unset[key] = "";
  }
  const result = await User.updateOne(
    { _id: userId },
    Object.keys(unset).length ? { $set: set, $unset: unset } : { $set: set },
  );
  return result.matchedCount === 1;
}

/** Sets (an address from safeAvatar) or clears the profile picture; false when there is no such user. */
export async function setPhotoUrl(userId: string, photoUrl: string | null) {
  const result = await User.updateOne(
    { _id: userId },
    photoUrl ? { $set: { photoUrl } } : { $unset: { photoUrl: "" } },
  );
  return result.matchedCount === 1;
}

/** The address is proved to be the owner's (only while it is still the account's address). */
export async function markEmailVerified(userId: string, email: string) {
  const result = await User.updateOne(
    { _id: userId, email, emailVerifiedAt: { $exists: false } },
    { $set: { emailVerifiedAt: new Date() } },
  );
  return result.modifiedCount === 1;
}

/** Turns the non-essential order emails on or off; false when there is no such user. */
export async function setOrderUpdateEmails(userId: string, on: boolean) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const result = await User.updateOne({ _id: userId }, { $set: { orderUpdateEmails: on } });
  return result.matchedCount === 1;
}

/** A proved new address (a change-of-email link): the account takes it, verified. */
export async function changeEmail(userId: string, email: string): Promise<"changed" | "taken" | "missing"> {
  try {
    const result = await User.updateOne({ _id: userId }, { $set: { email, emailVerifiedAt: new Date() } });
    return result.matchedCount === 1 ? "changed" : "missing";
  } catch (error) {
    if (isDuplicateKeyError(error)) return "taken";
    throw error;
  }
}
