/**
 * A company's members: their roles and limits live on the user (read on every request), and every
 * change that could take the company's last owner away first takes an owner seat with one
 * conditional update of the company (takeOwnerSeat), so two owners demoting each other at once
 * leave one owner. A change of two documents compensates when its second write fails.
 */
import { Types } from "mongoose";
import { Company, addOwnerSeat, dropLastOwnerSeat, takeOwnerSeat, type CompanyRole } from "./company.server";
import { User } from "./user.server";

const isObjectId = (id: unknown): id is string => typeof id === "string" && /^[a-f0-9]{24}$/i.test(id);

export type MemberView = {
  id: string;
  name: string;
  email: string;
  role: CompanyRole;
  spendingLimitCents: number | null;
};

/** The company's members, owners first, then by name. */
export async function listMembers(companyId: string): Promise<MemberView[]> {
  if (!isObjectId(companyId)) return [];
  const docs = await User.find({ companyId }, { name: 1, email: 1, companyRole: 1, spendingLimitCents: 1 })
    .sort({ createdAt: 1, _id: 1 })
    .limit(200)
    .lean();
  const order: Record<string, number> = { owner: 0, buyer: 1, accounts: 2 };
  return docs
    .map((doc) => ({
      id: String(doc._id),
      name: doc.name,
      email: doc.email,
      role: (doc.companyRole as CompanyRole) ?? "owner",
      spendingLimitCents: doc.spendingLimitCents ?? null,
    }))
    .sort((a, b) => order[a.role] - order[b.role] || a.name.localeCompare(b.name));
}

/** One member of this company, or null (another company's person is nobody here). */
export async function getMember(companyId: string, userId: string): Promise<MemberView | null> {
  if (!isObjectId(companyId) || !isObjectId(userId)) return null;
  const doc = await User.findOne({ _id: userId, companyId }).lean();
  if (!doc) return null;
  return {
    id: String(doc._id),
    name: doc.name,
    email: doc.email,
    role: (doc.companyRole as CompanyRole) ?? "owner",
    spendingLimitCents: doc.spendingLimitCents ?? null,
  };
}

export type RoleChange = "changed" | "unchanged" | "missing" | "last-owner";

/** Gives a member another role; never takes the last owner away. */
export async function changeMemberRole(companyId: string, userId: string, role: CompanyRole): Promise<RoleChange> {
  const member = await getMember(companyId, userId);
  if (!member) return "missing";
  if (member.role === role) return "unchanged";
  if (member.role === "owner") {
    if (!(await takeOwnerSeat(companyId))) return "last-owner";
    const moved = await User.updateOne(
      { _id: userId, companyId, companyRole: "owner" },
      { $set: { companyRole: role } },
    );
    if (moved.modifiedCount === 1) return "changed";
    await addOwnerSeat(companyId);
    return "missing";
  }
  const moved = await User.updateOne(
    { _id: userId, companyId, companyRole: member.role },
    { $set: { companyRole: role }, ...(role === "owner" ? { $unset: { spendingLimitCents: "" } } : {}) },
  );
  if (moved.modifiedCount !== 1) return "missing";
  if (role === "owner") await addOwnerSeat(companyId);
  return "changed";
}

/** Sets (or, with null, clears) a buyer's limit per order; false when they are no buyer of this company. */
export async function setSpendingLimit(companyId: string, userId: string, cents: number | null) {
  if (!isObjectId(companyId) || !isObjectId(userId)) return false;
  const result = await User.updateOne(
    { _id: userId, companyId, companyRole: "buyer" },
    cents === null ? { $unset: { spendingLimitCents: "" } } : { $set: { spendingLimitCents: cents } },
  );
  return result.matchedCount === 1;
}

/**
 * Takes a person out of their company into another (`to`, with a role), or, with no `to`, into a
 * new company of their own. An owner leaves only while another owner stays; with `leaveEmpty`
 * (joining another company), the only member of a company of one may leave it empty (its orders
 * stay there). "moved" on success.
 */
export async function moveMember(
  userId: string,
  from: string,
  to: { companyId: string; role: CompanyRole } | null,
  { leaveEmpty = false }: { leaveEmpty?: boolean } = {},
): Promise<"moved" | "missing" | "last-owner"> {
  const member = await getMember(from, userId);
  if (!member) return "missing";
  let tookSeat = false;
  if (member.role === "owner") {
    tookSeat = await takeOwnerSeat(from);
    if (!tookSeat) {
      if (!leaveEmpty) return "last-owner";
      const others = await User.countDocuments({ companyId: from, _id: { $ne: userId } });
      if (others > 0) return "last-owner";
      await dropLastOwnerSeat(from);
      tookSeat = true;
    }
  }
  const target = to ?? { companyId: String(new Types.ObjectId()), role: "owner" as const };
  if (!to) await Company.create({ _id: target.companyId, ownerCount: 0 });
  const moved = await User.updateOne(
    { _id: userId, companyId: from, companyRole: member.role },
    { $set: { companyId: target.companyId, companyRole: target.role }, $unset: { spendingLimitCents: "" } },
  );
  if (moved.modifiedCount !== 1) {
    if (tookSeat) await addOwnerSeat(from);
    if (!to) await Company.deleteOne({ _id: target.companyId });
    return "missing";
  }
  if (target.role === "owner") await addOwnerSeat(target.companyId);
  return "moved";
}

/** How many people a company has (the admin's companies list). */
export async function memberCounts(companyIds: string[]) {
  const valid = companyIds.filter(isObjectId).map((id) => new Types.ObjectId(id));
  if (valid.length === 0) return new Map<string, number>();
  const rows = await User.aggregate<{ _id: Types.ObjectId; count: number }>([
    { $match: { companyId: { $in: valid } } },
    { $group: { _id: "$companyId", count: { $sum: 1 } } },
  ]);
  return new Map(rows.map((row) => [String(row._id), row.count]));
}
