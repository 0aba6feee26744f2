import mongoose, { Schema, type InferSchemaType, type Types } from "mongoose";

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
    /** Avatar shown on the profile and on reviews. */
    photoUrl: { type: String, trim: true, maxlength: 2048 },
    number: { type: String, trim: true, maxlength: 40 },
    address: { type: String, trim: true, maxlength: 300 },
    education: { type: String, trim: true, maxlength: 200 },
    linkedin: { type: String, trim: true, maxlength: 2048 },
  },
  { timestamps: true },
);

userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ createdAt: -1, _id: -1 });

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
};

export function toUserView(doc: Partial<UserDoc> & { _id: Types.ObjectId }): UserView {
  return {
    id: doc._id.toString(),
    email: doc.email ?? "",
    name: doc.name ?? "",
    role: (doc.role as Role) ?? "customer",
    photoUrl: doc.photoUrl || null,
    number: doc.number ?? "",
    address: doc.address ?? "",
    education: doc.education ?? "",
    linkedin: doc.linkedin ?? "",
  };
}

export async function getUserById(id: string) {
  if (!/^[a-f0-9]{24}$/i.test(id)) return null;
  const doc = await User.findById(id).lean();
  return doc ? toUserView(doc) : null;
}

export async function getUserByEmail(email: string) {
  const doc = await User.findOne({ email: email.trim().toLowerCase() }).lean();
  return doc ? toUserView(doc) : null;
}

export function isDuplicateKeyError(error: unknown) {
  return typeof error === "object" && error !== null && (error as { code?: number }).code === 11000;
}
