import { randomBytes } from "node:crypto";
import mongoose, { Schema, type Types } from "mongoose";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A signed-in session. The cookie carries only its random id. */
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, required: true },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: true },
);

sessionSchema.index({ userId: 1 });
// MongoDB removes a session once its expiry has passed (reads also check it, since the TTL monitor
// runs about once a minute).
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

type SessionDoc = { _id: string; userId: Types.ObjectId; expiresAt: Date };

export const Session: mongoose.Model<SessionDoc> =
  (mongoose.models.Session as mongoose.Model<SessionDoc>) ?? mongoose.model<SessionDoc>("Session", sessionSchema);

export async function createSession(userId: string) {
  const id = randomBytes(32).toString("base64url");
  await Session.create({ _id: id, userId, expiresAt: new Date(Date.now() + SESSION_TTL_MS) });
  return id;
}

/** The user id behind a live session, or null for an unknown, revoked or expired one. */
export async function getSessionUserId(sessionId: string) {
  const doc = await Session.findOne({ _id: sessionId, expiresAt: { $gt: new Date() } }).lean();
  return doc ? doc.userId.toString() : null;
}

export async function deleteSession(sessionId: string) {
  await Session.deleteOne({ _id: sessionId });
}

export async function deleteUserSessions(userId: string) {
  await Session.deleteMany({ userId });
}
