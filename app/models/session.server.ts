import { createHash, randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";

/**
 * How long a new session's record lives before it is first used: the idle timeout is checked on
 * every read against its role (app/services/guards.server.ts), this only lets the TTL index clean up.
 */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** A signed-in session. The cookie carries only its random id. */
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    expiresAt: { type: Date, required: true },
    /** The last request it was used for (to the minute): the idle timeout counts from here. */
    lastSeenAt: { type: Date },
    /** Where it started, for "Your sessions": a short browser and system summary, and the address. */
    device: { type: String, maxlength: 80 },
    ip: { type: String, maxlength: 64 },
  },
  { timestamps: true },
);

sessionSchema.index({ userId: 1 });
// MongoDB removes a session once its expiry has passed (reads also check it, since the TTL monitor
// runs about once a minute).
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type SessionDoc = {
  _id: string;
  userId: Types.ObjectId;
  expiresAt: Date;
  lastSeenAt?: Date;
  device?: string;
  ip?: string;
  createdAt?: Date;
};

export const Session: mongoose.Model<SessionDoc> =
  (mongoose.models.Session as mongoose.Model<SessionDoc>) ?? mongoose.model<SessionDoc>("Session", sessionSchema);

export async function createSession(userId: string, origin: { device?: string; ip?: string } = {}) {
  const id = randomBytes(32).toString("base64url");
  await Session.create({
    _id: id,
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    lastSeenAt: new Date(),
    ...(origin.device ? { device: origin.device.slice(0, 80) } : {}),
    ...(origin.ip ? { ip: origin.ip.slice(0, 64) } : {}),
  });
  return id;
}

/** A live session (not revoked, not past its expiry), with when it started and was last used. */
export async function getLiveSession(sessionId: string) {
  const doc = await Session.findOne({ _id: sessionId, expiresAt: { $gt: new Date() } }).lean();
  if (!doc) return null;
  const startedAt = (doc.createdAt ?? new Date()).getTime();
  return { userId: doc.userId.toString(), startedAt, lastSeenAt: doc.lastSeenAt?.getTime() ?? startedAt };
}

/** Notes a use of the session and when it now expires (its idle timeout, within its lifetime). */
export async function touchSession(sessionId: string, expiresAt: Date) {
  await Session.updateOne({ _id: sessionId }, { $set: { lastSeenAt: new Date(), expiresAt } });
}

export async function deleteSession(sessionId: string) {
  await Session.deleteOne({ _id: sessionId });
}

/** Signs a user out everywhere; the number of sessions ended. */
export async function deleteUserSessions(userId: string) {
  const result = await Session.deleteMany({ userId });
  return result.deletedCount;
}

/**
 * The handle a page shows for a session: a hash of its id, so the secret id itself never leaves
 * the cookie (a page or a form field could leak it).
 */
export function sessionHandle(sessionId: string) {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 22);
}

export type SessionView = {
  handle: string;
  device: string;
  ip: string;
  startedAt: string;
  current: boolean;
};

/** A user's live sessions, newest first, with the one of this request marked. */
export async function listUserSessions(userId: string, currentSessionId: string | null): Promise<SessionView[]> {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return [];
  const docs = await Session.find({ userId, expiresAt: { $gt: new Date() } })
    .sort({ createdAt: -1, _id: 1 })
    .limit(100)
    .lean();
  return docs.map((doc) => ({
    handle: sessionHandle(doc._id),
    device: doc.device || "Unknown device",
    ip: doc.ip || "unknown",
    startedAt: (doc.createdAt ?? new Date(0)).toISOString(),
    current: doc._id === currentSessionId,
  }));
}

/** Ends one of this user's own sessions, named by its handle; false when the user has no such session. */
export async function deleteOwnSession(userId: string, handle: string) {
  if (!/^[a-f0-9]{24}$/i.test(userId)) return false;
  const docs = await Session.find({ userId }).select({ _id: 1 }).lean();
  const match = docs.find((doc) => sessionHandle(doc._id) === handle);
  if (!match) return false;
  const result = await Session.deleteOne({ _id: match._id, userId });
  return result.deletedCount === 1;
}

/** Ends every session of this user but the one given; the number ended. */
export async function deleteOtherSessions(userId: string, keepSessionId: string) {
  const result = await Session.deleteMany({ userId, _id: { $ne: keepSessionId } });
  return result.deletedCount;
}
