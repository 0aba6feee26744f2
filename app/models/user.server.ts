import mongoose, { Schema, Types, type InferSchemaType } from "mongoose";
import {
  COMPANY_ROLES,
  Company,
  getOrCreateCompany,
  toCompanyView,
  type AccountPricing,
  type AccountTerms,
  type CompanyAddress,
  type CompanyDetails,
  type CompanyDoc,
  type CompanyRole,
  type CompanyView,
} from "./company.server";
import { safeAvatar } from "~/domain/avatar";

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
    /** Avatar shown on the profile and on reviews: the Google account's picture only (domain/avatar.ts). */
    photoUrl: { type: String, trim: true, maxlength: 2048 },
    number: { type: String, trim: true, maxlength: 40 },
    address: { type: String, trim: true, maxlength: 300 },
    education: { type: String, trim: true, maxlength: 200 },
    linkedin: { type: String, trim: true, maxlength: 2048 },
    /** The company this person belongs to (every user belongs to exactly one) and their role in it. */
    companyId: { type: Schema.Types.ObjectId },
    companyRole: { type: String, enum: COMPANY_ROLES },
    /** A buyer's limit per order, in cents: an order over it waits for an owner's approval (unset: none). */
    spendingLimitCents: { type: Number, min: 0, validate: Number.isInteger },
    /** false: the customer turned off the non-essential order emails (placed, cancelled or removed). */
    orderUpdateEmails: { type: Boolean },
  },
  { timestamps: true },
);

userSchema.index({ email: 1 }, { unique: true });

userSchema.index({ googleId: 1 }, { sparse: true });

userSchema.index({ createdAt: -1, _id: -1 });

// The admins who get the shop's notices (paid orders to ship, low stock).
userSchema.index({ role: 1 });

// A company's members, and All Users filtered by company.
userSchema.index({ companyId: 1, createdAt: -1, _id: -1 });

// A new user without a company gets a company of one, as its owner (sign-up, Google, admin:create,
// demo data, tests): the id is set before the user is written, the company right after; a company
// that write lost is created on first read (getOrCreateCompany).
userSchema.pre("save", function () {
  if (this.isNew && !this.companyId) {
    this.companyId = new Types.ObjectId();
    this.companyRole = "owner";
    this.$locals.newCompany = true;
  }
});

userSchema.post("save", async function () {
  if (!this.$locals.newCompany) return;
  delete this.$locals.newCompany;
  await Company.updateOne({ _id: this.companyId }, { $setOnInsert: { ownerCount: 1 } }, { upsert: true });
});

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
  /** The company this person belongs to, their role in it and (a buyer) their limit per order. */
  companyId: string;
  companyRole: CompanyRole;
  spendingLimitCents: number | null;
  /** The company's details and address book (read through the company: customerAccountOf). */
  company: CompanyDetails;
  addresses: CompanyAddress[];
  emailVerified: boolean;
  /** Order updates by email (on unless turned off; receipts and shipping notices are always sent). */
  orderUpdateEmails: boolean;
  /** The company's own caps on unpaid card orders (null: the shop's default). */
  unpaidCaps: { orders: number | null; valueCents: number | null };
  /** The company's trade terms: net days on account (0: card only) and the credit limit in cents. */
  account: AccountTerms;
  /** The account's price group and tax details. */
  pricing: AccountPricing;
};

export type { AccountTerms } from "./company.server";

export type { AccountPricing } from "./company.server";

export { accountPricingOf, countInPriceGroup } from "./company.server";

/**
 * The user as screens read them. Everything that describes the customer (company details, address
 * book, terms, caps) comes from their company; without it (a list that did not read companies) those
 * read as empty.
 */
export function toUserView(doc: Partial<UserDoc> & { _id: Types.ObjectId }, company?: CompanyView | null): UserView {
  const companyId = doc.companyId ? String(doc.companyId) : "";
  const shared = company ?? toCompanyView({ _id: doc.companyId ?? doc._id });
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
    companyId,
    companyRole: (doc.companyRole as CompanyRole) ?? "owner",
    spendingLimitCents: doc.spendingLimitCents ?? null,
    company: shared.company,
    addresses: shared.addresses,
    emailVerified: Boolean(doc.emailVerifiedAt),
    orderUpdateEmails: doc.orderUpdateEmails !== false,
    unpaidCaps: shared.unpaidCaps,
    account: shared.account,
    pricing: shared.pricing,
  };
}

/** The customer's account as the company holds it: details, addresses, terms and caps. */
export function customerAccountOf(user: UserView) {
  return {
    companyId: user.companyId,
    company: user.company,
    addresses: user.addresses,
    account: user.account,
    unpaidCaps: user.unpaidCaps,
  };
}

/**
 * A user's company id: a user written before companies existed (and not migrated yet) gets a company
 * of one here, with one conditional update so two requests at once agree on it.
 */
export async function companyIdOfUser(userId: string) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return null;
  const doc = await User.findById(userId, { companyId: 1 }).lean();
  if (!doc) return null;
  if (doc.companyId) return String(doc.companyId);
  await User.updateOne(
    { _id: userId, companyId: { $exists: false } },
    { $set: { companyId: new Types.ObjectId(), companyRole: "owner" } },
  );
  const after = await User.findById(userId, { companyId: 1 }).lean();
  return after?.companyId ? String(after.companyId) : null;
}

/** A user with their company read (and created, for a user that has none yet). */
async function withCompany(doc: UserDoc) {
  const companyId = doc.companyId ? String(doc.companyId) : await companyIdOfUser(String(doc._id));
  if (!companyId) return toUserView(doc);
  const company = await getOrCreateCompany(companyId);
  return toUserView({ ...doc, companyId: new Types.ObjectId(companyId) }, company);
}

export async function getUserById(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return null;
  const doc = await User.findById(id).lean();
  return doc ? withCompany(doc) : null;
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
  return doc ? withCompany(doc) : null;
}

export function isDuplicateKeyError(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}

/** Newest first, one page at a time; with `companyId`, that company's members only. */
export async function listUsers({ page, perPage, companyId }: { page: number; perPage: number; companyId?: string }) {
  const filter = companyId && /^[a-f0-9]{24}$/i.test(companyId) ? { companyId } : {};
  const [docs, total] = await Promise.all([
    User.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * perPage)
      .limit(perPage)
      .lean(),
    User.countDocuments(filter),
  ]);
  const companyIds = docs.flatMap((doc) => (doc.companyId ? [doc.companyId] : []));
  const companies = await Company.find({ _id: { $in: companyIds } }).lean();
  const byId = new Map(companies.map((company) => [String(company._id), toCompanyView(company as CompanyDoc)]));
  return { users: docs.map((doc) => toUserView(doc, byId.get(String(doc.companyId)))), total };
}

/** The admins' addresses (for the shop's own notices). */
export async function listAdminRecipients() {
  const docs = await User.find({ role: "admin" }).select({ email: 1, name: 1 }).lean();
  return docs.map((doc) => ({ id: doc._id.toString(), email: doc.email, name: doc.name }));
}
