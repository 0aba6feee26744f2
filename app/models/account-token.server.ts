import { createHash, randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";

/**
 * Single-use links sent by email (password reset, email verification, change of email). The link carries a random
 * token; only its SHA-256 hash is stored, so a copy of the database opens no account.
 */
export const TOKEN_KINDS = ["reset-password", "verify-email", "change-email", "approve-email-change"] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

const tokenSchema = new Schema(
  {
    /** sha256(token), base64url. */
    _id: { type: String, required: true },
    kind: { type: String, enum: TOKEN_KINDS, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    /** The address the link was sent to (verification: the address it proves). */
    email: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date },
  },
  { timestamps: true },
);

tokenSchema.index({ userId: 1, kind: 1 });
// Real MongoDB deletes them a day after they expire (the local database ignores TTL indexes).
tokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 24 * 60 * 60 });

type TokenDoc = {
  _id: string;
  kind: TokenKind;
  userId: Types.ObjectId;
  email: string;
  expiresAt: Date;
  usedAt?: Date;
};

export const AccountToken: mongoose.Model<TokenDoc> =
  (mongoose.models.AccountToken as mongoose.Model<TokenDoc>) ?? mongoose.model<TokenDoc>("AccountToken", tokenSchema);

export const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");

/** A new token for this user; returns the token itself (for the link), which is not stored. */
export async function createAccountToken({
  kind,
  userId,
  email,
  ttlMs,
}: {
  kind: TokenKind;
  userId: string;
  email: string;
  ttlMs: number;
}) {
  const token = randomBytes(32).toString("base64url");
  await AccountToken.create({ _id: hashToken(token), kind, userId, email, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

export type TokenState = { state: "valid"; userId: string; email: string } | { state: "expired" | "used" | "unknown" };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a link's token is, without using it. */
export async function checkAccountToken(kind: TokenKind, token: string): Promise<TokenState> {
  if (!TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const doc = await AccountToken.findOne({ _id: hashToken(token), kind }).lean();
  if (!doc) return { state: "unknown" };
  if (doc.usedAt) return { state: "used" };
  if (doc.expiresAt <= new Date()) return { state: "expired" };
  return { state: "valid", userId: doc.userId.toString(), email: doc.email };
}

/** Uses the token: only one use ever succeeds, and only before it expires. */
export async function spendAccountToken(kind: TokenKind, token: string): Promise<TokenState> {
  if (!TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const doc = await AccountToken.findOneAndUpdate(
    { _id: hashToken(token), kind, usedAt: { $exists: false }, expiresAt: { $gt: new Date() } },
    { $set: { usedAt: new Date() } },
    { returnDocument: "after" },
  ).lean();
  if (doc) return { state: "valid", userId: doc.userId.toString(), email: doc.email };
  return checkAccountToken(kind, token);
}

/** Gives a token back when the change it was used for could not be written. */
export async function releaseAccountToken(kind: TokenKind, token: string) {
  await AccountToken.updateOne({ _id: hashToken(token), kind }, { $unset: { usedAt: "" } });
}

/** Other unused links of these kinds stop working (after a reset, the older reset links). */
export async function retireAccountTokens(userId: string, kind: TokenKind | TokenKind[]) {
  const kinds = Array.isArray(kind) ? kind : [kind];
  await AccountToken.updateMany(
    { userId, kind: { $in: kinds }, usedAt: { $exists: false } },
    { $set: { usedAt: new Date() } },
  );
}
