import { randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";
import { hashToken } from "./account-token.server";
import { COMPANY_ROLES, type CompanyRole } from "./company.server";

/**
 * An invitation to join a company, sent by email. Like the account links (account-token.server.ts)
 * the link carries a random token and only its hash is stored; it expires, and one use ever succeeds.
 */
const invitationSchema = new Schema(
  {
    /** sha256(token), base64url. */
    _id: { type: String, required: true },
    companyId: { type: Schema.Types.ObjectId, required: true },
    email: { type: String, required: true, lowercase: true, trim: true, maxlength: 254 },
    role: { type: String, enum: COMPANY_ROLES, required: true },
    invitedBy: { type: Schema.Types.ObjectId, required: true },
    /** The inviting owner's name, for the invitee's page. */
    invitedByName: { type: String, maxlength: 100 },
    /** A buyer's limit per order, set by the owner when inviting. */
    spendingLimitCents: { type: Number, min: 0, validate: Number.isInteger },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date },
    /** Who accepted it (the account that joined). */
    usedBy: { type: Schema.Types.ObjectId },
    revokedAt: { type: Date },
    /**
     * Set on an accepted invitation whose sender's address was proved only later: the join it
     * opened no longer stands (an acceptance racing the proof undoes itself when it sees this).
     */
    voidedAt: { type: Date },
  },
  { timestamps: true },
);

invitationSchema.index({ companyId: 1, createdAt: -1 });
// What one person sent (withdrawn and voided when their address is proved at last).
invitationSchema.index({ invitedBy: 1, createdAt: -1 });
// Real MongoDB deletes them a month after they expire (the local database ignores TTL indexes).
invitationSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 30 * 24 * 60 * 60 });

type InvitationDoc = {
  _id: string;
  companyId: Types.ObjectId;
  email: string;
  role: CompanyRole;
  invitedBy: Types.ObjectId;
  invitedByName?: string;
  spendingLimitCents?: number;
  expiresAt: Date;
  usedAt?: Date;
  usedBy?: Types.ObjectId;
  revokedAt?: Date;
  voidedAt?: Date;
  createdAt?: Date;
};

export const Invitation: mongoose.Model<InvitationDoc> =
  (mongoose.models.Invitation as mongoose.Model<InvitationDoc>) ??
  mongoose.model<InvitationDoc>("Invitation", invitationSchema);

export type InvitationView = {
  /** A handle for the owner's list (the stored hash's start: the token itself is never kept). */
  handle: string;
  companyId: string;
  email: string;
  role: CompanyRole;
  expiresAt: string;
  status: "pending" | "accepted" | "expired" | "revoked";
};

function toInvitationView(doc: InvitationDoc): InvitationView {
  return {
    handle: doc._id.slice(0, 22),
    companyId: String(doc.companyId),
    email: doc.email,
    role: doc.role,
    expiresAt: doc.expiresAt.toISOString(),
    status: doc.usedAt ? "accepted" : doc.revokedAt ? "revoked" : doc.expiresAt <= new Date() ? "expired" : "pending",
  };
}

/** A new invitation; returns the token for the link (not stored). */
export async function createInvitation(input: {
  companyId: string;
  email: string;
  role: CompanyRole;
  invitedBy: string;
  invitedByName?: string;
  spendingLimitCents?: number | null;
  ttlMs: number;
}) {
  const token = randomBytes(32).toString("base64url");
  await Invitation.create({
    _id: hashToken(token),
    companyId: input.companyId,
    email: input.email,
    role: input.role,
    invitedBy: input.invitedBy,
    ...(input.invitedByName ? { invitedByName: input.invitedByName } : {}),
    ...(input.role === "buyer" && input.spendingLimitCents ? { spendingLimitCents: input.spendingLimitCents } : {}),
    expiresAt: new Date(Date.now() + input.ttlMs),
  });
  return token;
}

export type InvitationState =
  | {
      state: "valid";
      companyId: string;
      email: string;
      role: CompanyRole;
      spendingLimitCents: number | null;
      invitedByName: string | null;
    }
  | { state: "expired" | "used" | "unknown" };

const validState = (doc: InvitationDoc): InvitationState => ({
  state: "valid",
  companyId: String(doc.companyId),
  email: doc.email,
  role: doc.role,
  spendingLimitCents: doc.spendingLimitCents ?? null,
  invitedByName: doc.invitedByName ?? null,
});

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a link's invitation is, without using it. */
export async function checkInvitation(token: string): Promise<InvitationState> {
  if (!TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const doc = await Invitation.findById(hashToken(token)).lean();
  if (!doc || doc.revokedAt) return { state: "unknown" };
  if (doc.usedAt) return { state: "used" };
  if (doc.expiresAt <= new Date()) return { state: "expired" };
  return validState(doc);
}

/** Uses the invitation for this account: only one use ever succeeds, before it expires. */
export async function spendInvitation(token: string, userId: string): Promise<InvitationState> {
  if (!TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const doc = await Invitation.findOneAndUpdate(
    {
      _id: hashToken(token),
      usedAt: { $exists: false },
      revokedAt: { $exists: false },
      expiresAt: { $gt: new Date() },
    },
    { $set: { usedAt: new Date(), usedBy: userId } },
    { returnDocument: "after" },
  ).lean();
  if (doc) return validState(doc);
  return checkInvitation(token);
}

/** Gives an invitation back when the join it was used for could not be written. */
export async function releaseInvitation(token: string) {
  await Invitation.updateOne({ _id: hashToken(token) }, { $unset: { usedAt: "", usedBy: "" } });
}

/** The company's invitations, newest first (pending ones and the last few answered). */
export async function listInvitations(companyId: string) {
  const docs = await Invitation.find({ companyId }).sort({ createdAt: -1 }).limit(50).lean();
  return docs.map(toInvitationView);
}

/** Withdraws a pending invitation of this company (by its handle); false when there is none. */
export async function revokeInvitation(companyId: string, handle: string) {
  if (!/^[A-Za-z0-9_-]{22}$/.test(handle)) return false;
  const result = await Invitation.updateOne(
    {
      _id: { $regex: `^${handle.replace(/[-]/g, "\\-")}` },
      companyId,
      usedAt: { $exists: false },
      revokedAt: { $exists: false },
    },
    { $set: { revokedAt: new Date() } },
  );
  return result.modifiedCount === 1;
}

/** Invitations of the company still waiting for an answer (not accepted, withdrawn or expired). */
export async function countPendingInvitations(companyId: string) {
  return Invitation.countDocuments({
    companyId,
    usedAt: { $exists: false },
    revokedAt: { $exists: false },
    expiresAt: { $gt: new Date() },
  });
}

const sentByFilter = (invitedBy: string, companyId?: string) => ({
  invitedBy,
  ...(companyId ? { companyId } : {}),
});

/**
 * Withdraws every pending invitation this person sent (to `companyId` only, when given), one
 * conditional update each, so an invitation accepted meanwhile is not counted; the addresses
 * that were invited. Running it again withdraws nothing more.
 */
export async function withdrawInvitationsSentBy(invitedBy: string, companyId?: string) {
  const pending = {
    ...sentByFilter(invitedBy, companyId),
    usedAt: { $exists: false },
    revokedAt: { $exists: false },
    expiresAt: { $gt: new Date() },
  };
  const docs = await Invitation.find(pending, { email: 1, companyId: 1 }).lean();
  const withdrawn: { email: string; companyId: string }[] = [];
  for (const doc of docs) {
    const result = await Invitation.updateOne({ ...pending, _id: doc._id }, { $set: { revokedAt: new Date() } });
    if (result.modifiedCount === 1) withdrawn.push({ email: doc.email, companyId: String(doc.companyId) });
  }
  return withdrawn;
}

/**
 * Marks every accepted invitation this person sent (to `companyId` only, when given) as void, and
 * returns who joined through them and where (those voided on an earlier run too: a retry
 * finishes what a failed run began).
 */
export async function voidInvitationsAcceptedFrom(invitedBy: string, companyId?: string) {
  const accepted = { ...sentByFilter(invitedBy, companyId), usedAt: { $exists: true }, usedBy: { $exists: true } };
  const docs = await Invitation.find(accepted, { usedBy: 1, companyId: 1 }).lean();
  if (!docs.length) return [];
  await Invitation.updateMany(
    { _id: { $in: docs.map((doc) => doc._id) }, voidedAt: { $exists: false } },
    { $set: { voidedAt: new Date() } },
  );
  return docs.map((doc) => ({ userId: String(doc.usedBy), companyId: String(doc.companyId) }));
}

/** Whether the join this invitation was used for has been voided since. */
export async function isInvitationVoided(token: string) {
  if (!TOKEN_PATTERN.test(token)) return false;
  return Boolean(await Invitation.exists({ _id: hashToken(token), voidedAt: { $exists: true } }));
}
