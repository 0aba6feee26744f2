import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";
import { safeAvatar } from "~/utils/avatar";
import type { TaxProfile } from "~/utils/tax";

export const ROLES = ["customer", "admin"] as const;
export type Role = (typeof ROLES)[number];

const userSchema = new Schema(
  {
    email: { type: String, required: true, trim: true, lowercase: true, maxlength: 254 },
    name: { type: String, required: true, trim: true, maxlength: 100 },
    role: { type: String, enum: ROLES, required: true, default: "customer" },
    /** argon2id hash; absent for accounts that only sign in with Google. */
    passwordHash: { type: String, select: false },
    googleId: { type: String },
    /** When the owner proved the email is theirs (a link we mailed, or Google saying so). */
    emailVerifiedAt: { type: Date },
    /** Avatar shown on the profile and on reviews: the Google account's picture only (utils/avatar.ts). */
    photoUrl: { type: String, trim: true, maxlength: 2048 },
    number: { type: String, trim: true, maxlength: 40 },
    address: { type: String, trim: true, maxlength: 300 },
    education: { type: String, trim: true, maxlength: 200 },
    linkedin: { type: String, trim: true, maxlength: 2048 },
    /** Trade account (My Profile): company details and an address book of at most 20 delivery addresses. */
    companyName: { type: String, trim: true, maxlength: 120 },
    taxId: { type: String, trim: true, maxlength: 30 },
    country: { type: String, trim: true, maxlength: 8 },
    billingAddress: { type: String, trim: true, maxlength: 300 },
    addresses: {
      type: [
        {
          label: { type: String, trim: true, maxlength: 60 },
          address: { type: String, required: true, maxlength: 300 },
          /** The address folded (case, spacing) so one conditional update can refuse a duplicate. */
          key: { type: String, maxlength: 300 },
        },
      ],
      default: undefined,
    },
    defaultAddressId: { type: Schema.Types.ObjectId },
    /** false: the customer turned off the non-essential order emails (placed, cancelled or removed). */
    orderUpdateEmails: { type: Boolean },
    /**
     * This customer's own caps on orders awaiting card payment (how many, and their total in
     * cents), set by an admin; unset, the shop's defaults apply (order-caps.server.ts).
     */
    unpaidOrdersCap: { type: Number, min: 0, validate: Number.isInteger },
    unpaidValueCapCents: { type: Number, min: 0, validate: Number.isInteger },
    /**
     * Trade terms set by an admin: net days to pay an order on account (0: card only) and the most
     * that may be open on account. One sub-document, so it can move to a company as a whole.
     */
    account: {
      type: new Schema(
        {
          termsDays: { type: Number, default: 0, min: 0 },
          creditLimitCents: { type: Number, default: 0, min: 0 },
          /** The customer's price group (models/price-group.server.ts); unset: list prices. */
          priceGroupId: { type: Schema.Types.ObjectId },
          /** Tax details an admin recorded (utils/tax.ts): where the buyer is taxed and why not. */
          tax: {
            type: new Schema(
              {
                country: { type: String, trim: true, maxlength: 8 },
                state: { type: String, trim: true, maxlength: 2 },
                vatNumber: { type: String, trim: true, maxlength: 30 },
                exemptionCertificate: { type: String, trim: true, maxlength: 60 },
              },
              { _id: false },
            ),
          },
        },
        { _id: false },
      ),
    },
  },
  { timestamps: true },
);

userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ googleId: 1 }, { sparse: true });
userSchema.index({ createdAt: -1, _id: -1 });
// The admins who get the shop's notices (paid orders to ship, low stock).
userSchema.index({ role: 1 });
// How many customers a price group has (a group in use is not deleted).
userSchema.index({ "account.priceGroupId": 1 }, { sparse: true });

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId };

export const User: mongoose.Model<UserDoc> =
  (mongoose.models.User as mongoose.Model<UserDoc>) ?? mongoose.model<UserDoc>("User", userSchema);

export type UserView = {
  id: string;
  email: string;
  name: string;
  role: Role;
  photoUrl: string | null;
  number: string;
  address: string;
  education: string;
  linkedin: string;
  company: { companyName: string; taxId: string; country: string; billingAddress: string };
  addresses: { id: string; label: string; address: string; isDefault: boolean }[];
  emailVerified: boolean;
  /** Order updates by email (on unless turned off; receipts and shipping notices are always sent). */
  orderUpdateEmails: boolean;
  /** The customer's own caps on unpaid card orders (null: the shop's default). */
  unpaidCaps: { orders: number | null; valueCents: number | null };
  /** Trade terms: net days on account (0: card only) and the credit limit in cents. */
  account: AccountTerms;
  /** The account's price group and tax details. */
  pricing: AccountPricing;
};

export type AccountTerms = { termsDays: number; creditLimitCents: number };

/** What the account says about prices and tax: the price group (or null) and the tax details (or null). */
export type AccountPricing = { priceGroupId: string | null; tax: TaxProfile | null };

export function accountPricingOf(doc: Partial<UserDoc>): AccountPricing {
  const tax = doc.account?.tax;
  return {
    priceGroupId: doc.account?.priceGroupId ? String(doc.account.priceGroupId) : null,
    tax: tax?.country
      ? {
          country: tax.country,
          state: tax.state || null,
          vatNumber: tax.vatNumber || null,
          exemptionCertificate: tax.exemptionCertificate || null,
        }
      : null,
  };
}

/** Sets a customer's price group (null: none); false for an admin or no such user. */
export async function setPriceGroup(userId: string, priceGroupId: string | null) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const update = priceGroupId
    ? { $set: { "account.priceGroupId": priceGroupId } }
    : { $unset: { "account.priceGroupId": "" } };
  const result = await User.updateOne({ _id: userId, role: "customer" }, update);
  return result.matchedCount === 1;
}

/** Records a customer's tax details (null: none recorded); false for an admin or no such user. */
export async function setTaxProfile(userId: string, tax: TaxProfile | null) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const update = tax ? { $set: { "account.tax": tax } } : { $unset: { "account.tax": "" } };
  const result = await User.updateOne({ _id: userId, role: "customer" }, update);
  return result.matchedCount === 1;
}

/** How many customers are in a price group (a group in use is not deleted). */
export async function countInPriceGroup(priceGroupId: string) {
  if (!/^[a-f0-9]{24}$/i.test(priceGroupId)) return 0;
  return User.countDocuments({ "account.priceGroupId": priceGroupId });
}

/** The address book; the chosen default, or the first address when none (or a deleted one) is chosen. */
function addressBookOf(doc: Partial<UserDoc>) {
  const entries = doc.addresses ?? [];
  const chosen = doc.defaultAddressId ? String(doc.defaultAddressId) : null;
  const defaultId = entries.some((entry) => String(entry._id) === chosen)
    ? chosen
    : entries[0]
      ? String(entries[0]._id)
      : null;
  return entries.map((entry) => ({
    id: String(entry._id),
    label: entry.label ?? "",
    address: entry.address,
    isDefault: String(entry._id) === defaultId,
  }));
}

export function toUserView(doc: Partial<UserDoc> & { _id: Types.ObjectId }): UserView {
  return {
    id: doc._id.toString(),
    email: doc.email ?? "",
    name: doc.name ?? "",
    role: (doc.role as Role) ?? "customer",
    photoUrl: safeAvatar(doc.photoUrl),
    number: doc.number ?? "",
    address: doc.address ?? "",
    education: doc.education ?? "",
    linkedin: doc.linkedin ?? "",
    company: {
      companyName: doc.companyName ?? "",
      taxId: doc.taxId ?? "",
      country: doc.country ?? "",
      billingAddress: doc.billingAddress ?? "",
    },
    addresses: addressBookOf(doc),
    emailVerified: Boolean(doc.emailVerifiedAt),
    orderUpdateEmails: doc.orderUpdateEmails !== false,
    unpaidCaps: { orders: doc.unpaidOrdersCap ?? null, valueCents: doc.unpaidValueCapCents ?? null },
    account: { termsDays: doc.account?.termsDays ?? 0, creditLimitCents: doc.account?.creditLimitCents ?? 0 },
    pricing: accountPricingOf(doc),
  };
}

/** Sets a customer's trade terms; false for an admin account (or no such user): terms are for customers. */
export async function setAccountTerms(userId: string, terms: AccountTerms) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const result = await User.updateOne(
    { _id: userId, role: "customer" },
    { $set: { "account.termsDays": terms.termsDays, "account.creditLimitCents": terms.creditLimitCents } },
  );
  return result.matchedCount === 1;
}

export async function getUserById(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return null;
  const doc = await User.findById(id).lean();
  return doc ? toUserView(doc) : null;
}

/** Names and emails of the given users, by id (for screens that name people, such as the audit log). */
export async function getUserNames(ids: string[]) {
  const valid = [...new Set(ids)].filter((id) => /^[a-f0-9]{24}$/i.test(id));
  if (valid.length === 0) return new Map<string, { name: string; email: string }>();
  const docs = await User.find({ _id: { $in: valid } }, { name: 1, email: 1 }).lean();
  return new Map(docs.map((doc) => [doc._id.toString(), { name: doc.name ?? "", email: doc.email ?? "" }]));
}

export async function getUserByEmail(email: string) {
  const doc = await User.findOne({ email: email.trim().toLowerCase() }).lean();
  return doc ? toUserView(doc) : null;
}

/** An admin sets (or, with null, clears) a customer's own caps on unpaid card orders. */
export async function setUnpaidCaps(userId: string, caps: { orders: number | null; valueCents: number | null }) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return null;
  const set: Record<string, number> = {};
  const unset: Record<string, ""> = {};
  if (caps.orders === null) unset.unpaidOrdersCap = "";
  else set.unpaidOrdersCap = caps.orders;
  if (caps.valueCents === null) unset.unpaidValueCapCents = "";
  else set.unpaidValueCapCents = caps.valueCents;
  const doc = await User.findOneAndUpdate(
    { _id: userId, role: "customer" },
    { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) },
    { returnDocument: "after", runValidators: true },
  ).lean();
  return doc ? toUserView(doc) : null;
}

export function isDuplicateKeyError(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

/** The fields a user edits on My Profile; an absent optional field is cleared. */
export type ProfileUpdate = {
  name: string;
  number?: string;
  address?: string;
  education?: string;
  linkedin?: string;
};

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

/** Newest first, one page at a time. */
export async function listUsers({ page, perPage }: { page: number; perPage: number }) {
  const [docs, total] = await Promise.all([
    User.find()
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * perPage)
      .limit(perPage)
      .lean(),
    User.countDocuments(),
  ]);
  return { users: docs.map(toUserView), total };
}

/** Promotes a user; false when there is no such user or they are already an admin. */
export async function makeAdmin(userId: string) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const result = await User.updateOne({ _id: userId, role: { $ne: "admin" } }, { $set: { role: "admin" } });
  return result.modifiedCount === 1;
}

/**
 * Takes the admin role from a user, never from the last admin: "not-admin" when there is no such
 * admin, "last-admin" when no other admin would remain.
 */
export async function demoteAdmin(userId: string): Promise<"demoted" | "not-admin" | "last-admin"> {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return "not-admin";
  if ((await User.countDocuments({ role: "admin" })) < 2) {
    return (await User.exists({ _id: userId, role: "admin" })) ? "last-admin" : "not-admin";
  }
  const result = await User.updateOne({ _id: userId, role: "admin" }, { $set: { role: "customer" } });
  if (result.modifiedCount !== 1) return "not-admin";
  // Demote, then count: if concurrent demotions left no admin, each one that sees zero puts its admin back.
  if ((await User.countDocuments({ role: "admin" })) === 0) {
    await User.updateOne({ _id: userId, role: "customer" }, { $set: { role: "admin" } });
    return "last-admin";
  }
  return "demoted";
}

export class GoogleAccountConflictError extends Error {}
/** The email belongs to an account whose owner never proved it: linking would hand it to Google's user. */
export class GoogleAccountUnverifiedError extends Error {}

/**
 * The email belongs to a password account not linked to Google yet: its owner proves it by signing
 * in with the password once (app/utils/auth.server.ts), never by Google's word alone.
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

/** The admins' addresses (for the shop's own notices). */
export async function listAdminRecipients() {
  const docs = await User.find({ role: "admin" }).select({ email: 1, name: 1 }).lean();
  return docs.map((doc) => ({ id: doc._id.toString(), email: doc.email, name: doc.name }));
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
