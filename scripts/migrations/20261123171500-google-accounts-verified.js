/**
 * Accounts linked to Google count as verified: Google has verified the address, and an account is
 * linked only when its email is Google's. Accounts created or linked before verification existed
 * have no `emailVerifiedAt` and would see the "Please confirm your email address" banner; they get
 * the time of this migration.
 *
 * Idempotent: only users with a Google id and no verification are touched, in one conditional update.
 */
export async function up(db) {
  await db
    .collection("users")
    .updateMany(
      { googleId: { $exists: true, $nin: [null, ""] }, emailVerifiedAt: null },
      { $set: { emailVerifiedAt: new Date() } },
    );
}

/** Which accounts were verified this way is not recorded: nothing to undo. */
export async function down() {}
